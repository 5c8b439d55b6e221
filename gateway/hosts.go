package gateway

import (
	"context"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// hostsHandler is the handler of GET /v2/applications/{id}/hosts, or with instances of
// GET /v2/applications/{id}/instances.
func hostsHandler(instances bool) func(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	return func(ctx context.Context, g *Gateway, rq *request) (*result, error) {
		app, err := pathID(rq, "id", restv2.TitleApplicationNotFound)
		if err != nil {
			return nil, err
		}
		req := translate.HostListRequest{}
		req.Hostname, _ = rq.params.Get("filter[hostname]")
		if req.IDs, err = rq.params.IDs("filter[ids]"); err != nil {
			return nil, err
		}
		if req.Page, err = rq.params.Page(); err != nil {
			return nil, err
		}
		doc, paging, err := g.tr.Hosts(ctx, rq.caller, app, instances, req)
		if err != nil {
			return nil, err
		}
		return &result{doc: doc, paging: &paging}, nil
	}
}

// hostHandler is the handler of GET /v2/applications/{id}/hosts/{host_id}, or with
// instance of GET /v2/applications/{id}/instances/{host_id}.
func hostHandler(instance bool) func(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	return func(ctx context.Context, g *Gateway, rq *request) (*result, error) {
		app, err := pathID(rq, "id", restv2.TitleApplicationNotFound)
		if err != nil {
			return nil, err
		}
		id, err := pathID(rq, "host_id", "Not found")
		if err != nil {
			return nil, err
		}
		doc, err := g.tr.Host(ctx, rq.caller, app, id, instance)
		if err != nil {
			return nil, err
		}
		return &result{doc: doc}, nil
	}
}
