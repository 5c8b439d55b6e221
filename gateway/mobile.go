package gateway

import (
	"context"

	"github.com/v2bridge/v2bridge/restv2"
)

// handleMobileList serves GET /v2/mobile_applications.
func handleMobileList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	page, err := rq.params.Page()
	if err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.ListMobileApplications(ctx, rq.caller, page)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// handleMobileShow serves GET /v2/mobile_applications/{id}.
func handleMobileShow(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", "No Mobile Application found with the given ID")
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.ShowMobileApplication(ctx, rq.caller, id)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}

// handleMobileCreate serves POST /v2/mobile_applications.
func handleMobileCreate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	name, err := restv2.DecodeMobileApplication(rq.body)
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.CreateMobileApplication(ctx, rq.caller, name)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, status: restv2.StatusCreated}, nil
}
