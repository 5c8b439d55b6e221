package gateway

import (
	"bytes"
	"context"
	"encoding/xml"
	"net/http"
	"strconv"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// deploymentBody is {"deployment":{...}} (JSON) or <deployment>...</deployment> (XML);
// unknown fields are ignored, as REST v2 did.
type deploymentBody struct {
	Deployment *deploymentFields `json:"deployment"`
}

type deploymentFields struct {
	Revision    *string `json:"revision" xml:"revision"`
	Changelog   *string `json:"changelog" xml:"changelog"`
	Description *string `json:"description" xml:"description"`
	User        *string `json:"user" xml:"user"`
	Timestamp   *string `json:"timestamp" xml:"timestamp"`
}

func parseDeployment(rq *request) (translate.DeploymentInput, error) {
	var in translate.DeploymentInput
	body := bytes.TrimSpace(rq.body)
	var b deploymentBody
	switch {
	case len(body) == 0 || isFormBody(rq.http.Header.Get("Content-Type"), body):
		p := rq.params
		get := func(k string) *string {
			if v, ok := p.Get("deployment[" + k + "]"); ok {
				return &v
			}
			return nil
		}
		b.Deployment = &deploymentFields{get("revision"), get("changelog"), get("description"), get("user"), get("timestamp")}
	case body[0] == '<':
		var x struct {
			XMLName xml.Name `xml:"deployment"`
			deploymentFields
		}
		if err := xml.Unmarshal(body, &x); err != nil {
			return in, restv2.BadRequest("The request body is not a valid <deployment> XML document: " + err.Error())
		}
		b.Deployment = &x.deploymentFields
	default:
		if err := restv2.DecodeJSON(body, &b); err != nil {
			return in, jsonBodyError(body, err, "The deployment has a value of the wrong kind")
		}
	}
	if b.Deployment == nil {
		return in, restv2.Unprocessable(`The request body needs a "deployment" object`)
	}
	d := b.Deployment
	if d.Revision != nil {
		in.Revision = *d.Revision
	}
	in.Changelog, in.Description, in.User = d.Changelog, d.Description, d.User
	if d.Timestamp != nil && *d.Timestamp != "" {
		ts, err := translate.ParseDeploymentTimestamp(*d.Timestamp)
		if err != nil {
			return in, err
		}
		in.Timestamp = &ts
	}
	return in, nil
}

// handleDeploymentCreate serves POST /v2/applications/{id}/deployments.
func handleDeploymentCreate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	app, err := pathID(rq, "id", restv2.TitleApplicationNotFound)
	if err != nil {
		return nil, err
	}
	received := g.now().UTC().Truncate(time.Millisecond)
	in, err := parseDeployment(rq)
	if err != nil {
		return nil, err
	}
	if in.IdempotencyKey, err = idempotencyKey(rq); err != nil {
		return nil, err
	}
	doc, err := g.tr.CreateDeployment(ctx, rq.caller, app, in, received, g.cfg.UseCreateDeployment)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, status: http.StatusCreated}, nil
}

// idempotencyKey reads the optional Idempotency-Key header (not REST v2's: the
// gateway's tool for retrying a write safely; translate/writeoutcome.go). It is 1 to
// translate.MaxIdempotencyKey printable ASCII characters.
func idempotencyKey(rq *request) (string, error) {
	vs := rq.http.Header.Values("Idempotency-Key")
	if len(vs) == 0 {
		return "", nil
	}
	k := vs[0]
	ok := len(vs) == 1 && k != "" && len(k) <= translate.MaxIdempotencyKey
	for i := 0; ok && i < len(k); i++ {
		ok = k[i] >= 0x20 && k[i] <= 0x7e
	}
	if !ok {
		return "", restv2.Unprocessable("Idempotency-Key must be one header of 1 to " +
			strconv.Itoa(translate.MaxIdempotencyKey) + " printable ASCII characters")
	}
	return k, nil
}

// handleDeploymentList serves GET /v2/applications/{id}/deployments.
func handleDeploymentList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	app, err := pathID(rq, "id", restv2.TitleApplicationNotFound)
	if err != nil {
		return nil, err
	}
	page, err := rq.params.Page()
	if err != nil {
		return nil, err
	}
	l, err := g.tr.ListDeployments(ctx, rq.caller, app, page)
	if err != nil {
		return nil, err
	}
	return &result{doc: l.Doc, paging: &l.Paging}, nil
}
