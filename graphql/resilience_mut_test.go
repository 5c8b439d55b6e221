package graphql

// White-box tests of the client's resilience rules, written against surviving mutants
// of `make mutate PKG=./graphql/...` (gremlins v0.6.0). Each case says which mutant
// (file:line and the changed operator) it kills.
//
// Waived equivalent mutant (tests/MUTATION.md): breaker.go:103 CONDITIONALS_BOUNDARY,
// `len(s.streak) < globalQuorum` → `<=` before adding a failing tenant to the streak. The
// streak then holds up to globalQuorum+1 tenants instead of globalQuorum, but the only
// reader asks `len(s.streak) >= globalQuorum`, which is true in both once globalQuorum
// tenants failed, and a success clears the streak in both: no call is treated differently.

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStatusKindMut pins how every upstream HTTP status is classed
// (client.go statusKind: `status >= 500` → `> 500` makes 500 a transport failure).
func TestStatusKindMut(t *testing.T) {
	tests := []struct {
		status int
		want   Kind
	}{
		{401, KindAuth}, {403, KindForbidden}, {429, KindRateLimited},
		{504, KindTimeout}, {408, KindTimeout},
		{500, KindServer}, {502, KindServer}, {503, KindServer}, {599, KindServer},
		{400, KindInvalid}, {422, KindInvalid},
		{499, KindTransport}, {302, KindTransport}, {404, KindTransport},
	}
	for _, tt := range tests {
		if got := statusKind(tt.status); got != tt.want {
			t.Errorf("statusKind(%d) = %v, want %v", tt.status, got, tt.want)
		}
	}
}

// TestClassifyMut pins the GraphQL error classes and that the most severe wins
// (errors.go classify: `rank(k) > rank(kind)` → `>=`/`<`, `i == 0` → `i != 0`).
func TestClassifyMut(t *testing.T) {
	e := func(class string) GraphQLError {
		return GraphQLError{Message: "m", Extensions: map[string]any{"errorClass": class}}
	}
	tests := []struct {
		name string
		errs []GraphQLError
		want Kind
	}{
		{"auth beats all", []GraphQLError{e("NOT_FOUND"), e("BAD_API_KEY"), e("FORBIDDEN")}, KindAuth},
		{"forbidden beats rate limit", []GraphQLError{e("TOO_MANY_REQUESTS"), e("ACCESS_DENIED")}, KindForbidden},
		{"rate limit beats timeout", []GraphQLError{e("TIMEOUT"), e("TOO_MANY_REQUESTS")}, KindRateLimited},
		{"timeout beats invalid", []GraphQLError{e("BAD_USER_INPUT"), e("TIMEOUT")}, KindTimeout},
		{"invalid beats not found", []GraphQLError{e("NOT_FOUND"), e("NRQL_SYNTAX_ERROR")}, KindInvalid},
		{"not found beats server", []GraphQLError{e("INTERNAL_SERVER_ERROR"), e("NOT_FOUND")}, KindNotFound},
		{"first kept when equal", []GraphQLError{e("NOT_FOUND"), e("NOT_FOUND")}, KindNotFound},
		{"server first, then nothing worse", []GraphQLError{e("SERVER_ERROR"), {Message: "odd"}}, KindServer},
		{"single not found", []GraphQLError{e("not_found")}, KindNotFound},
		{"error_code key", []GraphQLError{{Extensions: map[string]any{"error_code": "UNAUTHORIZED"}}}, KindAuth},
		{"code key", []GraphQLError{{Extensions: map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}}}, KindInvalid},
		{"empty errorClass falls to code", []GraphQLError{{Extensions: map[string]any{"errorClass": "", "code": "TIMEOUT"}}}, KindTimeout},
		{"message: unknown field", []GraphQLError{{Message: `Cannot query field "x"`}}, KindInvalid},
		{"message: nrql", []GraphQLError{{Message: "NRQL Syntax Error: x"}}, KindInvalid},
		{"message: other", []GraphQLError{{Message: "boom"}}, KindServer},
	}
	for _, tt := range tests {
		if got := classify(tt.errs); got != tt.want {
			t.Errorf("%s: classify = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRetryableMut pins the retry rules, above all that a mutation is sent again only
// when the connection was refused before anything left (client.go retryable: dropping
// the `!query` branch or `op.Op == "dial"` → `!=` would send a mutation twice).
func TestRetryableMut(t *testing.T) {
	dial := &net.OpError{Op: "dial", Err: errors.New("connection refused")}
	read := &net.OpError{Op: "read", Err: errors.New("connection reset")}
	tests := []struct {
		name  string
		err   error
		query bool
		want  bool
	}{
		{"mutation refused at dial", &Error{Kind: KindTransport, Err: dial}, false, true},
		{"mutation reset while reading", &Error{Kind: KindTransport, Err: read}, false, false},
		{"mutation 5xx", &Error{Kind: KindServer, Status: 502}, false, false},
		{"mutation 429", &Error{Kind: KindRateLimited, Status: 429}, false, false},
		{"mutation timeout", &Error{Kind: KindTimeout, Status: 200}, false, false},
		{"mutation dial but not transport", &Error{Kind: KindServer, Err: dial}, false, false},
		{"mutation transport without net error", &Error{Kind: KindTransport, Err: errors.New("bad json")}, false, false},
		{"query 429", &Error{Kind: KindRateLimited, Status: 429}, true, true},
		{"query 5xx", &Error{Kind: KindServer, Status: 503}, true, true},
		{"query reset", &Error{Kind: KindTransport, Err: read}, true, true},
		{"query NerdGraph TIMEOUT class", &Error{Kind: KindTimeout, Status: 200}, true, true},
		{"query our own deadline", &Error{Kind: KindTimeout}, true, false},
		{"query 504", &Error{Kind: KindTimeout, Status: 504}, true, false},
		{"query auth", &Error{Kind: KindAuth, Status: 401}, true, false},
		{"query invalid", &Error{Kind: KindInvalid}, true, false},
		{"query not found", &Error{Kind: KindNotFound}, true, false},
		{"query circuit open", &Error{Kind: KindUnavailable}, true, false},
		{"plain error", errors.New("x"), true, false},
	}
	for _, tt := range tests {
		if got := retryable(tt.err, tt.query); got != tt.want {
			t.Errorf("%s: retryable = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRetryAfterMut pins which answers carry a Retry-After (client.go retryAfter:
// `s >= 0` → `> 0`, `d > 0` → `>= 0`/`< 0`).
func TestRetryAfterMut(t *testing.T) {
	tests := []struct {
		give string
		min  time.Duration
		max  time.Duration
	}{
		{"", 0, 0},
		{"0", 0, 0},
		{"7", 7 * time.Second, 7 * time.Second},
		{"-3", 0, 0},
		{"soon", 0, 0},
		{time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat), 0, 0},
		{time.Now().Add(time.Hour).UTC().Format(http.TimeFormat), 58 * time.Minute, time.Hour},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.give != "" {
			h.Set("Retry-After", tt.give)
		}
		if got := retryAfter(h); got < tt.min || got > tt.max {
			t.Errorf("retryAfter(%q) = %v, want in [%v, %v]", tt.give, got, tt.min, tt.max)
		}
	}
}

// TestBackoffMut pins the jittered exponential backoff and that Retry-After wins
// (client.go backoff: `n - 1` → `n + 1`, `d/2` → `d*2`, `RetryAfter > 0` → `>= 0`).
func TestBackoffMut(t *testing.T) {
	c := &Client{opts: Options{Backoff: 100 * time.Millisecond}}
	for n, base := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond} {
		for range 20 {
			if got := c.backoff(n, errors.New("x")); got < base/2 || got >= base/2+base {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v)", n, got, base/2, base/2+base)
			}
		}
	}
	if got := c.backoff(1, &Error{Kind: KindRateLimited, RetryAfter: 3 * time.Second}); got != 3*time.Second {
		t.Errorf("backoff with Retry-After 3s = %v", got)
	}
	if got := c.backoff(1, &Error{Kind: KindRateLimited}); got < 50*time.Millisecond || got >= 150*time.Millisecond {
		t.Errorf("backoff without Retry-After = %v, want the jittered base", got)
	}
}

// TestUpstreamFailureMut pins which failures count towards the circuit breaker
// (breaker.go upstreamFailure).
func TestUpstreamFailureMut(t *testing.T) {
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

// TestBreakerStatesMut walks one breaker through closed, open, half-open (exactly one
// probe), and closed again (breaker.go allow/record: `failures < threshold` → `<=`,
// `failures >= threshold` → `>`, `|| b.probing` dropped, `failures = 0` dropped).
func TestBreakerStatesMut(t *testing.T) {
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

// TestBreakerReleaseAndNonFailuresMut: a released probe lets the next call probe, and a
// 429 or a bad key never opens the circuit (breaker.go release, record).
func TestBreakerReleaseAndNonFailuresMut(t *testing.T) {
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

// TestBreakersQuorumMut: fewer than globalQuorum failing tenants never open the global
// breaker; globalQuorum of them do (breaker.go record: `len(streak) >= globalQuorum` → `>`).
func TestBreakersQuorumMut(t *testing.T) {
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

// TestRetryBudgetMut: a tenant gets retryBurst retries, then one per 1/retryEarn first
// attempts (retrybudget.go: `t < 1` → `<= 1`, `t >= retryBurst` → `>`).
func TestRetryBudgetMut(t *testing.T) {
	var r retryBudgets
	id := tenantID("k")
	r.earn(id) // no bucket yet: nothing to earn, nothing held
	if len(r.tenants) != 0 {
		t.Fatal("earn made a bucket for a tenant without retries")
	}
	for i := range int(retryBurst) {
		if !r.spend(id) {
			t.Fatalf("retry %d refused within the burst of %v", i+1, retryBurst)
		}
	}
	if r.spend(id) {
		t.Fatal("retry beyond the burst allowed")
	}
	for range 5 {
		r.earn(id)
	}
	if !r.spend(id) {
		t.Fatal("five first attempts did not earn one retry")
	}
	if r.spend(id) {
		t.Fatal("more than one retry earned by five first attempts")
	}
	for range 60 { // 0.2 × 50 is a hair under 10 in floating point
		r.earn(id)
	}
	if _, held := r.tenants[id]; held {
		t.Fatal("a full bucket is still held")
	}
}

// TestErrorTextMut pins the error text: kind, status, at most three GraphQL errors with
// their paths (errors.go Error: `i == 3` → `!=`, `len-3` → `len+3`, `Status != 0`).
func TestErrorTextMut(t *testing.T) {
	e := &Error{Kind: KindServer, Status: 502, Errors: []GraphQLError{
		{Message: "a", Path: []any{"actor", "account", 1}}, {Message: "b"}, {Message: "c"}, {Message: "d"}, {Message: "e"},
	}, Err: errors.New("cause")}
	want := "nerdgraph server (HTTP 502): a at actor.account.1: b: c; and 2 more: cause"
	if got := e.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := (&Error{Kind: KindTimeout}).Error(); got != "nerdgraph timeout" {
		t.Errorf("Error() = %q", got)
	}
	if got := Kind(42).String(); got != "kind(42)" {
		t.Errorf("Kind(42) = %q", got)
	}
	if got := KindUnavailable.String(); got != "unavailable" {
		t.Errorf("KindUnavailable = %q", got)
	}
}

// TestOnlyAtMut pins when a partial answer's errors are only missing enrichments
// (errors.go OnlyAt: `Status >= 300` → `>`, the auth/forbidden rule, the prefix rule).
func TestOnlyAtMut(t *testing.T) {
	at := func(kind Kind, status int, paths ...string) error {
		e := &Error{Kind: kind, Status: status}
		for _, p := range paths {
			var path []any
			for _, s := range strings.Split(p, ".") {
				path = append(path, s)
			}
			e.Errors = append(e.Errors, GraphQLError{Message: "x", Path: path})
		}
		return e
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"at the path", at(KindServer, 200, "actor.account.inventory"), true},
		{"below the path", at(KindServer, 200, "actor.account.inventory.items"), true},
		{"sibling prefix", at(KindServer, 200, "actor.account.inventoryX"), false},
		{"one elsewhere", at(KindServer, 200, "actor.account.inventory", "actor.entity"), false},
		{"status 300", at(KindServer, 300, "actor.account.inventory"), false},
		{"status 299", at(KindServer, 299, "actor.account.inventory"), true},
		{"auth", at(KindAuth, 200, "actor.account.inventory"), false},
		{"forbidden", at(KindForbidden, 200, "actor.account.inventory"), false},
		{"no errors", &Error{Kind: KindServer, Status: 200}, false},
		{"not a NerdGraph error", errors.New("x"), false},
	}
	for _, tt := range tests {
		if got := OnlyAt(tt.err, "actor.account.inventory", "actor.other"); got != tt.want {
			t.Errorf("%s: OnlyAt = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestIsQueryMut: only documents starting with "query" are collapsed and retried as
// queries; a mutation never is (client.go isQuery).
func TestIsQueryMut(t *testing.T) {
	for doc, want := range map[string]bool{
		"query X { a }":         true,
		"\n  query X { a }":     true,
		"mutation X { a }":      false,
		"fragment F on T { a }": false,
	} {
		if got := isQuery(doc); got != want {
			t.Errorf("isQuery(%q) = %v, want %v", doc, got, want)
		}
	}
}

// TestTenantBoundsMut: at most maxTenantBreakers tenants hold a breaker or a retry
// budget; beyond the bound a tenant is not tracked and its calls and retries go out as
// without one (breaker.go tenant: `len(s.tenants) < max` → `<=`; retrybudget.go spend:
// `len(r.tenants) >= max` → `>`).
func TestTenantBoundsMut(t *testing.T) {
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

// TestBreakersConnectionFailureMut: a connection failure counts against the global
// breaker, which then refuses every tenant and frees a refused tenant's probe
// (breaker.go allow: `tb.release()` when the global breaker refuses; record).
func TestBreakersConnectionFailureMut(t *testing.T) {
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

// TestRetryBudgetRefillEdgeMut: a bucket earned back to exactly retryBurst is dropped
// (retrybudget.go:29 `t >= retryBurst` → `>` would hold a full bucket for ever), and the
// nil breakers release and record nothing (breaker.go:118 `s == nil` → `!=` would
// dereference nil).
func TestRetryBudgetRefillEdgeMut(t *testing.T) {
	id := tenantID("k")
	r := retryBudgets{tenants: map[[32]byte]float64{id: retryBurst - retryEarn}}
	r.earn(id)
	if _, held := r.tenants[id]; held {
		t.Fatalf("a bucket back at exactly %v is still held", retryBurst)
	}
	var nilS *breakers
	nilS.release(id)
	nilS.record(id, &Error{Kind: KindServer})
}
