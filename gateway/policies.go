package gateway

import (
	"context"

	"github.com/v2bridge/v2bridge/restv2"
)

// handlePolicyList serves GET /v2/alerts_policies.
func handlePolicyList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	name, _ := rq.params.Get("filter[name]")
	page, err := rq.params.Page()
	if err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.ListPolicies(ctx, rq.caller, name, page)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// handlePolicyCreate serves POST /v2/alerts_policies.
func handlePolicyCreate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	in, err := restv2.DecodePolicy(rq.body)
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.CreatePolicy(ctx, rq.caller, in)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, status: restv2.StatusCreated}, nil
}

// handlePolicyUpdate serves PUT /v2/alerts_policies/{id}.
func handlePolicyUpdate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", "No Alerts policy was found for the given ID")
	if err != nil {
		return nil, err
	}
	in, err := restv2.DecodePolicy(rq.body)
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.UpdatePolicy(ctx, rq.caller, id, in)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}

// handlePolicyDelete serves DELETE /v2/alerts_policies/{id}.
func handlePolicyDelete(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", "No Alerts policy was found for the given ID")
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.DeletePolicy(ctx, rq.caller, id)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}
