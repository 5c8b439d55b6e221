package gateway

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestRouteIndexPick: a path under /accounts/{id}/v2/ is given its shape's (or
// segment's) router as the same path under /v2/ is (the full router, which answers the
// same, would try every route before it); /accounts/ with nothing after the id is the full
// router's. The segment is the path up to its first '/' or '.': "" when one comes first.
func TestRouteIndexPick(t *testing.T) {
	x := New(Config{RateLimitPerMinute: -1}, nil, nil).router.(routeIndex)
	apps, ok := x.bySegment["applications"]
	if !ok {
		t.Fatal("no router for the applications segment")
	}
	for _, tt := range []struct {
		path string
		want *mux.Router // a shape's router, the segment's, or the full router
	}{
		{"/v2/applications.json", x.byShape["applications"]},
		{"/accounts/1000001/v2/applications.json", x.byShape["applications"]},
		{"/accounts//v2/applications/5.json", x.byShape["applications/{}"]},
		{"/accounts//v2/applications/5/hosts.csv", apps}, // no shape: the segment's router
		{"/accounts/1000001", x.full},
		{"/v2/nothing.json", x.full},
	} {
		if tt.want == nil {
			t.Fatalf("%s: no such shape router", tt.path)
		}
		got := x.pick(httptest.NewRequest(http.MethodGet, "http://gw.test"+tt.path, nil))
		if got != tt.want {
			t.Errorf("pick(%s): segment router %v, full router %v; want another", tt.path, got == apps, got == x.full)
		}
	}
	for p, want := range map[string]string{
		"/applications/5.json": "applications", "applications.json": "applications", "applications": "applications",
		".json": "", "/.json": "", "//applications": "", "": "",
	} {
		if got := firstSegment(p); got != want {
			t.Errorf("firstSegment(%q) = %q, want %q", p, got, want)
		}
	}
}

// outcome is what a router decides for a request: the route's path template and
// methods, or the error (not found, method mismatch).
type outcome struct {
	template string
	methods  string
	err      string
}

func matchOf(m *mux.Router, r *http.Request) outcome {
	var match mux.RouteMatch
	m.Match(r, &match)
	var o outcome
	if match.MatchErr != nil {
		o.err = match.MatchErr.Error()
	}
	if match.Route != nil && match.MatchErr == nil {
		o.template, _ = match.Route.GetPathTemplate()
		ms, _ := match.Route.GetMethods()
		o.methods = strings.Join(ms, ",")
	}
	return o
}

// indexOutcome is what the index decides: its segment's router, and what that one does
// not match goes to the full router (its NotFound and MethodNotAllowed handlers).
func indexOutcome(t testing.TB, x routeIndex, r *http.Request) outcome {
	sub := x.pick(r)
	if sub == x.full {
		return matchOf(x.full, r)
	}
	if sub.NotFoundHandler != x.full || sub.MethodNotAllowedHandler != x.full {
		t.Fatalf("a segment's router does not hand what it does not match to the full router")
	}
	if o := matchOf(sub, r); o.err == "" {
		return o
	}
	return matchOf(x.full, r)
}

var routeVar = regexp.MustCompile(`\{[^}]+\}`)

// Every route, under /v2 and /accounts/{id}/v2, in both formats, with every method,
// and paths no route takes: the index picks what the full router picks.
func TestRouteIndexMatchesFullRouter(t *testing.T) {
	x := New(Config{RateLimitPerMinute: -1}, nil, nil).router.(routeIndex)
	var paths []string
	for _, rt := range Routes() {
		p := routeVar.ReplaceAllString(rt.Path, "12")
		for _, prefix := range []string{"/v2", "/accounts/1000001/v2", ""} {
			for _, tail := range []string{".json", ".xml", "", "/", "/x.json", "s.json", ".csv"} {
				paths = append(paths, prefix+p+tail)
			}
		}
	}
	paths = append(paths, "/v2/nothing.json", "/v2/", "/v2", "/", "/accounts/x/v2/applications.json",
		"/accounts/1/v2/users_x.json", "/v2/alerts_channelsX.json", "/v2/%61pplications.json", "/deployments.xml",
		"/accounts/1/deployments.xml", "/v2/applications/12/metrics/data.json")
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, "OPTIONS"}
	picked := 0
	for _, p := range paths {
		for _, m := range methods {
			r := httptest.NewRequest(m, "http://gw.test"+p, nil)
			want, got := matchOf(x.full, r), indexOutcome(t, x, r)
			if got != want {
				t.Errorf("%s %s: index %+v, full router %+v", m, p, got, want)
			}
			if x.pick(r) != x.full && want.err == "" {
				picked++
			}
		}
	}
	// The index is used: every route's own paths go through a segment's router.
	if picked < len(Routes()) {
		t.Fatalf("only %d matches came from a segment's router", picked)
	}
	if n := len(x.bySegment); n < 20 {
		t.Fatalf("%d segments", n)
	}
}

// Property: for any path and method the index and the full router decide the same.
func FuzzRouteIndex(f *testing.F) {
	x := New(Config{RateLimitPerMinute: -1}, nil, nil).router.(routeIndex)
	for _, s := range []string{"/v2/applications/1.json", "/accounts/1/v2/alerts_conditions/a/b", "/v2/users.json",
		"/deployments.xml", "/v2/alerts_policies/x.json", "/accounts//v2/labels.json", "/v2/applications.j"} {
		f.Add("GET", s)
	}
	f.Fuzz(func(t *testing.T, method, path string) {
		if method == "" || strings.ContainsAny(method, " \t\r\n()<>@,;:\\\"/[]?={}") || !slices.Contains([]string{"GET", "POST", "PUT", "DELETE", "PATCH"}, strings.ToUpper(method)) {
			method = "GET"
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		u := &url.URL{Path: path}
		r := &http.Request{Method: method, URL: u, RequestURI: u.RequestURI(), Header: http.Header{}, Host: "gw.test"}
		if got, want := indexOutcome(t, x, r), matchOf(x.full, r); got != want {
			t.Fatalf("%s %q: index %+v, full router %+v", method, path, got, want)
		}
	})
}

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
