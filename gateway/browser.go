package gateway

import (
	"bytes"
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

// parseBrowserApplication is the name a browser application create body gives:
// {"browser_application":{"name":...}} or the form browser_application[name].
func parseBrowserApplication(rq *request) (string, error) {
	var b struct {
		BrowserApplication *struct {
			Name string `json:"name"`
		} `json:"browser_application"`
	}
	body := bytes.TrimSpace(rq.body)
	if len(body) > 0 && body[0] != '{' {
		// A form body (filter[...]) on POST is a list call, as Ansible sends for
		// applications; browser_application[name] creates.
		if name, ok := rq.params.Get("browser_application[name]"); ok {
			return name, nil
		}
	} else if err := restv2.DecodeJSON(body, &b); err != nil {
		return "", jsonBodyError(body, err, "Validation error occurred while creating the browser application")
	}
	if b.BrowserApplication == nil {
		return "", restv2.Unprocessable(`The request body needs a "browser_application" object with a name`)
	}
	return b.BrowserApplication.Name, nil
}

// handleBrowserCreate serves POST /v2/browser_applications.
func handleBrowserCreate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	name, err := parseBrowserApplication(rq)
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
