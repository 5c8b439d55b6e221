package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// Every upstream fault gives the caller the right v2 status and title within the
// request deadline (plus a small margin), and leaves no goroutine behind.
func TestUpstreamFaults(t *testing.T) {
	const deadline = time.Second
	tests := []struct {
		name   string
		fault  sim.Fault
		status int
		title  string
	}{
		{"added latency", sim.Fault{Latency: 100 * time.Millisecond}, 200, ""},
		{"HTTP 500", sim.Fault{Status: 500}, 502, "failed to answer"},
		{"HTTP 502", sim.Fault{Status: 502}, 502, "failed to answer"},
		{"HTTP 503", sim.Fault{Status: 503}, 502, "failed to answer"},
		{"HTTP 429 with Retry-After", sim.Fault{Status: 429, RetryAfter: 5}, 429, "Rate limit"},
		{"HTTP 429 without Retry-After", sim.Fault{Status: 429}, 429, "Rate limit"},
		{"TOO_MANY_REQUESTS on 200", sim.Fault{ErrorClass: "TOO_MANY_REQUESTS"}, 429, "Rate limit"},
		{"TIMEOUT on 200", sim.Fault{ErrorClass: "TIMEOUT"}, 504, "did not answer in time"},
		{"INTERNAL_SERVER_ERROR on 200", sim.Fault{ErrorClass: "INTERNAL_SERVER_ERROR"}, 502, "failed to answer"},
		{"partial data: optional enrichment", sim.Fault{PartialPath: "account"}, 200, ""},
		{"partial data: the entity", sim.Fault{PartialPath: "entity"}, 502, "failed to answer"},
		{"malformed JSON", sim.Fault{Malformed: true}, 502, "failed to answer"},
		{"truncated body", sim.Fault{Truncated: true}, 502, "failed to answer"},
		{"connection reset", sim.Fault{Reset: true}, 502, "failed to answer"},
		{"never-ending answer", sim.Fault{Hang: true}, 504, "did not answer in time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Cleanup(func() {
				http.DefaultClient.CloseIdleConnections()
				goleak.VerifyNone(t, goleak.IgnoreCurrent())
			})
			faults := &sim.Faults{}
			h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{RequestTimeout: deadline},
				Sim: []sim.Option{sim.WithMiddleware(faults.Middleware)}, UpstreamTimeout: 400 * time.Millisecond})
			e := &env{sim: h.Sim, gw: h.Gateway}
			f := tt.fault
			f.Operation = "AppShow"
			faults.Set(&f)
			start := time.Now()
			r := e.get(t, "/v2/applications/314221522.json", key1, "X-Account-ID", "1000001")
			took := time.Since(start)
			if took > deadline+300*time.Millisecond {
				t.Errorf("answered after %v (deadline %v)", took, deadline)
			}
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.title != "" {
				if b := decode(t, r); b.Error == nil || !strings.Contains(b.Error.Title, tt.title) {
					t.Fatalf("title %s does not say %q", r.body, tt.title)
				}
			}
			if tt.status == 429 && r.header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			if strings.Contains(string(r.body), "goroutine") || strings.Contains(string(r.body), "panic") {
				t.Fatal("internals leaked into the body")
			}
		})
	}
}

// A 429 with Retry-After: 2 followed by success is retried once; the caller gets 200.
func TestRetryAfterThenSuccess(t *testing.T) {
	faults := &sim.Faults{}
	h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithMiddleware(faults.Middleware)}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	faults.Set(&sim.Fault{Operation: "AppShow", First: 1, Status: 429, RetryAfter: 2})
	start := time.Now()
	r := e.get(t, "/v2/applications/314221522.json", key1, "X-Account-ID", "1000001")
	if r.status != 200 || r.header.Get("X-V2bridge-Upstream-Calls") != "2" || time.Since(start) < 2*time.Second {
		t.Fatalf("status %d, calls %s, after %v", r.status, r.header.Get("X-V2bridge-Upstream-Calls"), time.Since(start))
	}
}
