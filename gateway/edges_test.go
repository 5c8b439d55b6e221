package gateway

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestCleanPath: "/" is clean, a path with empty, '.' or '..' segments is not.
func TestCleanPath(t *testing.T) {
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

// TestUncleanPathRoute: an unclean path is counted in v2bridge_requests_total under the
// route unclean_path.
func TestUncleanPathRoute(t *testing.T) {
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

// TestAllowHeader: a 405 lists exactly the methods the path's routes take, HEAD right
// after GET and only with it.
func TestAllowHeader(t *testing.T) {
	tests := []struct{ method, target, want string }{
		{"PATCH", "/v2/applications.json", "GET, HEAD, POST"},
		{"PATCH", "/v2/applications/5.json", "GET, HEAD, PUT, DELETE"},
		{"POST", "/v2/alerts_policies/5.json", "PUT, DELETE"},
	}
	for _, tt := range tests {
		rec, _ := serveCounting(t, tt.method, tt.target, "")
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != tt.want {
			t.Errorf("%s %s: %d Allow %q, want 405 Allow %q", tt.method, tt.target, rec.Code, rec.Header().Get("Allow"), tt.want)
		}
	}
}

// TestUnsupportedREST: a real REST v2 path the gateway does not translate is a 501
// naming the replacement, with or without an account prefix or a sub-path.
func TestUnsupportedREST(t *testing.T) {
	for _, target := range []string{"/v2/usages.json", "/accounts/1000001/v2/dashboards.json", "/v2/usages/apm.json"} {
		rec, calls := serveCounting(t, http.MethodGet, target, "")
		if rec.Code != http.StatusNotImplemented || !strings.Contains(rec.Body.String(), "not translated by v2bridge") && !strings.Contains(rec.Body.String(), "not served by v2bridge") {
			t.Errorf("GET %s: %d %s, want 501 naming the replacement", target, rec.Code, rec.Body)
		}
		if calls != 0 {
			t.Errorf("GET %s: %d NerdGraph calls", target, calls)
		}
	}
}

// TestUnsupportedRESTRoute: a 501 for a real REST v2 path is counted in
// v2bridge_requests_total under the route "<segment>.unsupported", and answered with the
// fidelity header also when no request state is there (serveUnsupportedREST called on its
// own).
func TestUnsupportedRESTRoute(t *testing.T) {
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

// The router itself, behind the edges' check, answers an unclean path, escaped or not,
// with a v2 404 and never gorilla/mux's redirect to the cleaned path.
func TestRouterNeverRedirects(t *testing.T) {
	g := New(Config{}, nil, nil)
	for _, p := range []string{"//v2/applications.json", "/v2//applications.json", "/v2/../v2/applications.json",
		"/v2/./applications.json", "/v2/applications/%2E%2E/applications.json", "/accounts/1/v2//applications.json"} {
		r := httptest.NewRequest(http.MethodGet, "http://gw"+p, nil)
		w := httptest.NewRecorder()
		g.router.ServeHTTP(w, r)
		if w.Code != http.StatusNotFound || w.Header().Get("Location") != "" {
			t.Errorf("%s: %d Location %q, want a v2 404", p, w.Code, w.Header().Get("Location"))
		}
	}
}
