package graphql

// Tests of the NerdGraph client's options, HTTP answers and body reading, written
// against mutants of `make mutate PKG=./graphql FILES='^client\.go$'` (gremlins
// v0.6.0). Each test names the mutant (file:line, operator) it kills.
//
// Waived equivalent mutants (tests/MUTATION.md, graphql section):
//   - client.go:181 CONDITIONALS_BOUNDARY (`opts.BreakerThreshold > 0` → `>= 0`): NewClient
//     has already turned 0 into the default 10 a few lines above, so the threshold is
//     never 0 there and both conditions agree on every value it can have.
//   - client.go:488 CONDITIONALS_BOUNDARY (`s >= 0` → `s > 0` in retryAfter): "0" then
//     falls through to http.ParseTime, which fails on "0", and retryAfter answers 0: the
//     same as the 0 s the original returns.
//   - client.go:492 CONDITIONALS_BOUNDARY (`d > 0` → `d >= 0` in retryAfter): when the
//     Retry-After date is exactly now, the mutant returns d, which is 0, and the original
//     falls through to `return 0`.
//   - errors.go:155 CONDITIONALS_BOUNDARY (`rank(k) > rank(kind)` → `>=` in classify):
//     equal ranks mean the same kind (classifyOne only returns kinds of distinct ranks),
//     so replacing the kind with an equally ranked one changes nothing.
//
// The three survivors earlier runs left (the dial timeout, the retry's deadline rule, which
// request buffers go back to the pool) are decided in small functions now (newDialer,
// deadlineFirst, pooled) and pinned by TestRetryDecisionsMut.

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
)

// received returns what a test server's handler sent on ch, or the zero value when the
// request never reached it. The handler sends before it answers, so once the call has
// returned the value is there: never a blocking receive, so a mutant that stops a
// request from being sent fails the test instead of hanging it.
func received[T any](ch chan T) T {
	select {
	case v := <-ch:
		return v
	default:
		var zero T
		return zero
	}
}

// send hands v to the test without ever blocking a handler (a mutant that sends a request
// more often than the channel holds must not hang the server's Close).
func send[T any](ch chan T, v T) {
	select {
	case ch <- v:
	default:
	}
}

// TestNewClientDefaultsMut pins the documented defaults of Options and that a given
// value is kept (client.go:146–167 NewClient: every `<= 0` → `< 0` or `> 0`, `== ""` →
// `!=`, `BreakerThreshold == 0` → `!= 0`, `30 * time.Second` → `/`, `200 *
// time.Millisecond` → `/`, `10 * time.Second` → `/`; client.go:181 `BreakerThreshold >
// 0` → `<= 0`).
func TestNewClientDefaultsMut(t *testing.T) {
	def := NewClient("http://x", Options{})
	o := def.opts
	if o.Timeout != 30*time.Second || o.UserAgent != "v2bridge" || o.MaxAttempts != 3 ||
		o.Backoff != 200*time.Millisecond || o.BreakerThreshold != 10 || o.BreakerCooldown != 10*time.Second ||
		o.MaxConcurrentPerKey != 25 || o.MaxResponseBytes != 64<<20 || o.HTTPClient == nil {
		t.Errorf("defaults = %+v", o)
	}
	if def.breaker == nil || def.breaker.threshold != 10 || def.breaker.cooldown != 10*time.Second {
		t.Errorf("default breaker = %+v, want threshold 10, cooldown 10s", def.breaker)
	}
	// Negative values take the defaults too (`<= 0` → `== 0` would keep them).
	neg := NewClient("http://x", Options{Timeout: -1, MaxAttempts: -1, Backoff: -1, BreakerCooldown: -1,
		MaxConcurrentPerKey: -1, MaxResponseBytes: -1}).opts
	if neg.Timeout != 30*time.Second || neg.MaxAttempts != 3 || neg.Backoff != 200*time.Millisecond ||
		neg.BreakerCooldown != 10*time.Second || neg.MaxConcurrentPerKey != 25 || neg.MaxResponseBytes != 64<<20 {
		t.Errorf("negative options gave %+v, want the defaults", neg)
	}

	hc := &http.Client{}
	set := NewClient("http://x", Options{Timeout: 7 * time.Second, UserAgent: "ua/1", MaxAttempts: 1,
		Backoff: 7 * time.Millisecond, BreakerThreshold: 4, BreakerCooldown: 3 * time.Second,
		MaxConcurrentPerKey: 2, MaxResponseBytes: 99, HTTPClient: hc})
	o = set.opts
	if o.Timeout != 7*time.Second || o.UserAgent != "ua/1" || o.MaxAttempts != 1 || o.Backoff != 7*time.Millisecond ||
		o.BreakerCooldown != 3*time.Second || o.MaxConcurrentPerKey != 2 || o.MaxResponseBytes != 99 || o.HTTPClient != hc {
		t.Errorf("given options not kept: %+v", o)
	}
	if set.breaker == nil || set.breaker.threshold != 4 || set.breaker.cooldown != 3*time.Second {
		t.Errorf("breaker = %+v, want threshold 4, cooldown 3s", set.breaker)
	}
	if off := NewClient("http://x", Options{BreakerThreshold: -1}); off.breaker != nil {
		t.Error("a negative BreakerThreshold left a breaker on")
	}
}

// TestNewTransportMut pins the transport's idle and TLS handshake timeouts and pool
// sizes (client.go:196 `90 * time.Second` → `/`, client.go:197 `5 * time.Second` → `/`:
// either would leave the timeout at 0, i.e. none).
func TestNewTransportMut(t *testing.T) {
	tr := NewTransport()
	if tr.IdleConnTimeout != 90*time.Second || tr.TLSHandshakeTimeout != 5*time.Second ||
		tr.ExpectContinueTimeout != time.Second || tr.MaxIdleConns != 256 || tr.MaxIdleConnsPerHost != 128 ||
		!tr.ForceAttemptHTTP2 || tr.DialContext == nil || tr.Proxy == nil {
		t.Errorf("transport = idle %v, TLS %v, continue %v, idle conns %d/%d, h2 %v",
			tr.IdleConnTimeout, tr.TLSHandshakeTimeout, tr.ExpectContinueTimeout, tr.MaxIdleConns, tr.MaxIdleConnsPerHost, tr.ForceAttemptHTTP2)
	}
}

// TestUserAgentMut: every call carries the User-Agent, "v2bridge" unless one is given
// (client.go:149 `opts.UserAgent == ""` → `!=`: the default would send none and a given
// one would be replaced).
func TestUserAgentMut(t *testing.T) {
	for _, tt := range []struct{ give, want string }{{"", "v2bridge"}, {"acme-gw/2", "acme-gw/2"}} {
		sent := make(chan string, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			send(sent, r.Header.Get("User-Agent"))
			_, _ = w.Write([]byte(`{"data":{}}`))
		}))
		c := NewClient(srv.URL, Options{UserAgent: tt.give})
		err := c.MakeRequest(context.Background(), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
		srv.Close()
		if got := received(sent); err != nil || got != tt.want {
			t.Errorf("UserAgent %q: sent %q (%v), want %q", tt.give, got, err, tt.want)
		}
	}
}

// TestNon200KeepsGraphQLErrorsMut: a non-200 answer whose body is a GraphQL answer keeps
// its errors (messages and paths reach the log); one whose body is not JSON has none
// (client.go:323 `decodeErr == nil` → `!=`).
func TestNon200KeepsGraphQLErrorsMut(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   []string
	}{
		{"401 with errors", 401, `{"errors":[{"message":"Invalid API key","extensions":{"errorClass":"BAD_API_KEY"}}]}`, []string{"Invalid API key"}},
		{"503 with two errors", 503, `{"errors":[{"message":"a"},{"message":"b","path":["actor"]}]}`, []string{"a", "b"}},
		{"502 html", 502, `<html>bad gateway</html>`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			c := NewClient(srv.URL, Options{MaxAttempts: 1})
			err := c.MakeRequest(context.Background(), &gql.Request{Query: "mutation M { x }"}, &gql.Response{Data: &struct{}{}})
			var ge *Error
			if !errors.As(err, &ge) || ge.Status != tt.status || ge.Kind != statusKind(tt.status) {
				t.Fatalf("err = %v, want an Error of HTTP %d", err, tt.status)
			}
			var got []string
			for _, e := range ge.Errors {
				got = append(got, e.Message)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("GraphQL errors = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestResponseSizeLimitMut: an answer of exactly MaxResponseBytes is read, one byte more
// is refused as too large (client.go:423 `int64(len(b)) > MaxResponseBytes` → `>=`).
func TestResponseSizeLimitMut(t *testing.T) {
	const limit = 64
	body := `{"data":{"x":"1"}}`
	for _, tt := range []struct {
		size    int
		wantErr bool
	}{{limit, false}, {limit + 1, true}} {
		padded := body + strings.Repeat(" ", tt.size-len(body))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(padded))
		}))
		c := NewClient(srv.URL, Options{MaxResponseBytes: limit, MaxAttempts: 1})
		var data struct {
			X string `json:"x"`
		}
		err := c.MakeRequest(context.Background(), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &data})
		srv.Close()
		var ge *Error
		switch {
		case !tt.wantErr && (err != nil || data.X != "1"):
			t.Errorf("%d-byte answer with limit %d: %v, data %q", tt.size, limit, err, data.X)
		case tt.wantErr && (!errors.As(err, &ge) || ge.Kind != KindTransport || !strings.Contains(err.Error(), "too large")):
			t.Errorf("%d-byte answer with limit %d: %v, want a transport error: too large", tt.size, limit, err)
		}
	}
}

// TestReadBodyCapacityMut pins how readBody sizes its buffer: a declared length within
// the limit gets exactly length+1 bytes (read in one buffer, never grown); an
// undeclared one starts at 8 KiB (client.go:434 `size >= 0` → `> 0` or `< 0`, `size <=
// limit` → `<` or `>`; client.go:435 `size + 1` → `size - 1`; client.go:437 `limit+1`
// → `limit-1`).
func TestReadBodyCapacityMut(t *testing.T) {
	tests := []struct {
		name            string
		body            string
		declared, limit int64
		wantCap         int
	}{
		{"declared 0, empty", "", 0, 1 << 20, 1},
		{"declared within the limit", strings.Repeat("x", 10000), 10000, 1 << 20, 10001},
		{"declared exactly the limit", strings.Repeat("x", 10000), 10000, 10000, 10001},
		{"undeclared, small", strings.Repeat("x", 100), -1, 1 << 20, 8 << 10},
		{"undeclared, small limit", strings.Repeat("x", 10), -1, 50, 51},
	}
	for _, tt := range tests {
		b, err := readBody(strings.NewReader(tt.body), tt.declared, tt.limit)
		if err != nil || string(b) != tt.body {
			t.Errorf("%s: read %d bytes, %v", tt.name, len(b), err)
		}
		if cap(b) != tt.wantCap {
			t.Errorf("%s: buffer capacity %d, want %d", tt.name, cap(b), tt.wantCap)
		}
	}
}

// TestPingMut pins the readiness probe: any answer below 500 is ready (a refused key
// included), 500 and above and no answer at all are not (client.go:503 and :509 `err !=
// nil` → `==`, client.go:514 `>= 500` → `>` or `<`).
func TestPingMut(t *testing.T) {
	for _, tt := range []struct {
		status  int
		wantErr bool
	}{{200, false}, {401, false}, {499, false}, {500, true}, {503, true}} {
		sent := make(chan [3]string, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			send(sent, [3]string{r.Method, r.Header.Get("User-Agent"), r.Header.Get("Content-Type")})
			w.WriteHeader(tt.status)
		}))
		err := NewClient(srv.URL, Options{UserAgent: "probe/1"}).Ping(context.Background())
		srv.Close()
		if (err != nil) != tt.wantErr {
			t.Errorf("Ping on HTTP %d: %v, want error %v", tt.status, err, tt.wantErr)
		}
		if got := received(sent); got != [3]string{http.MethodPost, "probe/1", "application/json"} {
			t.Errorf("Ping sent method, User-Agent, Content-Type %q", got)
		}
	}
	// Every request aborted (no answer); the port kept, so no other server takes it.
	gone := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
	defer gone.Close()
	if err := NewClient(gone.URL, Options{}).Ping(context.Background()); err == nil {
		t.Error("Ping of a server that never answers succeeded")
	}
	if err := NewClient("http://x\x7f", Options{}).Ping(context.Background()); err == nil {
		t.Error("Ping of an invalid URL succeeded")
	}
}

// TestBreakerCountsHTTP500Mut: an HTTP 500 answer counts towards the tenant's breaker
// like any 5xx, and a 4xx does not (client.go:359 `ans.status >= 500` → `> 500` or `<
// 500`). gremlins reports client.go:359 and :361 as NOT COVERED (its coverage map has
// no block for case expressions), so this test was checked by hand on both mutants.
func TestBreakerCountsHTTP500Mut(t *testing.T) {
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

// TestKindStringBoundMut: a Kind past the named ones prints its number instead of
// indexing past the names (errors.go:30 `int(k) < len(kindNames)` → `<=` panics on
// Kind(9)).
func TestKindStringBoundMut(t *testing.T) {
	for k, want := range map[Kind]string{KindServer: "server", KindUnavailable: "unavailable", Kind(9): "kind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

// TestKeySlotsMut: a key's semaphore stays while any call of the key holds or waits for a
// slot, so every call of the key shares the one bound, and is dropped when the last
// leaves (client.go:128 `s.users == 0` → `!=`: the first call to finish would drop the
// semaphore under the others, and the next call would get a fresh, empty one).
func TestKeySlotsMut(t *testing.T) {
	var k keySlots
	ctx := context.Background()
	relA, err := k.acquire(ctx, "NRAK-A", 2)
	if err != nil {
		t.Fatal(err)
	}
	relB, err := k.acquire(ctx, "NRAK-A", 2)
	if err != nil {
		t.Fatal(err)
	}
	relA()
	if k.sems.len() != 1 {
		t.Fatalf("%d semaphores while a call of the key still holds a slot, want 1", k.sems.len())
	}
	relC, err := k.acquire(ctx, "NRAK-A", 2)
	if err != nil {
		t.Fatal(err)
	}
	// Both slots are held (B and C): a further call must wait, here until its context ends.
	done, cancel := context.WithCancel(ctx)
	cancel()
	var ge *Error
	if _, err := k.acquire(done, "NRAK-A", 2); !errors.As(err, &ge) || ge.Kind != KindRateLimited {
		t.Fatalf("third call of a key with 2 slots held: %v, want to wait (rate limited when its context ends)", err)
	}
	relB()
	relC()
	if k.sems.len() != 0 {
		t.Fatalf("%d semaphores after every call left, want 0", k.sems.len())
	}
}

// TestRetryDecisionsMut pins three decisions no end-to-end test can see on loopback:
//   - client.go newDialer `5 * time.Second` → `/` (no connect timeout: a hung connect
//     waits for the system's minutes) and the 30 s keep-alive probe;
//   - deadlineFirst `<=` → `<` (a retry whose wait ends exactly at the caller's deadline
//     cannot be answered: answer the error now) and negation;
//   - pooled `<=` → `<` or `>` (a buffer of exactly 1 MiB is reused, a larger one is left
//     to the garbage collector), and keepBody's 4 MiB bound for answer buffers.
func TestRetryDecisionsMut(t *testing.T) {
	if d := newDialer(); d.Timeout != 5*time.Second || d.KeepAlive != 30*time.Second {
		t.Errorf("dialer timeout %v keep-alive %v, want 5s and 30s", d.Timeout, d.KeepAlive)
	}
	now := time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		left, wait time.Duration
		want       bool
	}{
		{time.Second, 500 * time.Millisecond, false},
		{time.Second, time.Second, true},
		{time.Second, time.Second - time.Nanosecond, false},
		{time.Second, time.Second + time.Nanosecond, true},
		{0, 0, true},
		{-time.Second, 0, true},
	} {
		if got := deadlineFirst(now.Add(tc.left), now, tc.wait); got != tc.want {
			t.Errorf("deadlineFirst(left %v, wait %v) = %v, want %v", tc.left, tc.wait, got, tc.want)
		}
	}
	for _, tc := range []struct {
		cap  int
		want bool
	}{{0, true}, {4096, true}, {1 << 20, true}, {1<<20 + 1, false}, {8 << 20, false}} {
		if got := pooled(bytes.NewBuffer(make([]byte, 0, tc.cap))); got != tc.want {
			t.Errorf("pooled(cap %d) = %v, want %v", tc.cap, got, tc.want)
		}
	}
	// Answer buffers: up to 4 MiB go back to the pool (keepBody `<=` → `<`, `>`; it was
	// client.go:466 `cap(ans.body) > maxPooledBody` → `>=`, which no test could see).
	for _, tc := range []struct {
		b    []byte
		want bool
	}{{nil, false}, {[]byte{}, true}, {make([]byte, 0, 4<<20), true}, {make([]byte, 0, 4<<20+1), false}} {
		if got := keepBody(tc.b); got != tc.want {
			t.Errorf("keepBody(cap %d, nil %v) = %v, want %v", cap(tc.b), tc.b == nil, got, tc.want)
		}
	}
}
