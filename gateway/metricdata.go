package gateway

import (
	"context"
	"strconv"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// metricScope reads the application, host or instance a metrics route names. A host
// id is resolved to its host name and an instance id checked against the
// application's instances (each cached by the hosts routes, else one lookup): an
// unknown one is REST's 404, as on the host and instance shows.
func metricScope(ctx context.Context, g *Gateway, rq *request) (translate.MetricScope, error) {
	s := translate.MetricScope{Mobile: rq.mobile}
	id, err := strconv.ParseInt(rq.vars["id"], 10, 64)
	if err != nil || id <= 0 {
		return s, s.NotFound()
	}
	s.AppID = id
	if rq.vars["host_id"] != "" {
		hostID, err := pathID(rq, "host_id", "No Application Host found with the given ID")
		if err != nil {
			return s, err
		}
		if s.Host, err = g.tr.HostName(ctx, rq.caller, id, hostID); err != nil {
			return s, err
		}
	}
	if rq.vars["instance_id"] != "" {
		if s.InstanceID, err = pathID(rq, "instance_id", translate.TitleInstanceNotFound); err != nil {
			return s, err
		}
		if err = g.tr.CheckInstance(ctx, rq.caller, id, s.InstanceID); err != nil {
			return s, err
		}
	}
	return s, nil
}

// handleMetricNames serves GET .../metrics.
func handleMetricNames(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	scope, err := metricScope(ctx, g, rq)
	if err != nil {
		return nil, err
	}
	req := translate.MetricNamesRequest{}
	req.Name, _ = rq.params.Get("name")
	if req.Page, err = rq.params.Page(); err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.MetricNames(ctx, rq.caller, scope, req)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// handleMetricData serves GET .../metrics/data.
func handleMetricData(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	scope, err := metricScope(ctx, g, rq)
	if err != nil {
		return nil, err
	}
	p := rq.params
	req := metricdata.Request{
		Names:  p.Strings("names[]", "names", "name"),
		Values: p.Strings("values[]", "values"),
	}
	if t, ok, err := p.Time("from"); err != nil {
		return nil, err
	} else if ok {
		req.From = &t
	}
	if t, ok, err := p.Time("to"); err != nil {
		return nil, err
	} else if ok {
		req.To = &t
	}
	if req.Period, err = p.Int("period", 0); err != nil {
		return nil, err
	}
	if req.Period < 0 {
		return nil, restv2.Unprocessable("period must be a positive number of seconds")
	}
	if req.Summarize, err = p.Bool("summarize"); err != nil {
		return nil, err
	}
	if req.Raw, err = p.Bool("raw"); err != nil {
		return nil, err
	}
	doc, err := g.tr.MetricDocument(ctx, rq.caller, scope, req)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}
