package gateway

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

func TestLinkHeader(t *testing.T) {
	g := New(Config{PublicURL: "https://gw.example"}, nil, nil)
	r := httptest.NewRequest("GET", "/v2/applications.json?filter%5Bids%5D=1,2&filter[name]=a+b", nil)
	params, err := restv2.ParseParams(r.URL.RawQuery, "")
	if err != nil {
		t.Fatal(err)
	}
	base := "https://gw.example/v2/applications.json?filter%5Bids%5D=1%2C2&filter%5Bname%5D=a+b&page="
	tests := []struct {
		name string
		give translate.Paging
		want string
	}{
		{"single page", translate.Paging{Page: 1, Last: 1}, ""},
		{"first of three", translate.Paging{Page: 1, Last: 3, HasNext: true},
			`<` + base + `2>; rel="next", <` + base + `3>; rel="last"`},
		{"middle", translate.Paging{Page: 2, Last: 3, HasNext: true},
			`<` + base + `1>; rel="first", <` + base + `1>; rel="prev", <` + base + `3>; rel="next", <` + base + `3>; rel="last"`},
		{"last", translate.Paging{Page: 3, Last: 3},
			`<` + base + `1>; rel="first", <` + base + `2>; rel="prev"`},
		{"unknown last", translate.Paging{Page: 1, HasNext: true}, `<` + base + `2>; rel="next"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := g.linkHeader(r, params, tt.give)
			if got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
			// No raw comma inside a URL: NRAM splits the header on ",".
			for _, part := range strings.Split(got, ", ") {
				if part != "" && strings.Count(part, ",") != 0 {
					t.Fatalf("comma inside link %q", part)
				}
			}
		})
	}
}

// A panic in a handler becomes a v2 500 body, is logged once, and the key never
// appears in the log.
func TestRecoveryAndLogHygiene(t *testing.T) {
	var logs bytes.Buffer
	log := zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(&logs), zap.DebugLevel))
	g := New(Config{}, nil, log)
	h := g.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("boom") }))
	req := httptest.NewRequest("GET", "/v2/applications.xml", nil)
	req.Header.Set("X-Api-Key", "NRAK-SECRETSECRETSECRET")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), "<title>A server error occurred") {
		t.Fatalf("got %d %s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(logs.String(), "panic: boom") {
		t.Fatalf("panic not logged: %s", logs.String())
	}
	if strings.Contains(logs.String(), "SECRET") {
		t.Fatalf("key leaked into the log: %s", logs.String())
	}
}

// REST v2's per-key limit: the 1001st call in a minute gets 429 {} with the headers and
// Retry-After; another key is unaffected.
func TestRateLimit(t *testing.T) {
	g := New(Config{}, nil, nil)
	// One minute's window throughout: on the wall clock the 1001 calls could straddle
	// a minute and find a new window (CI saw "remaining after 1000 = 893").
	at := time.Date(2026, 11, 25, 15, 44, 30, 0, time.UTC)
	g.limit.now = func() time.Time { return at }
	h := g.Handler()
	call := func(key string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/v2/applications.json", nil)
		req.Header.Set("X-Api-Key", key)
		req.Header.Set("X-Account-ID", "not-a-number") // stops before any upstream call
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	var last *httptest.ResponseRecorder
	for i := 0; i < 1000; i++ {
		last = call("NRAK-A")
		if last.Code == 429 {
			t.Fatalf("call %d limited", i+1)
		}
	}
	if got := last.Header().Get("X-RateLimit-Remaining"); got != "0" {
		t.Errorf("remaining after 1000 = %s", got)
	}
	rec := call("NRAK-A")
	if rec.Code != 429 || strings.TrimSpace(rec.Body.String()) != "{}" {
		t.Fatalf("1001st call: %d %q", rec.Code, rec.Body.String())
	}
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "X-RateLimit-Docs"} {
		if rec.Header().Get(h) == "" {
			t.Errorf("429 lacks %s", h)
		}
	}
	if rec.Header().Get("X-RateLimit-Limit") != "1000" {
		t.Errorf("limit header %q", rec.Header().Get("X-RateLimit-Limit"))
	}
	if other := call("NRAK-B"); other.Code == 429 || other.Header().Get("X-RateLimit-Remaining") != "999" {
		t.Fatalf("other key: %d remaining %s", other.Code, other.Header().Get("X-RateLimit-Remaining"))
	}
}

// TestNewRegistersCollectors: with a readiness check New registers the
// v2bridge_nerdgraph_reachable gauge, with a translator the cache collector; a second
// registration of the same collector is then refused as already registered.
func TestNewRegistersCollectors(t *testing.T) {
	tr := translate.New(&refusingClient{}, translate.Options{})
	g := New(Config{Ready: func(context.Context) error { return nil }}, tr, nil)
	var already prometheus.AlreadyRegisteredError
	if err := g.cfg.Metrics.reg.Register(g.ready.gauge()); !errors.As(err, &already) {
		t.Errorf("readiness gauge registered again: %v, want AlreadyRegisteredError (New did not register it)", err)
	}
	if err := g.cfg.Metrics.reg.Register(cacheCollector{tr: tr}); !errors.As(err, &already) {
		t.Errorf("cache collector registered again: %v, want AlreadyRegisteredError (New did not register it)", err)
	}
}
