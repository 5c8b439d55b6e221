package gateway

// The upstreams /readyz?verbose reports (upstreams.go), written against the survivors
// of the gremlins run at b689aed.
//
// Equivalent survivors: upstreams.go:87:59 CONDITIONALS_BOUNDARY (`out[i].name <
// out[j].name` → `<=` in upstreamProbes) — the probes sorted are "nerdgraph" and at
// most one "rest": no two names are equal, so `<` and `<=` never differ.

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestDependsOnRESTMut: only a route in passthrough or compare mode, unmatched
// pass-through or the retained alerts namespaces passed through make the REST v2 API
// an upstream. Kills upstreams.go:40:48 (`c.RetainedAlerts == ModePassthrough` → `!=`),
// :44:8 (`m == ModePassthrough` → `!=`) and :44:32 (`m == ModeCompare` → `!=`)
// CONDITIONALS_NEGATION.
func TestDependsOnRESTMut(t *testing.T) {
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

// TestReadyzUpstreamsMut: /readyz?verbose lists NerdGraph, then the REST v2 API at the
// configured rest_upstream (US endpoint when none is set), one a line, in name order.
// Kills upstreams.go:82:11 CONDITIONALS_NEGATION (`base == ""` → `!=`: the configured
// upstream replaced by the US endpoint, no target without one) and :87:59
// CONDITIONALS_NEGATION (`<` → `>=`: rest listed before nerdgraph).
func TestReadyzUpstreamsMut(t *testing.T) {
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
