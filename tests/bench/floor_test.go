package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
)

// The floor routes a request with the gateway's own route and template.
func TestFloorRoute(t *testing.T) {
	for _, tt := range []struct{ path, name, tpl string }{
		{"/v2/applications/314221522.json", "applications.show", "/v2/applications/{id:[0-9]+}.{format:json|xml}"},
		{"/v2/applications/314221522/metrics/data.xml", "applications.metric_data", "/v2/applications/{id:[0-9]+}/metrics/data.{format:json|xml}"},
		{"/v2/applications.json", "applications.list", "/v2/applications.{format:json|xml}"},
		{"/v2/applications", "", ""},
		{"/v2/no_such_thing.json", "", ""},
	} {
		rt, tpl, err := floorRoute(tt.path)
		if rt.Name != tt.name || tpl != tt.tpl || (err != nil) != (tt.name == "") {
			t.Errorf("floorRoute(%q) = %q, %q, %v; want %q, %q", tt.path, rt.Name, tpl, err, tt.name, tt.tpl)
		}
	}
}

// The contract floor answers a cached request with the gateway's bytes and header
// names and logs a line with the gateway's fields: a floor that sent or logged less
// would make the ratio to it say less than it does. It answers only the key it was
// given (its cache is keyed by the caller, as the gateway's is).
func TestFloorAnswersAsGateway(t *testing.T) {
	for _, path := range []string{
		"/v2/applications/314221522.json",
		"/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&period=60&from=2026-11-20T09:00:00Z&to=2026-11-20T12:00:00Z",
	} {
		t.Run(path, func(t *testing.T) {
			canned := record(t, path)
			gwCore, gwLogs := observer.New(zapcore.InfoLevel)
			gw := gatewayLogged(ng.NewClient("http://nerdgraph.invalid/graphql", ng.Options{
				HTTPClient: &http.Client{Transport: &cannedTransport{body: canned}}}), time.Minute, zap.New(gwCore))
			get := func(h http.Handler, apiKey string) *httptest.ResponseRecorder {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.Header.Set("X-Api-Key", apiKey)
				req.Header.Set("X-Account-ID", "1000001")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				return rec
			}
			if rec := get(gw, key); rec.Code != http.StatusOK {
				t.Fatalf("gateway: %d %s", rec.Code, rec.Body)
			}
			hit := get(gw, key) // from the cache
			if hit.Code != http.StatusOK || hit.Header().Get("X-V2bridge-Upstream-Calls") != "0" {
				t.Fatalf("gateway's second answer: %d, upstream calls %q", hit.Code, hit.Header().Get("X-V2bridge-Upstream-Calls"))
			}
			p, q, _ := strings.Cut(path, "?")
			flCore, flLogs := observer.New(zapcore.InfoLevel)
			fl, err := newFloor(p, q, key, hit.Body.Bytes(), hit.Header(), zap.New(flCore))
			if err != nil {
				t.Fatal(err)
			}
			got := get(fl, key)
			if got.Code != http.StatusOK || !bytes.Equal(got.Body.Bytes(), hit.Body.Bytes()) {
				t.Fatalf("floor: %d, body equal %v", got.Code, bytes.Equal(got.Body.Bytes(), hit.Body.Bytes()))
			}
			if g, w := slices.Sorted(maps.Keys(got.Header())), slices.Sorted(maps.Keys(hit.Header())); !slices.Equal(g, w) {
				t.Errorf("floor's header names %v, gateway's %v", g, w)
			}
			if g, w := fieldKeys(t, flLogs.All()), fieldKeys(t, gwLogs.All()[1:]); !slices.Equal(g, w) {
				t.Errorf("floor's access-log fields %v, gateway's %v", g, w)
			}
			// The values that do not change per request are the gateway's too.
			fv, gv := flLogs.All()[0].ContextMap(), gwLogs.All()[1].ContextMap()
			for _, k := range []string{"method", "route", "path", "status", "bytes", "upstream_calls", "fidelity", "caller", "account", "account_source"} {
				if fmt.Sprint(fv[k]) != fmt.Sprint(gv[k]) {
					t.Errorf("access-log %s: floor %v, gateway %v", k, fv[k], gv[k])
				}
			}
			if rec := get(fl, "NRAK-SOMEONE-ELSE"); rec.Code == http.StatusOK {
				t.Error("the floor answered another key from the first key's cache")
			}
		})
	}
}

// fieldKeys are the sorted field keys of the one entry in logs.
func fieldKeys(t *testing.T, logs []observer.LoggedEntry) []string {
	t.Helper()
	if len(logs) != 1 {
		t.Fatalf("%d access-log entries, want 1", len(logs))
	}
	var keys []string
	for _, f := range logs[0].Context {
		keys = append(keys, f.Key)
	}
	slices.Sort(keys)
	return keys
}

// BenchmarkFloorApplicationShow and BenchmarkFloorMetricData are the contract floor's
// handler on BenchmarkGatewayApplicationShowCached's and BenchmarkGatewayMetricDataCached's
// requests, to set beside them (both log through accessLogger, both with the test's
// recorder).
func BenchmarkFloorApplicationShow(b *testing.B) { benchFloor(b, "/v2/applications/314221522.json") }

func BenchmarkFloorMetricData(b *testing.B) {
	benchFloor(b, "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z")
}

// benchFloor serves path from the floor, with the gateway's cached answer to it.
func benchFloor(b *testing.B, path string) {
	canned := record(b, path)
	gw := gatewayLogged(ng.NewClient("http://nerdgraph.invalid/graphql", ng.Options{
		HTTPClient: &http.Client{Transport: &cannedTransport{body: canned}}}), time.Minute, accessLogger())
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("X-Api-Key", key)
	req.Header.Set("X-Account-ID", "1000001")
	gw.ServeHTTP(httptest.NewRecorder(), req)
	hit := httptest.NewRecorder()
	gw.ServeHTTP(hit, req)
	p, q, _ := strings.Cut(path, "?")
	fl, err := newFloor(p, q, key, hit.Body.Bytes(), hit.Header(), accessLogger())
	if err != nil {
		b.Fatal(err)
	}
	benchServe(b, fl, req)
}

// The plain server sends a body larger than net/http's response buffer with its
// length, not chunked: chunking costs it a write more per answer than the gateway
// pays, which made it slower than the physical limit it stands for.
func TestPlainNotChunked(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 5000)
	srv := httptest.NewServer(newPlain(body))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.ContentLength != int64(len(body)) || len(resp.TransferEncoding) != 0 || !bytes.Equal(got, body) {
		t.Fatalf("plain: Content-Length %d, Transfer-Encoding %v, body equal %v", resp.ContentLength, resp.TransferEncoding, bytes.Equal(got, body))
	}
}

// Every measured server but the plain one answers on the gateway's own server, with
// serve's timeouts; the plain server, the physical limit, has none but the header's.
func TestServerFor(t *testing.T) {
	want := gateway.NewServer(nil, nil)
	for _, kind := range []string{"gateway", "gateway-cached", "gateway-scale", "gateway-scale-like", "proxy", "floor", fleetServeKind} {
		got := serverFor(kind, nil)
		if got.ReadTimeout != want.ReadTimeout || got.WriteTimeout != want.WriteTimeout || got.IdleTimeout != want.IdleTimeout ||
			got.ReadHeaderTimeout != want.ReadHeaderTimeout || got.MaxHeaderBytes != want.MaxHeaderBytes || got.ReadTimeout == 0 {
			t.Errorf("%s: server %+v, want serve's timeouts", kind, got)
		}
	}
	if p := serverFor("plain", nil); p.ReadTimeout != 0 || p.WriteTimeout != 0 {
		t.Errorf("plain: read %v write %v, want none", p.ReadTimeout, p.WriteTimeout)
	}
}
