package gateway

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/v2bridge/v2bridge/restv2"
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
	vars     string
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
		o.vars = fmt.Sprint(match.Vars)
	}
	return o
}

// indexOutcome is what the index decides: its segment's router, and what that one does
// not match goes to the full router (its NotFound and MethodNotAllowed handlers).
func indexOutcome(t testing.TB, x routeIndex, r *http.Request) outcome {
	if d, vars := x.directMatch(r); d != nil {
		prefix := "/v2"
		if _, ok := vars["accountId"]; ok {
			prefix = "/accounts/{accountId:[0-9]+}/v2"
		}
		return outcome{template: prefix + d.route.Path + ".{format:json|xml}", methods: strings.Join(d.route.Methods, ","),
			vars: fmt.Sprint(vars)}
	}
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
	picked, direct := 0, 0
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
			if d, _ := x.directMatch(r); d != nil {
				direct++
			}
		}
	}
	// Most routes are matched without a regular expression.
	if direct < len(Routes()) {
		t.Errorf("only %d requests matched directly", direct)
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
		"/deployments.xml", "/v2/alerts_policies/x.json", "/accounts//v2/labels.json", "/v2/applications.j",
		"/accounts/12/v2/applications/5/deployments.json", "/v2/applications/5/instances/07/metrics/data.xml",
		"/accounts/1x/v2/applications/5.json", "/v2/applications/5/hosts/.json"} {
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
	untranslated := Route{Name: "alerts_x", Path: "/alerts_conditions/{id}.json", Retired: &restv2.Error{Status: http.StatusNotImplemented}}
	gone := Route{Name: "alerts_gone", Path: "/alerts_conditions/{id}.json", Retired: &restv2.Error{Status: http.StatusGone}}
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

// TestRouteIndexFastPath: a request the segment's router matches reaches the route's
// handler as the same *http.Request, its path variables in the request's state (no
// gorilla/mux request copies); everything else is answered as gorilla/mux answers it:
// a request without a state, a path it cleans with a redirect, a method or path the
// segment does not take.
func TestRouteIndexFastPath(t *testing.T) {
	type seen struct {
		req  *http.Request
		vars map[string]string
		gvar map[string]string
	}
	var got seen
	x := routeIndex{full: mux.NewRouter(), bySegment: map[string]*mux.Router{}}
	x.full.UseEncodedPath()
	x.full.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = seen{req: r, vars: routeVars(r), gvar: mux.Vars(r)}
		w.WriteHeader(http.StatusNoContent)
	})
	for _, r := range []*mux.Router{x.full, x.segment("/things")} {
		r.Handle("/v2/things/{id:[0-9]+}.{format:json|xml}", h).Methods(http.MethodGet)
	}
	x.full.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusMethodNotAllowed) })

	cases := []struct {
		name, method, path string
		state              bool
		status             int
		same               bool // the handler got the request itself
		vars               map[string]string
		gorillaVars        bool // the vars are (also) in gorilla/mux's context
	}{
		{"matched with a state", "GET", "/v2/things/12.json", true, 204, true, map[string]string{"id": "12", "format": "json"}, false},
		{"matched without a state", "GET", "/v2/things/12.xml", false, 204, false, map[string]string{"id": "12", "format": "xml"}, true},
		{"path gorilla cleans", "GET", "/v2/things/../things/12.json", true, http.StatusMovedPermanently, false, nil, false},
		{"double slash", "GET", "/v2//things/12.json", true, http.StatusMovedPermanently, false, nil, false},
		{"method the route does not take", "POST", "/v2/things/12.json", true, http.StatusMethodNotAllowed, false, nil, false},
		{"path the segment does not take", "GET", "/v2/things/x.json", true, http.StatusTeapot, false, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got = seen{}
			r := httptest.NewRequest(c.method, "http://gw.test"+c.path, nil)
			var st *reqState
			if c.state {
				st = &reqState{}
				r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))
			}
			w := httptest.NewRecorder()
			x.ServeHTTP(w, r)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d", w.Code, c.status)
			}
			if c.vars == nil {
				if got.req != nil {
					t.Fatalf("the route's handler ran")
				}
				return
			}
			if (got.req == r) != c.same {
				t.Fatalf("handler got the request itself: %v, want %v", got.req == r, c.same)
			}
			if len(got.vars) != len(c.vars) || got.vars["id"] != c.vars["id"] || got.vars["format"] != c.vars["format"] {
				t.Fatalf("routeVars %v, want %v", got.vars, c.vars)
			}
			if (got.gvar != nil) != c.gorillaVars {
				t.Fatalf("gorilla/mux vars %v", got.gvar)
			}
			if c.state && st.vars["id"] != c.vars["id"] {
				t.Fatalf("state vars %v", st.vars)
			}
		})
	}
}

func TestCleanEscapedPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/v2/applications.json": true, "/v2/applications/": true, "/": true,
		"/v2//applications.json": false, "/v2/./a.json": false, "/v2/../a.json": false, "/v2/a/..": false, "/v2/a/.": false,
		"/v2/%2e%2e/a.json": true, // escaped dots are not a dot segment to path.Clean; gorilla/mux keeps them too
	} {
		r := httptest.NewRequest("GET", "http://gw.test"+p, nil)
		if got := cleanEscapedPath(r.URL); got != want {
			t.Errorf("%q: %v, want %v", p, got, want)
		}
	}
}

func TestRequestShape(t *testing.T) {
	for _, c := range []struct {
		path, shape string
		ok          bool
	}{
		{"applications.json", "applications", true},
		{"applications/12.xml", "applications/{}", true},
		{"applications/12/metrics/data.json", "applications/{}/metrics/data", true},
		{"applications/12/instances/0/metrics.json", "applications/{}/instances/{}/metrics", true},
		{"applications/1x/hosts.json", "applications/1x/hosts", true},
		{"applications/%31/hosts.json", "applications/%31/hosts", true},
		{"applications/12/.json", "", false},
		{"applications/12/", "", false},
		{"applications/12/hosts.csv", "", false},
		{"applications", "", false},
		{"a/.json", "", false},
		{"a//b.json", "a//b", true},
		{"/x.json", "/x", true},     // an empty first segment keeps its separator
		{"/.json", "", false},       // "/" once the extension is dropped: a trailing slash
		{"//12.json", "//{}", true}, // empty segments are not numbers
		{strings.Repeat("a/", 60) + "b.json", "", false},
		{strings.Repeat("a", 96) + ".json", strings.Repeat("a", 96), true},             // exactly maxShape bytes
		{strings.Repeat("a", 97) + ".json", "", false},                                 // one more
		{strings.Repeat("a", 80) + "/" + strings.Repeat("b", 20) + ".json", "", false}, // the last segment crosses the bound
		{strings.Repeat("9/", 47) + "9.json", "", false},
	} {
		var buf [maxShape]byte
		sh, ok := requestShape(&buf, c.path)
		if ok != c.ok || string(sh) != c.shape {
			t.Errorf("%q: %q %v, want %q %v", c.path, sh, ok, c.shape, c.ok)
		}
	}
	for p, want := range map[string]string{
		"/applications/{id:[0-9]+}/hosts/{host_id:[0-9]+}/metrics/data": "applications/{}/hosts/{}/metrics/data",
		"/applications": "applications",
		// No shape: a variable that need not be a number, a literal that is one.
		"/alerts/{name}": "", "/alerts/{name:[a-z]+}": "", "/alerts/2024/x": "", "/alerts/a{b}": "",
	} {
		got, ok := templateShape(p)
		if got != want || ok != (want != "") {
			t.Errorf("templateShape(%q) = %q %v, want %q", p, got, ok, want)
		}
	}
}

// Every translated route's own path is matched by its shape's router, which holds a
// handful of routes (the segment's prefix routes and the shape's methods), not the
// segment's dozens.
func TestRouteIndexShapeRouters(t *testing.T) {
	x := New(Config{RateLimitPerMinute: -1}, nil, nil).router.(routeIndex)
	for _, rt := range Routes() {
		if rt.Prefix || rt.Legacy {
			continue
		}
		p := routeVar.ReplaceAllString(rt.Path, "12")
		for _, prefix := range []string{"/v2", "/accounts/1000001/v2"} {
			r := httptest.NewRequest(rt.Methods[0], "http://gw.test"+prefix+p+".json", nil)
			sub := x.pick(r)
			sh, ok := templateShape(rt.Path)
			if !ok || sub != x.byShape[sh] {
				t.Fatalf("%s %s: not its shape's router", rt.Methods[0], r.URL.Path)
			}
			if o := matchOf(sub, r); o.err != "" {
				t.Fatalf("%s %s: its shape's router does not match it: %+v", rt.Methods[0], r.URL.Path, o)
			}
		}
	}
	n := 0
	for _, r := range x.byShape {
		_ = r.Walk(func(*mux.Route, *mux.Router, []*mux.Route) error { n++; return nil })
	}
	if per := float64(n) / float64(len(x.byShape)); per > 8 {
		t.Fatalf("%.1f routes per shape router", per)
	}
}

// A segment with a route a shape cannot stand for (a variable that need not be a
// number) gets no shape routers: its requests use its segment's router, which decides
// as the full router does, here the earlier {name} route for "policies" too.
func TestRouteIndexUnshapedSegment(t *testing.T) {
	g := New(Config{RateLimitPerMinute: -1}, nil, nil)
	table := []Route{
		{Name: "things.named", Methods: []string{http.MethodGet}, Path: "/things/{name}", Fidelity: Exact},
		{Name: "things.policies", Methods: []string{http.MethodGet}, Path: "/things/policies", Fidelity: Exact},
		{Name: "things.one", Methods: []string{http.MethodGet}, Path: "/things/{id:[0-9]+}/x", Fidelity: Exact},
		{Name: "things.old", Methods: []string{http.MethodGet}, Path: "/things/old", Prefix: true, Fidelity: Unsupported},
		{Name: "apps", Methods: []string{http.MethodGet}, Path: "/apps/{id:[0-9]+}", Fidelity: Exact},
	}
	x := g.routesOf(table).(routeIndex)
	for sh := range x.byShape {
		if strings.HasPrefix(sh, "things") {
			t.Fatalf("shape router %q for a segment with a {name} route", sh)
		}
	}
	if x.byShape["apps/{}"] == nil {
		t.Fatal("no shape router for apps/{}")
	}
	for _, p := range []string{"/v2/things/policies.json", "/v2/things/abc.json", "/v2/things/12/x.json", "/v2/things/old/1.json", "/v2/apps/3.json"} {
		r := httptest.NewRequest(http.MethodGet, "http://gw.test"+p, nil)
		if got, want := indexOutcome(t, x, r), matchOf(x.full, r); got != want || want.err != "" {
			t.Errorf("%s: index %+v, full router %+v", p, got, want)
		}
		if strings.HasPrefix(p, "/v2/things") && x.pick(r) != x.bySegment["things"] {
			t.Errorf("%s: not the segment's router", p)
		}
	}
}

// BenchmarkRouting serves requests the router answers without NerdGraph (retired and
// unknown routes, a missing key) from the start, the middle and the end of the route
// table, so the cost of finding a route is what it measures.
func BenchmarkRouting(b *testing.B) {
	h := New(Config{RateLimitPerMinute: -1}, nil, nil).Handler()
	for _, bc := range []struct{ name, path string }{
		{"first route, no key", "/v2/applications.json"},
		{"middle route, no key", "/v2/alerts_policies.json"},
		{"last retired route", "/v2/users.json"},
		{"account prefix, last retired route", "/accounts/1000001/v2/users.json"},
		{"unknown route", "/v2/nothing_here.json"},
		{"metric data, no key", "/v2/applications/12/metrics/data.json"},
		{"instance metric data, no key", "/v2/applications/12/instances/3/metrics/data.json"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, bc.path, nil)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code < 400 {
					b.Fatalf("%s: %d", bc.path, w.Code)
				}
			}
		})
	}
}
