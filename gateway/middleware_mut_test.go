package gateway

// The access log's level edges, the degraded-enrichment note (middleware.go) and the
// public base of Link headers (paging.go), written against mutants of `make mutate
// PKG=./gateway FILES='^(middleware|paging)\.go$'` (gremlins v0.6.0). The level `case`
// expressions (middleware.go:139, :141) are outside Go's coverage blocks: gremlins lists
// them NOT COVERED; the cases below kill them (checked by hand).
//
// Equivalent (tests/MUTATION.md): paging.go:22 CONDITIONALS_BOUNDARY (`p.Page <= 1` →
// `< 1`): on page 1 without a next page the rest of linkHeader adds no link either and
// returns "" as the early return does.

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestAccessLogEdgesMut: a 500 without an internal error is a warning and a 499 is not
// (middleware.go:141 `status >= 500` → `>`, negated); an unwritten status logs as 200
// (:134 `status == 0`); an enrichment noted with noteDegraded is listed, a request
// without state notes nothing (:61 `s != nil`).
func TestAccessLogEdgesMut(t *testing.T) {
	for _, tc := range []struct {
		status, logged int
		want           zapcore.Level
	}{{500, 500, zapcore.WarnLevel}, {499, 499, zapcore.InfoLevel}, {0, 200, zapcore.InfoLevel}, {501, 501, zapcore.WarnLevel}} {
		core, logs := observer.New(zapcore.InfoLevel)
		g := New(Config{}, nil, zap.New(core))
		st := &reqState{id: "rid", route: "applications.list"}
		st.sw.status = tc.status
		ctx := context.WithValue(context.Background(), stateKey{}, st)
		noteDegraded(ctx, "links", errors.New("nrql failed"))
		g.accessLog(httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil), &st.sw, st)
		e := logs.All()
		if len(e) != 1 || e[0].Level != tc.want || e[0].ContextMap()["status"] != int64(tc.logged) {
			t.Fatalf("status %d: %+v, want one line at %v with status %d", tc.status, e, tc.want, tc.logged)
		}
		if d, _ := e[0].ContextMap()["degraded"].([]any); len(d) != 1 || d[0] != "links: nrql failed" {
			t.Errorf("degraded field %v, want the noted enrichment", e[0].ContextMap()["degraded"])
		}
	}
	noteDegraded(context.Background(), "links", errors.New("x")) // no state: nothing to note, no panic
	if RequestID(context.Background()) != "" {
		t.Error("RequestID without state is not empty")
	}
}

// TestPublicBaseMut: public_url without its trailing slash, else the scheme of the
// connection and the local address it was accepted on, never the Host header
// (paging.go:54 `r.TLS != nil`, :58 `ok && a != nil`).
func TestPublicBaseMut(t *testing.T) {
	g := New(Config{PublicURL: "https://v2.example.com/"}, nil, nil)
	if got := g.publicBase(httptest.NewRequest(http.MethodGet, "/v2/x.json", nil)); got != "https://v2.example.com" {
		t.Errorf("with public_url: %q", got)
	}
	g = New(Config{}, nil, nil)
	r := httptest.NewRequest(http.MethodGet, "http://evil.example/v2/x.json", nil)
	r.TLS = nil
	if got := g.publicBase(r); got != "http://localhost" {
		t.Errorf("no local address: %q, want http://localhost", got)
	}
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8443}
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(addr)))
	r.TLS = &tls.ConnectionState{}
	if got := g.publicBase(r); got != "https://127.0.0.1:8443" {
		t.Errorf("TLS on a local address: %q, want https://127.0.0.1:8443", got)
	}
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(nil)))
	r.TLS = nil
	if got := g.publicBase(r); got != "http://localhost" {
		t.Errorf("nil local address: %q, want http://localhost", got)
	}
}
