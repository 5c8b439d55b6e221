package gateway

import (
	"context"

	"github.com/v2bridge/v2bridge/translate"
)

// handleViolations serves GET /v2/alerts_violations (start_date, end_date, only_open,
// page).
func handleViolations(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	p := rq.params
	var req translate.ViolationsRequest
	if t, ok, err := p.Time("start_date"); err != nil {
		return nil, err
	} else if ok {
		req.Start = &t
	}
	if t, ok, err := p.Time("end_date"); err != nil {
		return nil, err
	} else if ok {
		req.End = &t
	}
	var err error
	if req.OnlyOpen, err = p.Bool("only_open"); err != nil {
		return nil, err
	}
	if req.Page, err = p.Page(); err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.Violations(ctx, rq.caller, req)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// handleIncidents serves GET /v2/alerts_incidents (only_open, exclude_violations, page).
func handleIncidents(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	var req translate.IncidentsRequest
	var err error
	if req.OnlyOpen, err = rq.params.Bool("only_open"); err != nil {
		return nil, err
	}
	if req.ExcludeViolations, err = rq.params.Bool("exclude_violations"); err != nil {
		return nil, err
	}
	if req.Page, err = rq.params.Page(); err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.Incidents(ctx, rq.caller, req)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}
