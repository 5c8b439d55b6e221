package gateway

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/state/fleet"
)

// TestReportFleetSourceMut: with a fleet store and no Prometheus, the report's rows come
// from the store, every replica's (report.go:468:53 CONDITIONALS_NEGATION,
// `g.cfg.ReportPrometheusURL == ""` → `!=`, f9be12a lines: the report would show this
// replica's counts only).
func TestReportFleetSourceMut(t *testing.T) {
	m := miniredis.RunT(t)
	open := storeOpener(t, m)
	a := New(Config{Store: open(), ReportToken: "admin"}, nil, zap.NewNop())
	b := New(Config{Store: open(), ReportToken: "admin"}, nil, zap.NewNop())
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	a.usage.record(&reqState{callerHash: "aaaaaaaa", route: "applications.list", fidelity: Approximate}, "curl/8", 200, at)
	r := httptest.NewRequest("GET", "/v2bridge/report.json", nil)
	r.Header.Set("Authorization", "Bearer admin")
	w := httptest.NewRecorder()
	b.Handler().ServeHTTP(w, r)
	var rep struct {
		Source string  `json:"source"`
		Usage  []Usage `json:"usage"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body.Bytes(), err)
	}
	if rep.Source != "the fleet's shared store (every replica's counts)" {
		t.Errorf("source %q, want the fleet's shared store", rep.Source)
	}
	// Replica b counted nothing: a's call, once flushed, comes from the store.
	if err := a.fleetRows.flush(r.Context()); err != nil {
		t.Fatal(err)
	}
	w = httptest.NewRecorder()
	b.Handler().ServeHTTP(w, r)
	rep.Usage = nil
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body.Bytes(), err)
	}
	if len(rep.Usage) != 1 || rep.Usage[0].Caller != "aaaaaaaa" || rep.Usage[0].Count != 1 {
		t.Fatalf("replica b's report: %+v, want replica a's one call", rep.Usage)
	}
}

// storeOpener opens fleet stores (replicas) on the miniredis m, closed when t ends.
func storeOpener(t *testing.T, m *miniredis.Miniredis) func() *fleet.Store {
	return func() *fleet.Store {
		s, err := fleet.Open(fleet.Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:", Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
}
