package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
)

// The demo's listener answers no redirect: a path with an empty, '.' or '..' segment
// is a v2 404, to the gateway and to the REST double alike; the double has the
// gateway's throttle of failed authentications per address.
func TestDemoAnswersNoRedirectAndThrottlesTheDouble(t *testing.T) {
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) // one minute's window for the throttle
	h, err := demoHandler(gateway.New(gateway.Config{}, nil, nil).Handler(), http.NotFoundHandler(), gateway.Config{Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, key string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "http://demo"+path, nil)
		r.URL.Path = path // as sent, not cleaned
		r.RemoteAddr = "192.0.2.20:1000"
		r.Header.Set("X-Api-Key", key)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, p := range []string{"//v2/applications.json", "/v2//applications.json", "/v2/../v2/applications.json",
		"/rest/v2/../v2/applications.json", "/rest//v2/applications.json", "/rest/v2//applications.json", "/rest/v2/./applications.json"} {
		w := get(p, "NRAK-DEMO-ACCOUNT-1")
		if w.Code != http.StatusNotFound || w.Header().Get("Location") != "" || !strings.Contains(w.Body.String(), `"error"`) {
			t.Errorf("%s: %d Location %q %s, want a v2 404", p, w.Code, w.Header().Get("Location"), w.Body)
		}
	}
	if w := get("/rest/v2/applications.json", "NRAK-DEMO-ACCOUNT-1"); w.Code != http.StatusOK || w.Header().Get("X-RateLimit-Limit") != "1000" {
		t.Fatalf("the double: %d, X-RateLimit-Limit %q; want 200 with the gateway's rate limit", w.Code, w.Header().Get("X-RateLimit-Limit"))
	}
	statuses := map[int]int{}
	for i := range 2 * gateway.DefaultAuthFailuresPerMinute {
		statuses[get("/rest/v2/applications.json", fmt.Sprintf("NRAK-BAD-%d", i)).Code]++
	}
	if statuses[http.StatusUnauthorized] != gateway.DefaultAuthFailuresPerMinute || statuses[http.StatusTooManyRequests] != gateway.DefaultAuthFailuresPerMinute {
		t.Fatalf("bad keys to the double from one address: %v, want %d × 401 then 429", statuses, gateway.DefaultAuthFailuresPerMinute)
	}
}
