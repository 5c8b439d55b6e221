package gateway

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

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
