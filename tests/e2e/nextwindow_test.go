package e2e

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

// The limits and TTLs that run on the gateway's clock, crossed by moving the clock (an
// ingestClock the test advances), never by waiting.

// limitStep is one call through the gateway and what it must get.
type limitStep struct {
	advance    time.Duration // the clock moves by this first
	replica    int           // which replica answers (fleet tests)
	status     int
	remaining  string // X-RateLimit-Remaining
	reset      time.Time
	retryAfter string // on a 429
}

func checkLimitStep(t *testing.T, i int, s limitStep, r response) {
	t.Helper()
	if r.status != s.status || r.header.Get("X-RateLimit-Remaining") != s.remaining ||
		r.header.Get("X-RateLimit-Reset") != strconv.FormatInt(s.reset.Unix(), 10) || r.header.Get("Retry-After") != s.retryAfter {
		t.Fatalf("step %d (replica %d): %d remaining %q reset %q Retry-After %q; want %d %q %d %q (%.200s)", i, s.replica, r.status,
			r.header.Get("X-RateLimit-Remaining"), r.header.Get("X-RateLimit-Reset"), r.header.Get("Retry-After"),
			s.status, s.remaining, s.reset.Unix(), s.retryAfter, r.body)
	}
}

// A caller who used up its per-minute limit is refused until the minute ends (with
// Retry-After counting the seconds left on the gateway's clock) and gets its whole
// budget back in the next minute.
func TestRateLimitBudgetReturnsInTheNextMinute(t *testing.T) {
	clk := &ingestClock{t: harness.Clock.Add(40 * time.Second)}
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{RateLimitPerMinute: 3}, Now: clk.now})
	e := &env{sim: h.Sim, gw: h.Gateway}
	end0, end1 := harness.Clock.Add(time.Minute), harness.Clock.Add(2*time.Minute)
	steps := []limitStep{
		{status: 200, remaining: "2", reset: end0},
		{status: 200, remaining: "1", reset: end0},
		{status: 200, remaining: "0", reset: end0},
		{status: 429, remaining: "0", reset: end0, retryAfter: "21"},
		{advance: 20*time.Second - time.Millisecond, status: 429, remaining: "0", reset: end0, retryAfter: "1"},
		{advance: time.Millisecond, status: 200, remaining: "2", reset: end1},
		{status: 200, remaining: "1", reset: end1},
		{status: 200, remaining: "0", reset: end1},
		{status: 429, remaining: "0", reset: end1, retryAfter: "61"},
	}
	for i, s := range steps {
		clk.advance(s.advance)
		checkLimitStep(t, i, s, e.get(t, limitedPath, key1))
	}
}

// In a fleet of two replicas sharing the store, the limit is the fleet's in every
// minute: a caller who used it up through both replicas is refused by both until the
// minute ends, then gets the whole limit back once, fleet-wide (not per replica, and
// not less: the replicas' view of the old minute is no floor in the new one).
func TestFleetRateLimitBudgetReturnsInTheNextMinute(t *testing.T) {
	clk := &ingestClock{t: harness.Clock.Add(30 * time.Second)}
	f := newFleetWith(t, fleetOptions{replicas: 2, store: true, limit: 4, now: clk.now})
	end0, end1 := harness.Clock.Add(time.Minute), harness.Clock.Add(2*time.Minute)
	steps := []limitStep{
		{replica: 0, status: 200, remaining: "3", reset: end0},
		{replica: 1, status: 200, remaining: "2", reset: end0},
		{replica: 0, status: 200, remaining: "1", reset: end0},
		{replica: 1, status: 200, remaining: "0", reset: end0},
		{replica: 0, status: 429, remaining: "0", reset: end0, retryAfter: "31"},
		{replica: 1, status: 429, remaining: "0", reset: end0, retryAfter: "31"},
		{advance: 30 * time.Second, replica: 1, status: 200, remaining: "3", reset: end1},
		{replica: 0, status: 200, remaining: "2", reset: end1},
		{replica: 1, status: 200, remaining: "1", reset: end1},
		{replica: 0, status: 200, remaining: "0", reset: end1},
		{replica: 1, status: 429, remaining: "0", reset: end1, retryAfter: "61"},
		{replica: 0, status: 429, remaining: "0", reset: end1, retryAfter: "61"},
	}
	for i, s := range steps {
		clk.advance(s.advance)
		checkLimitStep(t, i, s, fleetDo(t, f.replicas[s.replica], http.MethodGet, limitedPath, ""))
	}
}

// An address past its failed authentications is answered 429 for keys NerdGraph has
// not accepted until the minute ends, then gets through: a good key it had not used
// yet is served, and its failures count from zero again.
func TestThrottledAddressGetsThroughInTheNextMinute(t *testing.T) {
	clk := &ingestClock{t: harness.Clock.Add(30 * time.Second)}
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{AuthFailuresPerMinute: 2}, Now: clk.now})
	e := &env{sim: h.Sim, gw: h.Gateway}
	for _, k := range []string{"NRAK-NOT-A-KEY-1", "NRAK-NOT-A-KEY-2"} {
		if r := e.get(t, "/v2/applications.json", k); r.status != 401 {
			t.Fatalf("%s: %d, want 401", k, r.status)
		}
	}
	r := e.get(t, "/v2/applications.json", key2)
	if r.status != 429 || r.header.Get("Retry-After") != "31" {
		t.Fatalf("throttled address, unproven key: %d Retry-After %q, want 429 and 31 (seconds to the minute's end, plus one)",
			r.status, r.header.Get("Retry-After"))
	}
	clk.advance(30*time.Second - time.Millisecond)
	if r := e.get(t, "/v2/applications.json", key2); r.status != 429 {
		t.Fatalf("throttled address in the minute's last millisecond: %d, want 429", r.status)
	}
	clk.advance(time.Millisecond)
	if r := e.get(t, "/v2/applications.json", key2); r.status != 200 {
		t.Fatalf("the next minute: %d %.200s, want 200", r.status, r.body)
	}
	for i, k := range []string{"NRAK-NOT-A-KEY-3", "NRAK-NOT-A-KEY-4"} {
		if r := e.get(t, "/v2/applications.json", k); r.status != 401 {
			t.Fatalf("failure %d of the next minute: %d, want 401 (the count starts again)", i+1, r.status)
		}
	}
	if r := e.get(t, "/v2/applications.json", "NRAK-NOT-A-KEY-5"); r.status != 429 {
		t.Fatalf("past the limit again: %d, want 429", r.status)
	}
}

// A key NerdGraph refused is answered 401 from memory for the rejected-key TTL on the
// gateway's clock, counted from NerdGraph's refusal, and asked about again once it has
// passed.
func TestRefusedKeyIsAskedAgainAfterTheRejectedKeyTTL(t *testing.T) {
	clk := &ingestClock{t: harness.Clock}
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{RejectedKeyTTL: 10 * time.Second}, Now: clk.now})
	e := &env{sim: h.Sim, gw: h.Gateway}
	const bad = "NRAK-NOT-A-KEY"
	steps := []struct {
		advance time.Duration
		asked   bool // NerdGraph is asked
	}{
		{0, true},
		{5 * time.Second, false}, // a refusal from memory does not extend the TTL
		{5*time.Second - time.Millisecond, false},
		{time.Millisecond, true},
		{time.Second, false},
	}
	for i, s := range steps {
		clk.advance(s.advance)
		before := h.Sim.Requests()
		r := e.get(t, "/v2/applications.json", bad)
		if asked := h.Sim.Requests() > before; r.status != 401 || asked != s.asked {
			t.Fatalf("step %d: %d, NerdGraph asked %v; want 401, asked %v", i, r.status, asked, s.asked)
		}
	}
}

// A cached answer is served for its cache's TTL on the gateway's clock and read again
// once it has passed: the application show (cache.entity_ttl), a filtered list and the
// key transactions' configuration (cache.list_ttl).
func TestCachedAnswersExpireAfterTheirTTL(t *testing.T) {
	for _, tt := range []struct {
		name string
		path string
		ttl  time.Duration
	}{
		{"application show", "/v2/applications/314221522.json", translate.EntityTTL},
		{"filtered list", "/v2/applications.json?filter[name]=uptime", time.Minute},
		{"key transactions", "/v2/key_transactions.json", time.Minute},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clk := &ingestClock{t: harness.Clock}
			// The auth TTL outlives the steps: only the cache's own TTL is crossed.
			h := harness.StartWith(t, harness.Options{Now: clk.now, AuthTTL: time.Hour})
			e := &env{sim: h.Sim, gw: h.Gateway}
			calls := func() int {
				t.Helper()
				r := e.get(t, tt.path, key1)
				if r.status != 200 {
					t.Fatalf("%s: %d %.200s", tt.path, r.status, r.body)
				}
				n, _ := strconv.Atoi(r.header.Get("X-V2bridge-Upstream-Calls"))
				return n
			}
			cold := calls()
			warm := calls()
			if warm >= cold {
				t.Fatalf("warm read %d round trips, cold %d: nothing cached", warm, cold)
			}
			clk.advance(tt.ttl - time.Millisecond)
			if n := calls(); n != warm {
				t.Fatalf("within the TTL: %d round trips, want %d (cached)", n, warm)
			}
			clk.advance(time.Millisecond)
			if n := calls(); n <= warm {
				t.Fatalf("once the TTL has passed: %d round trips, want more than the cached read's %d", n, warm)
			}
		})
	}
}
