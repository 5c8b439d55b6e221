package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

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
