package gateway

// REST-shaped edges (issue 22, whole-tree gremlins run at f9be12a, edges.go lines of
// that commit): unclean paths, the Allow header of a 405, the 501 of real REST v2
// paths the gateway does not translate.
//
// Equivalent, no test: edges.go:135:42 CONDITIONALS_BOUNDARY (`i >= 0` → `> 0` in
// serveUnsupportedREST): at i == 0 the segment is "" (original) or the whole rest,
// which starts with '.' or '/' (mutant); no unsupported segment is empty or holds '.'
// or '/', so neither matches and both return false.
//
// Equivalent survivors (gremlins run at b689aed): edges.go:126:39 CONDITIONALS_BOUNDARY
// (`i > 0` → `>= 0` on the index of "/v2/" in serveUnsupportedREST) — the path starts
// with "/accounts/" there, so "/v2/" is never at index 0.

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestCleanPathMut: "/" is clean, a path with empty, '.' or '..' segments is not.
// Kills edges.go:49:7 CONDITIONALS_NEGATION (`p == "/"` → `!=`).
func TestCleanPathMut(t *testing.T) {
	for p, want := range map[string]bool{
		"/": true, "/v2/applications.json": true, "/v2/applications/": true,
		"": false, "v2": false, "//v2/applications.json": false, "/v2/./a.json": false,
		"/v2/../a.json": false, "/v2//a.json": false, "/v2/a//": false,
	} {
		if got := cleanPath(p); got != want {
			t.Errorf("cleanPath(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestUncleanPathRouteMut: an unclean path is counted in v2bridge_requests_total under
// the route unclean_path.
// Kills edges.go:22:39 CONDITIONALS_NEGATION (`st != nil` → `==`: the route not set, so
// counted as "unmatched").
func TestUncleanPathRouteMut(t *testing.T) {
	g, _ := explainGateway(Config{})
	servedAs(t, g, httptest.NewRequest(http.MethodGet, "//v2/applications.json", nil), "unclean_path", http.StatusNotFound)
}

// servedAs serves req and checks its status and that it was counted under route.
func servedAs(t *testing.T, g *Gateway, req *http.Request, route string, status int) {
	t.Helper()
	rec := httptest.NewRecorder()
	g.Handler().ServeHTTP(rec, req)
	if rec.Code != status {
		t.Fatalf("status %d, want %d: %s", rec.Code, status, rec.Body)
	}
	code := strconv.Itoa(status)
	if got := testutil.ToFloat64(g.cfg.Metrics.requests.WithLabelValues(route, req.Method, code)); got != 1 {
		t.Errorf("v2bridge_requests_total{route=%s,method=%s,status=%s} = %v, want 1", route, req.Method, code, got)
	}
}

// TestAllowHeaderMut: a 405 lists exactly the methods the path's routes take, HEAD
// right after GET and only with it.
// Kills edges.go:69:47 CONDITIONALS_NEGATION (`match.MatchErr == nil` → `!=`: the
// refused methods listed) and :71:14 CONDITIONALS_NEGATION (`method == GET` → `!=`:
// HEAD after the other methods).
func TestAllowHeaderMut(t *testing.T) {
	tests := []struct{ method, target, want string }{
		{"PATCH", "/v2/applications.json", "GET, HEAD, POST"},
		{"PATCH", "/v2/applications/5.json", "GET, HEAD, PUT, DELETE"},
		{"POST", "/v2/alerts_policies/5.json", "PUT, DELETE"},
	}
	for _, tt := range tests {
		rec, _ := serveMut(t, tt.method, tt.target, "")
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != tt.want {
			t.Errorf("%s %s: %d Allow %q, want 405 Allow %q", tt.method, tt.target, rec.Code, rec.Header().Get("Allow"), tt.want)
		}
	}
}

// TestUnsupportedRESTMut: a real REST v2 path the gateway does not translate is a 501
// naming the replacement, with or without an account prefix or a sub-path.
// Kills edges.go:135:42 CONDITIONALS_NEGATION (`i >= 0` → `< 0`: the segment kept with
// its ".json", so no 501).
func TestUnsupportedRESTMut(t *testing.T) {
	for _, target := range []string{"/v2/usages.json", "/accounts/1000001/v2/dashboards.json", "/v2/alerts_incidents/5/acknowledge.json"} {
		rec, calls := serveMut(t, http.MethodGet, target, "")
		if rec.Code != http.StatusNotImplemented || !strings.Contains(rec.Body.String(), "not translated by v2bridge") && !strings.Contains(rec.Body.String(), "not served by v2bridge") {
			t.Errorf("GET %s: %d %s, want 501 naming the replacement", target, rec.Code, rec.Body)
		}
		if calls != 0 {
			t.Errorf("GET %s: %d NerdGraph calls", target, calls)
		}
	}
}

// TestUnsupportedRESTRouteMut: a 501 for a real REST v2 path is counted in
// v2bridge_requests_total under the route "<segment>.unsupported", and answered with
// the fidelity header also when no request state is there (serveUnsupportedREST called
// on its own). Kills edges.go:140:40 CONDITIONALS_NEGATION (`st != nil` → `==`: the
// route not set, so counted as "unmatched"; a nil state dereferenced).
func TestUnsupportedRESTRouteMut(t *testing.T) {
	g, _ := explainGateway(Config{})
	req := httptest.NewRequest(http.MethodGet, "/v2/usages.json", nil)
	req.Header.Set("X-Api-Key", "NRAK-0123456789ABCDEFGHIJKLMNOPQ")
	servedAs(t, g, req, "usages.unsupported", http.StatusNotImplemented)
	rec := httptest.NewRecorder()
	if !g.serveUnsupportedREST(rec, httptest.NewRequest(http.MethodGet, "/v2/dashboards.json", nil)) ||
		rec.Code != http.StatusNotImplemented || rec.Header().Get("X-V2bridge-Fidelity") != string(Unsupported) {
		t.Errorf("without request state: %d fidelity %q, want 501 %q", rec.Code, rec.Header().Get("X-V2bridge-Fidelity"), Unsupported)
	}
}
