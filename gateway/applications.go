package gateway

import (
	"bytes"
	"context"
	"encoding/xml"
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

// applicationBody is REST's PUT body, JSON or XML; unknown fields are ignored and
// use_server_side_config (read-only) is accepted and dropped.
type applicationBody struct {
	Name     *string `json:"name" xml:"name"`
	Settings *struct {
		AppApdexThreshold        *float64 `json:"app_apdex_threshold" xml:"app_apdex_threshold"`
		EndUserApdexThreshold    *float64 `json:"end_user_apdex_threshold" xml:"end_user_apdex_threshold"`
		EnableRealUserMonitoring *bool    `json:"enable_real_user_monitoring" xml:"enable_real_user_monitoring"`
		UseServerSideConfig      *bool    `json:"use_server_side_config" xml:"use_server_side_config"`
	} `json:"settings" xml:"settings"`
}

func parseApplicationUpdate(rq *request) (translate.AppUpdateInput, error) {
	var in translate.AppUpdateInput
	body := bytes.TrimSpace(rq.body)
	var b applicationBody
	switch {
	case len(body) == 0:
		return in, restv2.Unprocessable(`The request body needs an "application" object`)
	case body[0] == '<':
		var x struct {
			XMLName xml.Name `xml:"application"`
			applicationBody
		}
		if err := xml.Unmarshal(body, &x); err != nil {
			return in, restv2.BadRequest("The request body is not a valid <application> XML document: " + err.Error())
		}
		b = x.applicationBody
	default:
		var j struct {
			Application *applicationBody `json:"application"`
		}
		if err := restv2.DecodeJSON(body, &j); err != nil {
			return in, jsonBodyError(body, err, "Validation error occurred when updating the application")
		}
		if j.Application == nil {
			return in, restv2.Unprocessable(`The request body needs an "application" object`)
		}
		b = *j.Application
	}
	in.Name = b.Name
	if s := b.Settings; s != nil {
		in.AppApdexThreshold, in.EndUserApdexThreshold, in.EnableRealUserMonitoring = s.AppApdexThreshold, s.EndUserApdexThreshold, s.EnableRealUserMonitoring
	}
	for _, v := range []*float64{in.AppApdexThreshold, in.EndUserApdexThreshold} {
		if v != nil && *v <= 0 {
			return in, restv2.Unprocessable("Validation error occurred when updating the application", "Apdex thresholds must be positive")
		}
	}
	return in, nil
}

// handleApplicationUpdate serves PUT /v2/applications/{id}.
func handleApplicationUpdate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", restv2.TitleApplicationNotFound)
	if err != nil {
		return nil, err
	}
	in, err := parseApplicationUpdate(rq)
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
