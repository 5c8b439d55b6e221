package gateway

import (
	"context"
	"strconv"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// handleDeploymentCreate serves POST /v2/applications/{id}/deployments.
func handleDeploymentCreate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	app, err := pathID(rq, "id", restv2.TitleApplicationNotFound)
	if err != nil {
		return nil, err
	}
	received := g.now().UTC().Truncate(time.Millisecond)
	in, err := restv2.DecodeDeployment(rq.body, rq.http.Header.Get("Content-Type"), rq.params)
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
	return &result{doc: doc, status: restv2.StatusCreated}, nil
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
