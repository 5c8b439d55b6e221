package gateway

import (
	"context"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// handleBrowserList serves GET /v2/browser_applications.
func handleBrowserList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	req := translate.BrowserListRequest{}
	req.Name, _ = rq.params.Get("filter[name]")
	var err error
	if req.IDs, err = rq.params.IDs("filter[ids]"); err != nil {
		return nil, err
	}
	if req.Page, err = rq.params.Page(); err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.ListBrowserApplications(ctx, rq.caller, req)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// handleBrowserCreate serves POST /v2/browser_applications.
func handleBrowserCreate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	name, err := restv2.DecodeBrowserApplication(rq.body, rq.params)
	if err != nil {
		return nil, err
	}
	loader := ng.AgentApplicationBrowserLoader(g.cfg.BrowserLoader)
	if loader == "" {
		loader = translate.BrowserLoader
	}
	doc, err := g.tr.CreateBrowserApplication(ctx, rq.caller, name, loader)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, status: restv2.StatusCreated}, nil
}
