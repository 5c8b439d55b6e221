package gateway

import (
	"context"
	"slices"
	"strconv"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// handleApplicationsList serves GET /v2/applications (and POST with a form body, which
// is how Ansible's newrelic_deployment module looks applications up).
func handleApplicationsList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	p := rq.params
	req := translate.AppListRequest{}
	req.Name, _ = p.Get("filter[name]")
	req.Language, _ = p.Get("filter[language]")
	req.Host, _ = p.Get("filter[host]")
	var err error
	if req.IDs, err = p.IDs("filter[ids]"); err != nil {
		return nil, err
	}
	// filter[id] (one id), the third filter REST v2 lists for this route, adds to
	// filter[ids].
	one, err := p.IDs("filter[id]")
	if err != nil {
		return nil, err
	}
	for _, id := range one {
		if !slices.Contains(req.IDs, id) {
			req.IDs = append(req.IDs, id)
		}
	}
	if req.ExcludeLinks, err = p.Bool("exclude_links"); err != nil {
		return nil, err
	}
	if req.Page, err = p.Page(); err != nil {
		return nil, err
	}
	list, paging, err := g.tr.ListApplications(ctx, rq.caller, req)
	if err != nil {
		return nil, err
	}
	return &result{doc: list, paging: &paging}, nil
}

// handleApplicationsShow serves GET /v2/applications/{id}.
func handleApplicationsShow(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := strconv.ParseInt(rq.vars["id"], 10, 64)
	if err != nil {
		return nil, restv2.NotFound(restv2.TitleApplicationNotFound)
	}
	show, err := g.tr.ShowApplication(ctx, rq.caller, id)
	if err != nil {
		return nil, err
	}
	return &result{doc: show}, nil
}

// handleApplicationUpdate serves PUT /v2/applications/{id}.
func handleApplicationUpdate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", restv2.TitleApplicationNotFound)
	if err != nil {
		return nil, err
	}
	in, err := restv2.DecodeApplicationUpdate(rq.body)
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.UpdateApplication(ctx, rq.caller, id, in)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}

// handleApplicationDelete serves DELETE /v2/applications/{id}.
func handleApplicationDelete(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", restv2.TitleApplicationNotFound)
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.DeleteApplication(ctx, rq.caller, id)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}
