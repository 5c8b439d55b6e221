package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
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
