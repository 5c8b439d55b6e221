package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// Readiness reflects this replica, not NerdGraph: with NerdGraph
// failing every call, /readyz stays 200 (callers keep getting v2 502/503 bodies rather
// than connection errors), /readyz?verbose and v2bridge_nerdgraph_reachable report
// the outage, and draining makes /readyz 503 while requests are still answered.
func TestReadinessIgnoresNerdGraphAndDrains(t *testing.T) {
	faults := &sim.Faults{}
	h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithMiddleware(faults.Middleware)}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	faults.Set(&sim.Fault{Status: http.StatusServiceUnavailable})
	if r := e.get(t, "/readyz", ""); r.status != 200 {
		t.Fatalf("/readyz during a NerdGraph outage: %d %s", r.status, r.body)
	}
	if r := e.get(t, "/readyz?verbose", ""); r.status != 200 || !strings.Contains(string(r.body), "nerdgraph: unreachable") {
		t.Fatalf("/readyz?verbose during a NerdGraph outage: %d %s", r.status, r.body)
	}
	if r := e.get(t, "/metrics", ""); !strings.Contains(string(r.body), "v2bridge_nerdgraph_reachable 0") {
		t.Error("v2bridge_nerdgraph_reachable is not 0 during the outage")
	}
	if r := e.get(t, "/v2/applications/314221522.json", key1, "X-Account-ID", "1000001"); r.status < 500 || !strings.Contains(string(r.body), `{"error":`) {
		t.Fatalf("a call during the outage: %d %s", r.status, r.body)
	}
	h.GW.Drain()
	if r := e.get(t, "/readyz", ""); r.status != 503 {
		t.Fatalf("/readyz while draining: %d", r.status)
	}
	faults.Set(nil)
	if r := e.get(t, "/v2/applications/314221522.json", key1, "X-Account-ID", "1000001"); r.status != 200 {
		t.Fatalf("a call while draining: %d %s", r.status, r.body)
	}
}

// The admin handler serves the operator endpoints on their own listener.
func TestAdminHandler(t *testing.T) {
	h := harness.StartWith(t, harness.Options{Migrate: migrate.Config{ReportToken: "tok"}})
	admin := h.GW.AdminHandler()
	for _, p := range []string{"/metrics", "/healthz", "/readyz", "/v2bridge/report.json"} {
		req := httptest.NewRequest(http.MethodGet, p, nil)
		req.Header.Set("Authorization", "Bearer tok")
		rec := httptest.NewRecorder()
		admin.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Errorf("admin %s: %d", p, rec.Code)
		}
	}
}
