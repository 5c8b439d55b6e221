package gateway

import (
	"net/http"
	"testing"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestModeOf pins which routes are passed through (modeOf and passRetained:
// a route's own mode wins; retained alerts namespaces follow
// retained_alerts; their untranslated (501) paths follow unmatched_passthrough; legacy
// routes and everything else translate).
func TestModeOf(t *testing.T) {
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
