package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// scriptedShared answers Allow with its next scripted count (ok while count <= limit),
// or an error when the script says -1.
// Like the store's window script, it takes the replica's floor into its count, and it
// keeps the floors it was given.
type scriptedShared struct {
	counts []int
	floors []int
}

func (s *scriptedShared) Allow(_ context.Context, _ string, limit int, _ time.Time, _ time.Duration, floor int) (bool, int, error) {
	c := s.counts[0]
	s.counts = s.counts[1:]
	s.floors = append(s.floors, floor)
	if c < 0 {
		return false, 0, errors.New("store down")
	}
	if c <= floor {
		c = floor + 1
	}
	return c <= limit, c, nil
}

func (s *scriptedShared) Forget(context.Context, string, time.Time) {}

// TestAllowFleet: the store's count decides and sets the remaining calls; a count lower
// than the replica has seen in the window counts on from what it saw; when the store
// fails the replica counts on from the highest count it saw.
func TestAllowFleet(t *testing.T) {
	at := time.Date(2026, 4, 20, 12, 0, 30, 0, time.UTC)
	l := newRateLimiter(10, func() time.Time { return at })
	l.shared = &scriptedShared{counts: []int{4, 7, 5, -1, 11}}
	steps := []struct {
		ok        bool
		remaining int
	}{
		{true, 6},  // store: 4
		{true, 3},  // store: 7
		{true, 2},  // store: 5, lower than the 7 seen: the floor makes it 8
		{true, 1},  // store down: the replica's count goes on from 8 to 9
		{false, 0}, // store: 11 over the limit
	}
	for i, s := range steps {
		ok, remaining, reset := l.allowFleet(context.Background(), "k")
		if ok != s.ok || remaining != s.remaining {
			t.Errorf("call %d: (%v, %d), want (%v, %d)", i+1, ok, remaining, s.ok, s.remaining)
		}
		if want := at.Truncate(time.Minute).Add(time.Minute); !reset.Equal(want) {
			t.Errorf("call %d: reset %v, want %v", i+1, reset, want)
		}
	}
}

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// TestRateLimiterWindow pins the fixed window: calls left, refusal at the limit, the
// reset time, a new minute, the sweep of the windows of past minutes once a minute.
func TestRateLimiterWindow(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 12, 0, 10, 0, time.UTC)
	clk := &fakeClock{t0}
	l := newRateLimiter(3, clk.now)
	reset0 := time.Date(2026, 11, 24, 12, 1, 0, 0, time.UTC)
	for i, want := range []int{2, 1, 0} {
		ok, remaining, reset := l.allow("k")
		if !ok || remaining != want || !reset.Equal(reset0) {
			t.Fatalf("call %d: %v %d %v, want true %d %v", i+1, ok, remaining, reset, want, reset0)
		}
	}
	if ok, remaining, _ := l.allow("k"); ok || remaining != 0 {
		t.Fatalf("4th call: %v %d, want refused with 0 left", ok, remaining)
	}
	if ok, remaining, _ := l.allow("other"); !ok || remaining != 2 {
		t.Fatalf("other key: %v %d, want its own window", ok, remaining)
	}
	if over, reset := l.exhausted("k"); !over || !reset.Equal(reset0) {
		t.Errorf("exhausted(k) = %v %v, want true %v", over, reset, reset0)
	}
	if over, _ := l.exhausted("other"); over {
		t.Error("exhausted(other) with 2 left = true")
	}
	if over, _ := l.exhausted("unknown"); over {
		t.Error("exhausted(unknown) without a bound = true")
	}
	// The next minute: a new window, and the old windows swept (the last sweep was at
	// t0; one minute later exactly is not yet more than a minute).
	clk.t = t0.Add(time.Minute)
	if ok, remaining, _ := l.allow("k"); !ok || remaining != 2 {
		t.Fatalf("next minute: %v %d, want a new window", ok, remaining)
	}
	if over, _ := l.exhausted("k"); over {
		t.Error("exhausted(k) in a new window = true")
	}
	if len(l.windows) != 2 {
		t.Errorf("%d windows exactly one minute after the last sweep, want 2 (no sweep yet)", len(l.windows))
	}
	clk.t = t0.Add(time.Minute + time.Second)
	l.allow("k")
	if _, ok := l.windows["other"]; ok || len(l.windows) != 1 {
		t.Errorf("windows after the sweep: %v, want only k's current one", l.windows)
	}
	l.forget("k")
	if len(l.windows) != 0 {
		t.Errorf("forget left %v", l.windows)
	}
	h := http.Header{}
	l.headers(h, 7, reset0)
	if h.Get("X-RateLimit-Limit") != "3" || h.Get("X-RateLimit-Remaining") != "7" || h.Get("X-RateLimit-Reset") != strconv.FormatInt(reset0.Unix(), 10) {
		t.Errorf("headers %v", h)
	}
}

// TestRateLimiterBound: with maxWindows, a key beyond the bound is refused and counts
// as exhausted; known keys go on; an empty bounded limiter is not exhausted.
func TestRateLimiterBound(t *testing.T) {
	clk := &fakeClock{time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	l := newRateLimiter(5, clk.now)
	l.maxWindows = 2
	for _, k := range []string{"a", "b"} {
		if ok, _, _ := l.allow(k); !ok {
			t.Fatalf("key %s within the bound refused", k)
		}
	}
	if over, _ := l.exhausted("c"); !over {
		t.Error("exhausted(c) beyond the bound = false")
	}
	if ok, remaining, reset := l.allow("c"); ok || remaining != 0 || !reset.Equal(clk.t.Add(time.Minute)) {
		t.Errorf("allow(c) beyond the bound = %v %d %v, want refused", ok, remaining, reset)
	}
	if ok, _, _ := l.allow("a"); !ok {
		t.Error("known key a refused")
	}
	l.forget("b") // no shared store: only the local window goes
	if over, _ := l.exhausted("c"); over {
		t.Error("exhausted(c) with room again = true")
	}
	l1 := newRateLimiter(5, clk.now)
	l1.maxWindows = 1
	if over, _ := l1.exhausted("x"); over {
		t.Error("exhausted(x) in an empty bounded limiter = true")
	}
}

// TestAuthGuard: the guard's configuration (newAuthGuard: negative disables, zero
// takes the default, DefaultRejectedKeyTTL is 30 s), admit's 429 with its Retry-After
// in whole seconds rounded up and 401 for a refused key, and settle: a 401 counts a
// failure and drops the key's rate-limit window.
func TestAuthGuard(t *testing.T) {
	if DefaultRejectedKeyTTL != 30*time.Second {
		t.Errorf("DefaultRejectedKeyTTL = %v, want the documented 30s", DefaultRejectedKeyTTL)
	}
	if ag := newAuthGuard(Config{RejectedKeyTTL: -1, AuthFailuresPerMinute: -1}); ag.rejected != nil || ag.failures != nil {
		t.Errorf("negative settings: rejected %v failures %v, want both off", ag.rejected, ag.failures)
	}
	if ag := newAuthGuard(Config{}); ag.rejected == nil || ag.failures == nil || ag.failures.limit != DefaultAuthFailuresPerMinute ||
		ag.failures.maxWindows != maxGuardEntries {
		t.Errorf("defaults: %+v", ag)
	}

	clk := &fakeClock{time.Date(2026, 11, 24, 12, 0, 10, 0, time.UTC)}
	g := New(Config{AuthFailuresPerMinute: 2, Now: clk.now}, nil, nil)
	req := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
	req.RemoteAddr = "192.0.2.7:5555"
	unauthorized := func(key string) {
		st := &reqState{}
		st.sw.status = http.StatusUnauthorized
		g.settle(req, st, key)
	}
	admit := func(key string) (bool, *httptest.ResponseRecorder, error) {
		w := httptest.NewRecorder()
		var got error
		ok := g.admit(w, func(err error) { got = err }, req, nil, key, false)
		return ok, w, got
	}
	if ok := g.admit(httptest.NewRecorder(), func(error) { t.Error("fail called for an accepted key") }, req, nil, "k1", true); !ok {
		t.Fatal("accepted key refused")
	}
	if ok, _, _ := admit("k1"); !ok {
		t.Fatal("unknown key refused before any failure")
	}
	g.settle(req, nil, "k1") // no state: nothing counted
	ok200 := &reqState{}
	ok200.sw.status = 200
	g.settle(req, ok200, "k1")
	if ok, _, _ := admit("k1"); !ok || ok200.callerHash != "" {
		t.Fatalf("after a 200: admitted %v caller %q (no translator: the key is not known as accepted)", ok, ok200.callerHash)
	}
	g.limit.allow("k1")
	unauthorized("k1")
	if _, kept := g.limit.windows["k1"]; kept {
		t.Error("a refused key kept its rate-limit window")
	}
	ok, _, err := admit("k1")
	var ve *restv2.Error
	if ok || !errors.As(err, &ve) || ve.Status != http.StatusUnauthorized {
		t.Fatalf("refused key: admitted %v, error %v, want 401", ok, err)
	}
	if ok, _, _ := admit("k2"); !ok {
		t.Fatal("another key refused after one failure (limit 2)")
	}
	unauthorized("k2")
	ok, w, err := admit("k3")
	if ok || !errors.As(err, &ve) || ve.Status != http.StatusTooManyRequests {
		t.Fatalf("address over its failures: admitted %v, error %v, want 429", ok, err)
	}
	// 50 s to the window's end on the gateway's clock, plus one.
	if ra := w.Header().Get("Retry-After"); ra != "51" {
		t.Errorf("Retry-After %s, want 51 (the seconds to the window's end on the gateway's clock, plus one)", ra)
	}
	other := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
	other.RemoteAddr = "192.0.2.8:5555"
	if ok := g.admit(httptest.NewRecorder(), func(error) {}, other, nil, "k3", false); !ok {
		t.Error("another address refused")
	}

	// The address is the peer's host without its port, or the whole RemoteAddr when it
	// has no port.
	for addr, want := range map[string]string{"192.0.2.7:1": "192.0.2.7", "[2001:db8::1]:80": "2001:db8::1", "pipe": "pipe"} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = addr
		if got := peerAddress(r); got != want {
			t.Errorf("peerAddress(%q) = %q, want %q", addr, got, want)
		}
	}

	// A configured TTL is used as given, not replaced by the 30 s default, on the
	// gateway's clock: refused until it has passed, asked again after.
	g = New(Config{RejectedKeyTTL: 10 * time.Second, Now: clk.now}, nil, nil)
	unauthorized("k8")
	clk.t = clk.t.Add(10*time.Second - time.Nanosecond)
	if ok, _, _ := admit("k8"); ok {
		t.Error("a key refused with a 10 s TTL was admitted within it")
	}
	clk.t = clk.t.Add(time.Nanosecond)
	if ok, _, _ := admit("k8"); !ok {
		t.Error("a key refused with a 10 s TTL was still refused when it had passed")
	}

	// Without the address limit, a 401 still remembers the key.
	g = New(Config{AuthFailuresPerMinute: -1, RateLimitPerMinute: -1}, nil, nil)
	unauthorized("k9")
	if ok, _, _ := admit("k9"); ok {
		t.Error("refused key admitted with the address limit off")
	}
}

// TestLimitersUseConfiguredClock: the per-key rate limit and the failed-authentication
// limit count in the minute of Config.Now, so a test's frozen clock keeps them in one
// window (the e2e limit tests do not wait for a minute's start).
func TestLimitersUseConfiguredClock(t *testing.T) {
	at := time.Date(2026, 11, 20, 12, 0, 30, 0, time.UTC)
	g := New(Config{Now: func() time.Time { return at }, RateLimitPerMinute: 5}, nil, nil)
	if got := g.limit.now(); !got.Equal(at) {
		t.Errorf("rate limit clock %v, want the configured %v", got, at)
	}
	if got := g.guard.failures.now(); !got.Equal(at) {
		t.Errorf("failed-authentication limit clock %v, want the configured %v", got, at)
	}
	if ag := newAuthGuard(Config{}); ag.failures.now == nil {
		t.Error("no clock without Config.Now")
	}
}

// TestFleetLimitSurvivesStoreRestartedEmpty: a store that restarts empty within a
// window does not hand a key its whole limit again: the replica's view of the window is
// a floor.
func TestFleetLimitSurvivesStoreRestartedEmpty(t *testing.T) {
	at := time.Date(2026, 4, 20, 12, 0, 30, 0, time.UTC)
	l := newRateLimiter(1000, func() time.Time { return at })
	counts := make([]int, 0, 144)
	for i := 1; i <= 141; i++ {
		counts = append(counts, i)
	}
	counts = append(counts, 1, 2, 3) // the store restarted empty
	l.shared = &scriptedShared{counts: counts}
	var remaining int
	for range counts {
		_, remaining, _ = l.allowFleet(context.Background(), "k")
	}
	if remaining != 1000-144 {
		t.Fatalf("remaining %d after 144 calls in the window, want %d", remaining, 1000-144)
	}
	// The replica handed the store its view of the window: 141 on the first call after
	// the restart.
	if f := l.shared.(*scriptedShared).floors[141]; f != 141 {
		t.Fatalf("floor on the first call after the restart %d, want 141", f)
	}
}
