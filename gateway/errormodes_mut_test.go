package gateway

// writeError's Retry-After and logged cause, and a route's mode, written against the
// surviving mutants of `make mutate PKG=./gateway FILES='^(passthrough|errors)\.go$'`
// (gremlins v0.6.0) on the base commit: errors.go:77-82 and passthrough.go:185-195.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestWriteErrorRetryAfterMut: Retry-After goes with 429 and 503 only, rounded to whole
// seconds and at least 1, and never replaces one already set (errors.go:82 `==` → `!=`
// on either status or on the existing header); the cause of a 5xx is kept for the
// access log, a 4xx's (429 included) is not, and the first cause wins (errors.go:77-78).
func TestWriteErrorRetryAfterMut(t *testing.T) {
	g := New(Config{}, nil, nil)
	tests := []struct {
		name       string
		err        error
		preset     string
		wantStatus int
		wantRetry  string
		wantCause  bool
	}{
		{"429 with 2.6 s", &ng.Error{Kind: ng.KindRateLimited, RetryAfter: 2600 * time.Millisecond}, "", 429, "3", false},
		{"429 with 1.4 s", &ng.Error{Kind: ng.KindRateLimited, RetryAfter: 1400 * time.Millisecond}, "", 429, "1", false},
		{"429 with 200 ms", &ng.Error{Kind: ng.KindRateLimited, RetryAfter: 200 * time.Millisecond}, "", 429, "1", false},
		{"503 circuit open", &ng.Error{Kind: ng.KindUnavailable, RetryAfter: 5 * time.Second}, "", 503, "5", true},
		{"503 keeps a set Retry-After", &ng.Error{Kind: ng.KindUnavailable, RetryAfter: 5 * time.Second}, "9", 503, "9", true},
		{"502 has none", &ng.Error{Kind: ng.KindServer, RetryAfter: 5 * time.Second}, "", 502, "", true},
		{"504 has none", &ng.Error{Kind: ng.KindTimeout}, "", 504, "", true},
		{"404 has none and no cause", &ng.Error{Kind: ng.KindNotFound}, "", 404, "", false},
		{"400 has no cause", &v2.ParamError{}, "", 400, "", false},
		{"500 keeps its cause", errors.New("bug"), "", 500, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &reqState{}
			r := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
			r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))
			rec := httptest.NewRecorder()
			if tt.preset != "" {
				rec.Header().Set("Retry-After", tt.preset)
			}
			g.writeError(rec, r, "json", tt.err)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d", rec.Code, tt.wantStatus)
			}
			if got := rec.Header().Get("Retry-After"); got != tt.wantRetry {
				t.Errorf("Retry-After %q, want %q", got, tt.wantRetry)
			}
			if (st.internal != nil) != tt.wantCause {
				t.Errorf("logged cause %v, want one: %v", st.internal, tt.wantCause)
			}
		})
	}
	// The first cause is kept.
	st := &reqState{internal: errors.New("first")}
	r := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
	r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))
	g.writeError(httptest.NewRecorder(), r, "json", errors.New("second"))
	if st.internal.Error() != "first" {
		t.Errorf("cause %v replaced the first", st.internal)
	}
}

// TestModeOfMut pins which routes are passed through (passthrough.go modeOf and
// passRetained: a route's own mode wins; retained alerts namespaces follow
// retained_alerts; their untranslated (501) paths follow unmatched_passthrough; legacy
// routes and everything else translate).
func TestModeOfMut(t *testing.T) {
	policies := Route{Name: "alerts_policies.list", Path: "/alerts_policies.json"}
	untranslated := Route{Name: "alerts_x", Path: "/alerts_conditions/{id}.json", Retired: &v2.Error{Status: http.StatusNotImplemented}}
	gone := Route{Name: "alerts_gone", Path: "/alerts_conditions/{id}.json", Retired: &v2.Error{Status: http.StatusGone}}
	apps := Route{Name: "applications.list", Path: "/applications.json"}
	legacy := Route{Name: "deployments.v0", Path: "/alerts_policies.json", Legacy: true}
	tests := []struct {
		name string
		cfg  Config
		rt   Route
		want Mode
	}{
		{"default translates", Config{}, policies, ModeTranslate},
		{"retained passed through", Config{RetainedAlerts: ModePassthrough}, policies, ModePassthrough},
		{"own mode wins", Config{RetainedAlerts: ModePassthrough, Modes: map[string]Mode{"alerts_policies.list": ModeCompare}}, policies, ModeCompare},
		{"own mode for any route", Config{Modes: map[string]Mode{"applications.list": ModePassthrough}}, apps, ModePassthrough},
		{"not retained", Config{RetainedAlerts: ModePassthrough, UnmatchedPassthrough: true}, apps, ModeTranslate},
		{"legacy never", Config{RetainedAlerts: ModePassthrough}, legacy, ModeTranslate},
		{"untranslated forwarded", Config{UnmatchedPassthrough: true}, untranslated, ModePassthrough},
		{"untranslated kept without the switch", Config{}, untranslated, ModeTranslate},
		{"410 not forwarded by the switch", Config{UnmatchedPassthrough: true}, gone, ModeTranslate},
	}
	for _, tt := range tests {
		g := New(tt.cfg, nil, nil)
		if got := g.modeOf(tt.rt); got != tt.want {
			t.Errorf("%s: modeOf = %q, want %q", tt.name, got, tt.want)
		}
	}
	on, off := New(Config{RetainedAlerts: ModePassthrough}, nil, nil), New(Config{}, nil, nil)
	if !on.passRetained("/v2/alerts_policies.json") || on.passRetained("/v2/applications.json") || off.passRetained("/v2/alerts_policies.json") {
		t.Error("passRetained")
	}
}
