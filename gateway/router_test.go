package gateway

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/mux"
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
