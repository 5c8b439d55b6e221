package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
)

// recordAll sends one request through the gateway over the simulator and keeps every
// NerdGraph answer it needed.
func recordAll(b testing.TB, method, path, body string) *canned {
	b.Helper()
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		b.Fatal(err)
	}
	s, err := sim.NewDemo(data, sim.WithClock(func() time.Time { return clock }))
	if err != nil {
		b.Fatal(err)
	}
	c := &canned{bodies: map[string][]byte{}}
	up := httptest.NewServer(&recorder{next: s, c: c})
	defer up.Close()
	h := gatewayOver(ng.NewClient(up.URL+sim.Path, ng.Options{}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, benchRequest(method, path, body))
	if rec.Code >= 300 {
		b.Fatalf("%d %s", rec.Code, rec.Body)
	}
	return c
}

func benchRequest(method, path, body string) *http.Request {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("X-Api-Key", key)
	req.Header.Set("X-Account-ID", "1000001")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// BenchmarkGatewayDeploymentCreate is the gateway's own cost of one deployment create
// (the harness's "deployment create" scenario), every NerdGraph answer from memory.
func BenchmarkGatewayDeploymentCreate(b *testing.B) {
	const path, body = "/v2/applications/314221522/deployments.json", `{"deployment":{"revision":"bench"}}`
	c := recordAll(b, "POST", path, body)
	h := gatewayOver(ng.NewClient("http://nerdgraph.invalid/graphql", ng.Options{HTTPClient: &http.Client{Transport: cannedSet{c}}}))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, benchRequest("POST", path, body))
		if rec.Code != http.StatusCreated {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}
