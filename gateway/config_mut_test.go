package gateway

// New's configuration defaults and wiring (issue 22, whole-tree gremlins run at f9be12a,
// gateway.go lines of that commit). Each test names the mutants it kills.
//
// Equivalent, no test: gateway.go:155:28 CONDITIONALS_BOUNDARY (`RateLimitPerMinute > 0`
// → `>= 0`): a 0 was replaced by the default 1000 at :132, so the value is never 0 there.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/translate"
)

// TestNewCompareDefaultsMut: a zero or negative compare timeout and log interval take
// the defaults (5 s, 10 s), a positive one is kept.
// Kills gateway.go:141:25 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (`Timeout <= 0`),
// :142:27 ARITHMETIC_BASE (`5 * time.Second` → `5 / time.Second`), :144:26
// CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (`LogEvery <= 0`), :145:29
// ARITHMETIC_BASE (`10 * time.Second` → `/`).
func TestNewCompareDefaultsMut(t *testing.T) {
	tests := []struct {
		name                 string
		timeout, logEvery    time.Duration
		wantTimeout, wantLog time.Duration
	}{
		{"zero takes the defaults", 0, 0, 5 * time.Second, 10 * time.Second},
		{"negative takes the defaults", -time.Second, -time.Second, 5 * time.Second, 10 * time.Second},
		{"positive kept", 2 * time.Second, 3 * time.Second, 2 * time.Second, 3 * time.Second},
		{"one nanosecond kept", time.Nanosecond, time.Nanosecond, time.Nanosecond, time.Nanosecond},
	}
	for _, tt := range tests {
		var cfg Config
		cfg.Compare.Timeout, cfg.Compare.LogEvery = tt.timeout, tt.logEvery
		g := New(cfg, nil, nil)
		if got := g.cfg.Compare.Timeout; got != tt.wantTimeout {
			t.Errorf("%s: Compare.Timeout = %v, want %v", tt.name, got, tt.wantTimeout)
		}
		if got := g.cfg.Compare.LogEvery; got != tt.wantLog {
			t.Errorf("%s: Compare.LogEvery = %v, want %v", tt.name, got, tt.wantLog)
		}
	}
}

// TestNewRegistersCollectorsMut: with a readiness check New registers the
// v2bridge_nerdgraph_reachable gauge, with a translator the cache collector; a second
// registration of the same collector is then refused as already registered.
// Kills gateway.go:166:15 CONDITIONALS_NEGATION (`cfg.Ready != nil` → `==`) and :169:8
// CONDITIONALS_NEGATION (`tr != nil` → `==`).
func TestNewRegistersCollectorsMut(t *testing.T) {
	tr := translate.New(&refusingClient{}, translate.Options{})
	g := New(Config{Ready: func(context.Context) error { return nil }}, tr, nil)
	var already prometheus.AlreadyRegisteredError
	if err := g.cfg.Metrics.reg.Register(g.ready.gauge()); !errors.As(err, &already) {
		t.Errorf("readiness gauge registered again: %v, want AlreadyRegisteredError (New did not register it)", err)
	}
	if err := g.cfg.Metrics.reg.Register(cacheCollector{tr}); !errors.As(err, &already) {
		t.Errorf("cache collector registered again: %v, want AlreadyRegisteredError (New did not register it)", err)
	}
}

// TestNewLoadsReportStateMut: New restores the usage counts of ReportStateFile, warns
// only when that file cannot be read.
// Kills gateway.go:174:25 CONDITIONALS_NEGATION (`ReportStateFile != ""` → `==`) and
// :175:52 CONDITIONALS_NEGATION (`err != nil` → `==`).
func TestNewLoadsReportStateMut(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "state.json")
	if err := os.WriteFile(good, []byte(`[{"caller":"aaaaaaaa","user_agent":"curl","route":"applications.list","count":3,"errors":1}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		file      string
		wantCount int64
		wantWarns int
	}{
		{"good file restored", good, 3, 0},
		{"bad file warned", bad, 0, 1},
	}
	for _, tt := range tests {
		core, logs := observer.New(zap.WarnLevel)
		g := New(Config{ReportStateFile: tt.file}, nil, zap.New(core))
		var n int64
		for _, u := range g.usage.snapshot() {
			n += u.Count
		}
		if n != tt.wantCount {
			t.Errorf("%s: restored count %d, want %d", tt.name, n, tt.wantCount)
		}
		if got := logs.FilterMessage("usage report state not loaded").Len(); got != tt.wantWarns {
			t.Errorf("%s: %d 'not loaded' warnings, want %d", tt.name, got, tt.wantWarns)
		}
	}
}

// TestNewRESTUpstreamMut: the pass-through proxy goes to RESTUpstream when one is set.
// Kills gateway.go:183:10 CONDITIONALS_NEGATION (`rest == ""` → `!=`: the configured
// upstream replaced by the US endpoint) and :186:36 CONDITIONALS_NEGATION (`err == nil`
// → `!=`: no proxy at all).
func TestNewRESTUpstreamMut(t *testing.T) {
	var hits atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"applications":[]}`))
	}))
	defer up.Close()
	g := New(Config{RESTUpstream: up.URL + "/v2"}, nil, nil)
	if g.proxy == nil {
		t.Fatal("no pass-through proxy")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	g.proxy.ServeHTTP(rec, req)
	if hits.Load() != 1 || rec.Code != http.StatusOK {
		t.Errorf("pass-through: %d hits on the configured upstream, status %d; want 1 hit, 200", hits.Load(), rec.Code)
	}
}
