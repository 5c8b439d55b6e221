package gateway

import (
	"context"

	"github.com/v2bridge/v2bridge/translate"
)

// handleAlertEvents serves GET /v2/alerts_events (filter[product],
// filter[entity_type], filter[entity_group_id], filter[entity_id],
// filter[event_type], filter[incident_id], page).
func handleAlertEvents(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	p := rq.params
	req := translate.AlertEventsRequest{}
	req.Product, _ = p.Get("filter[product]")
	req.EntityType, _ = p.Get("filter[entity_type]")
	req.EventType, _ = p.Get("filter[event_type]")
	for _, f := range []struct {
		name string
		to   *int64
	}{{"filter[entity_group_id]", &req.EntityGroupID}, {"filter[entity_id]", &req.EntityID}, {"filter[incident_id]", &req.IncidentID}} {
		id, err := p.FirstID(f.name)
		if err != nil {
			return nil, err
		}
		*f.to = id
	}
	var err error
	if req.Page, err = p.Page(); err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.AlertEvents(ctx, rq.caller, req)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// incidentActionHandler serves PUT /v2/alerts_incidents/{id}/acknowledge
// (resolve false) and /close (resolve true).
func incidentActionHandler(resolve bool) func(context.Context, *Gateway, *request) (*result, error) {
	return func(ctx context.Context, g *Gateway, rq *request) (*result, error) {
		id, err := pathID(rq, "id", "No incident was found for the given ID")
		if err != nil {
			return nil, err
		}
		doc, err := g.tr.IncidentAction(ctx, rq.caller, id, resolve)
		if err != nil {
			return nil, err
		}
		return &result{doc: doc}, nil
	}
}
