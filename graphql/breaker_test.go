package graphql

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
)

// TestBreakerCountsHTTP500: an HTTP 500 answer counts towards the tenant's breaker like
// any 5xx, and a 4xx does not.
func TestBreakerCountsHTTP500(t *testing.T) {
	for _, tt := range []struct {
		status   int
		wantOpen bool
	}{{500, true}, {404, false}} {
		var hits atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.WriteHeader(tt.status)
		}))
		c := NewClient(srv.URL, Options{BreakerThreshold: 2, BreakerCooldown: time.Hour, MaxAttempts: 1})
		var err error
		for range 3 {
			err = c.MakeRequest(context.Background(), &gql.Request{Query: "mutation M { x }"}, &gql.Response{Data: &struct{}{}})
		}
		srv.Close()
		var ge *Error
		open := errors.As(err, &ge) && ge.Kind == KindUnavailable
		if n := hits.Load(); open != tt.wantOpen || (open && n != 2) || (!open && n != 3) {
			t.Errorf("HTTP %d three times: third call %v after %d hits; want breaker open %v", tt.status, err, n, tt.wantOpen)
		}
	}
}

// TestUpstreamFailure pins which failures count towards the circuit breaker
// (upstreamFailure).
func TestUpstreamFailure(t *testing.T) {
	for kind, want := range map[Kind]bool{
		KindServer: true, KindTransport: true, KindTimeout: true,
		KindAuth: false, KindForbidden: false, KindNotFound: false, KindRateLimited: false,
		KindInvalid: false, KindUnavailable: false,
	} {
		if got := upstreamFailure(&Error{Kind: kind}); got != want {
			t.Errorf("upstreamFailure(%v) = %v, want %v", kind, got, want)
		}
	}
	if upstreamFailure(nil) || upstreamFailure(errors.New("plain")) {
		t.Error("nil or a non-NerdGraph error counted as an upstream failure")
	}
}

// TestBreakerStates walks one breaker through closed, open, half-open (exactly one
// probe), and closed again.
func TestBreakerStates(t *testing.T) {
	now := time.Unix(1000, 0)
	b := &breaker{threshold: 3, cooldown: 10 * time.Second, now: func() time.Time { return now }}
	fail := &Error{Kind: KindServer, Status: 502}
	for i := range 2 {
		if !b.allow() {
			t.Fatalf("call %d refused before the threshold", i+1)
		}
		b.record(fail)
	}
	if !b.allow() {
		t.Fatal("third call refused: only 2 failures so far")
	}
	b.record(fail) // third failure: open
	if b.allow() {
		t.Fatal("circuit still closed after threshold failures")
	}
	now = now.Add(9 * time.Second)
	if b.allow() {
		t.Fatal("circuit half-open before the cooldown ended")
	}
	now = now.Add(time.Second)
	if !b.allow() {
		t.Fatal("no probe after the cooldown")
	}
	if b.allow() {
		t.Fatal("a second probe went out while the first is in flight")
	}
	b.record(fail) // probe failed: open again for a full cooldown
	if b.allow() {
		t.Fatal("failed probe did not reopen the circuit")
	}
	now = now.Add(10 * time.Second)
	if !b.allow() {
		t.Fatal("no probe after the second cooldown")
	}
	b.record(nil) // probe succeeded: closed
	for i := range 2 {
		if !b.allow() {
			t.Fatalf("call %d refused after a successful probe", i+1)
		}
		b.record(fail)
	}
	if !b.allow() {
		t.Fatal("success did not reset the failure count")
	}
}

// TestBreakerReleaseAndNonFailures: a released probe lets the next call probe, and a 429
// or a bad key never opens the circuit.
func TestBreakerReleaseAndNonFailures(t *testing.T) {
	now := time.Unix(1000, 0)
	b := &breaker{threshold: 1, cooldown: time.Second, now: func() time.Time { return now }}
	for range 5 {
		b.record(&Error{Kind: KindRateLimited, Status: 429})
		b.record(&Error{Kind: KindAuth, Status: 401})
	}
	if !b.allow() {
		t.Fatal("rate limits and bad keys opened the circuit")
	}
	b.record(&Error{Kind: KindTimeout})
	now = now.Add(time.Second)
	if !b.allow() {
		t.Fatal("no probe after the cooldown")
	}
	b.release()
	if !b.allow() {
		t.Fatal("released probe blocked the next probe")
	}
	var nilB *breaker
	if !nilB.allow() {
		t.Fatal("nil breaker refused")
	}
	nilB.record(errors.New("x"))
	nilB.release()
}

// TestBreakersQuorum: fewer than globalQuorum failing tenants never open the global
// breaker; globalQuorum of them do.
func TestBreakersQuorum(t *testing.T) {
	now := time.Unix(1000, 0)
	s := newBreakers(1, time.Minute, func() time.Time { return now })
	fail := &Error{Kind: KindServer, Status: 500}
	ids := [][32]byte{tenantID("a"), tenantID("b"), tenantID("c"), tenantID("d")}
	s.record(ids[0], fail)
	s.record(ids[1], fail)
	if !s.allow(ids[3]) {
		t.Fatal("two failing tenants opened the circuit of a third")
	}
	s.release(ids[3])
	s.record(ids[2], fail)
	if s.allow(ids[3]) {
		t.Fatal("globalQuorum failing tenants did not open the global circuit")
	}
	if got := s.tenantCount(); got != 3 {
		t.Errorf("tenantCount = %d, want 3", got)
	}
	var nilS *breakers
	if !nilS.allow(ids[0]) || nilS.tenantCount() != 0 {
		t.Fatal("nil breakers must allow and hold nothing")
	}
}

// TestBreakersConnectionFailure: a connection failure counts against the global breaker,
// which then refuses every tenant and frees a refused tenant's probe.
func TestBreakersConnectionFailure(t *testing.T) {
	now := time.Unix(1000, 0)
	s := newBreakers(1, time.Minute, func() time.Time { return now })
	a, b := tenantID("a"), tenantID("b")
	s.record(a, &Error{Kind: KindServer, Status: 500}) // a's own breaker opens
	if s.allow(a) {
		t.Fatal("a's open breaker allowed a call")
	}
	if !s.allow(b) {
		t.Fatal("a's failure refused b")
	}
	s.record(b, nil)
	refused := &Error{Kind: KindTransport, Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}
	s.record(b, refused)
	if s.allow(b) {
		t.Fatal("a refused connection did not open the global breaker")
	}
	now = now.Add(time.Minute)
	// a's probe is allowed by a's breaker, the global breaker's probe too.
	if !s.allow(a) {
		t.Fatal("no probe after the cooldown")
	}
	s.record(a, nil) // success closes both and drops a's breaker
	if !s.allow(a) || !s.allow(b) {
		t.Fatal("a success did not close the circuits")
	}
	if got := s.tenantCount(); got != 0 {
		t.Fatalf("tenantCount = %d after success, want 0", got)
	}
}

// TestTenantBounds: at most maxTenantBreakers tenants hold a breaker or a retry budget;
// beyond the bound a tenant is not tracked and its calls and retries go out as without
// one.
func TestTenantBounds(t *testing.T) {
	now := time.Unix(1000, 0)
	s := newBreakers(1, time.Minute, func() time.Time { return now })
	var r retryBudgets
	fail := &Error{Kind: KindServer, Status: 500}
	id := func(i int) [32]byte {
		var b [32]byte
		b[0], b[1], b[2] = byte(i), byte(i>>8), byte(i>>16)
		return b
	}
	for i := range maxTenantBreakers {
		s.tenant(id(i), true)
		r.spend(id(i))
	}
	extra := id(maxTenantBreakers)
	s.record(extra, fail)
	if got := s.tenantCount(); got != maxTenantBreakers {
		t.Fatalf("tenantCount = %d, want the bound %d", got, maxTenantBreakers)
	}
	if !s.allow(extra) {
		t.Fatal("an untracked tenant's call was refused")
	}
	for range int(retryBurst) + 5 {
		if !r.spend(extra) {
			t.Fatal("an untracked tenant's retry was refused")
		}
	}
	if len(r.tenants) != maxTenantBreakers {
		t.Fatalf("retry budgets held: %d, want %d", len(r.tenants), maxTenantBreakers)
	}
}

// TestRequestDeadlineIsNotAnUpstreamFailure: calls cut by their request's deadline
// (Calls.SetDeadline) while NerdGraph has not answered are the caller's time running
// out, not NerdGraph failing: however many, they never open the breaker.
func TestRequestDeadlineIsNotAnUpstreamFailure(t *testing.T) {
	srv := hangingServer(t)
	c := NewClient(srv.URL, Options{BreakerThreshold: 1, BreakerCooldown: time.Hour, MaxAttempts: 1, Timeout: time.Hour})
	for i := range 3 {
		calls := new(Calls)
		calls.SetDeadline(time.Now().Add(20 * time.Millisecond))
		err := c.MakeRequest(WithCalls(context.Background(), calls), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
		var ge *Error
		if !errors.As(err, &ge) || ge.Kind != KindTimeout {
			t.Fatalf("call %d: err = %v, want a timeout (the breaker opened on the caller's deadline?)", i, err)
		}
	}
}
