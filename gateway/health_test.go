package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestReadinessUpstream: NerdGraph's check runs once per ReadyCacheFor with a 3-second
// deadline, its verdict reported by /readyz?verbose and the gauge; no check is reachable.
func TestReadinessUpstream(t *testing.T) {
	if ReadyCacheFor != 5*time.Second {
		t.Errorf("ReadyCacheFor = %v, want 5s", ReadyCacheFor)
	}
	var calls int
	var left time.Duration
	down := errors.New("nerdgraph down")
	rd := &readiness{check: func(ctx context.Context) error {
		calls++
		if d, ok := ctx.Deadline(); ok {
			left = time.Until(d)
		}
		return down
	}}
	if err := rd.upstream(context.Background()); !errors.Is(err, down) {
		t.Errorf("first check = %v, want %v", err, down)
	}
	if left < 2*time.Second || left > 3*time.Second {
		t.Errorf("check deadline %v away, want about 3s", left)
	}
	if err := rd.upstream(context.Background()); !errors.Is(err, down) || calls != 1 {
		t.Errorf("second check within ReadyCacheFor = %v after %d checks, want the cached %v after 1", err, calls, down)
	}
	if got := testutil.ToFloat64(rd.gauge()); got != 0 {
		t.Errorf("gauge with NerdGraph down = %v, want 0", got)
	}
	rec := httptest.NewRecorder()
	rd.serve(rec, httptest.NewRequest(http.MethodGet, "/readyz?verbose", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "nerdgraph: unreachable: nerdgraph down") {
		t.Errorf("/readyz?verbose with NerdGraph down: %d %q", rec.Code, rec.Body)
	}

	up := &readiness{check: func(context.Context) error { return nil }}
	if got := testutil.ToFloat64(up.gauge()); got != 1 {
		t.Errorf("gauge with NerdGraph up = %v, want 1", got)
	}
	rec = httptest.NewRecorder()
	up.serve(rec, httptest.NewRequest(http.MethodGet, "/readyz?verbose", nil))
	if !strings.Contains(rec.Body.String(), "nerdgraph: reachable\n") {
		t.Errorf("/readyz?verbose with NerdGraph up: %q", rec.Body)
	}
	if err := (&readiness{}).upstream(context.Background()); err != nil {
		t.Errorf("no check: %v, want nil", err)
	}
}

// TestDependsOnREST: only a route in passthrough or compare mode, unmatched pass-through
// or the retained alerts namespaces passed through make the REST v2 API an upstream.
func TestDependsOnREST(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want bool
	}{
		{"nothing", Config{}, false},
		{"retained translated", Config{RetainedAlerts: ModeTranslate}, false},
		{"retained passed through", Config{RetainedAlerts: ModePassthrough}, true},
		{"unmatched pass-through", Config{UnmatchedPassthrough: true}, true},
		{"a route translated", Config{Modes: map[string]Mode{"applications.list": ModeTranslate}}, false},
		{"a route passed through", Config{Modes: map[string]Mode{"applications.list": ModePassthrough}}, true},
		{"a route compared", Config{Modes: map[string]Mode{"applications.list": ModeCompare}}, true},
		{"a route compared among translated ones", Config{Modes: map[string]Mode{"a": ModeTranslate, "b": ModeCompare, "c": ModeTranslate}}, true},
	}
	for _, tt := range tests {
		if got := tt.cfg.dependsOnREST(); got != tt.want {
			t.Errorf("%s: dependsOnREST = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestReadyzUpstreams: /readyz?verbose lists NerdGraph, then the REST v2 API at the
// configured rest_upstream (US endpoint when none is set), one a line, in name order.
func TestReadyzUpstreams(t *testing.T) {
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized) // any answer is reachable
	}))
	defer rest.Close()
	g := New(Config{RESTUpstream: rest.URL, Modes: map[string]Mode{"applications.list": ModePassthrough}}, nil, nil)
	rec := httptest.NewRecorder()
	g.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz?verbose", nil))
	want := "ready\nlistening: yes\nconfig: loaded\ndraining: no\nnerdgraph: reachable\nupstream nerdgraph: ok\nupstream rest " + rest.URL + ": ok\n"
	if rec.Code != http.StatusOK || rec.Body.String() != want {
		t.Errorf("/readyz?verbose: %d %q, want 200 %q", rec.Code, rec.Body, want)
	}

	// Without rest_upstream the probe targets the US endpoint (not probed here).
	g = New(Config{UnmatchedPassthrough: true}, nil, nil)
	if len(g.upstreams) != 2 || g.upstreams[0].name != "nerdgraph" || g.upstreams[1].name != "rest" || g.upstreams[1].target != RESTEndpointUS {
		t.Errorf("upstreams without rest_upstream: %+v, want nerdgraph and rest at %s", g.upstreams, RESTEndpointUS)
	}
}
