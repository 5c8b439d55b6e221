package graphql

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
)

func TestResolveEndpoint(t *testing.T) {
	tests := []struct {
		give, want string
		wantErr    bool
	}{
		{give: "us", want: EndpointUS},
		{give: "", want: EndpointUS},
		{give: "eu", want: EndpointEU},
		{give: "http://127.0.0.1:4000/graphql", want: "http://127.0.0.1:4000/graphql"},
		{give: "ftp://x/graphql", wantErr: true},
		{give: "mars", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ResolveEndpoint(tt.give)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ResolveEndpoint(%q) = %q, %v", tt.give, got, err)
		}
	}
}

func TestMakeRequest(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		header     map[string]string
		body       string
		wantKind   Kind
		wantErr    bool
		wantData   string
		wantRetry  time.Duration
		wantOnlyAt string
	}{
		{name: "ok", status: 200, body: `{"data":{"x":"1"}}`, wantData: "1"},
		{name: "deprecation warning beside data is ignored", status: 200,
			body:     `{"data":{"x":"2"},"errors":[{"message":"This field is deprecated! Use y."}]}`,
			wantData: "2"},
		{name: "bad key on 401", status: 401, body: `{"errors":[{"message":"Invalid API key"}]}`, wantErr: true, wantKind: KindAuth},
		{name: "bad key on 200", status: 200, body: `{"errors":[{"message":"nope","extensions":{"error_code":"BAD_API_KEY"}}]}`, wantErr: true, wantKind: KindAuth},
		{name: "rate limited on 200", status: 200, body: `{"errors":[{"message":"slow down","extensions":{"errorClass":"TOO_MANY_REQUESTS"}}]}`, wantErr: true, wantKind: KindRateLimited},
		{name: "rate limited on 429", status: 429, header: map[string]string{"Retry-After": "2"}, body: `{}`, wantErr: true, wantKind: KindRateLimited, wantRetry: 2 * time.Second},
		{name: "timeout", status: 200, body: `{"errors":[{"message":"t","extensions":{"errorClass":"TIMEOUT"}}]}`, wantErr: true, wantKind: KindTimeout},
		{name: "server 502", status: 502, body: `bad gateway`, wantErr: true, wantKind: KindServer},
		{name: "malformed JSON", status: 200, body: `{"data":`, wantErr: true, wantKind: KindTransport},
		{name: "validation", status: 200, body: `{"errors":[{"message":"Cannot query field \"zz\" on type \"Actor\"."}]}`, wantErr: true, wantKind: KindInvalid},
		{name: "partial data", status: 200,
			body:    `{"data":{"x":"3"},"errors":[{"message":"boom","path":["actor","account","inventory"],"extensions":{"errorClass":"INTERNAL_SERVER_ERROR"}}]}`,
			wantErr: true, wantKind: KindServer, wantData: "3", wantOnlyAt: "actor.account"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotKey string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				gotKey = r.Header.Get("API-Key")
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			c := NewClient(srv.URL, Options{})
			var calls Calls
			ctx := WithCalls(WithAPIKey(context.Background(), "NRAK-TEST"), &calls)
			var data struct {
				X string `json:"x"`
			}
			err := c.MakeRequest(ctx, &gql.Request{Query: "{x}", OpName: "T"}, &gql.Response{Data: &data})
			if gotKey != "NRAK-TEST" {
				t.Errorf("API-Key header = %q", gotKey)
			}
			if calls.Count() != 1 {
				t.Errorf("calls = %d, want 1", calls.Count())
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				var ge *Error
				if !errors.As(err, &ge) || ge.Kind != tt.wantKind {
					t.Fatalf("err = %v, want kind %v", err, tt.wantKind)
				}
				if ge.RetryAfter != tt.wantRetry {
					t.Errorf("RetryAfter = %v, want %v", ge.RetryAfter, tt.wantRetry)
				}
				if got := OnlyAt(err, "actor.account"); got != (tt.wantOnlyAt != "") {
					t.Errorf("OnlyAt = %v", got)
				}
			}
			if data.X != tt.wantData {
				t.Errorf("data = %q, want %q", data.X, tt.wantData)
			}
		})
	}
}

// hangingServer is a NerdGraph that answers no call until the call goes away or the
// test ends.
func hangingServer(t *testing.T) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv
}

func TestMakeRequestTimeout(t *testing.T) {
	srv := hangingServer(t)
	c := NewClient(srv.URL, Options{Timeout: 50 * time.Millisecond})
	err := c.MakeRequest(context.Background(), &gql.Request{Query: "{x}"}, &gql.Response{Data: &struct{}{}})
	var ge *Error
	if !errors.As(err, &ge) || ge.Kind != KindTimeout {
		t.Fatalf("err = %v, want timeout", err)
	}
}

// The request deadline carried by Calls ends a call long before the client's own
// per-call timeout, retries included, and the call is still counted.
func TestCallsDeadline(t *testing.T) {
	release := make(chan struct{})
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests) // retried at once
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := NewClient(srv.URL, Options{Timeout: 10 * time.Second, MaxAttempts: 3, Backoff: time.Millisecond})
	var calls Calls
	calls.SetDeadline(time.Now().Add(100 * time.Millisecond))
	ctx := WithCalls(context.Background(), &calls)
	start := time.Now()
	err := c.MakeRequest(ctx, &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
	took := time.Since(start)
	var ge *Error
	if !errors.As(err, &ge) || ge.Kind != KindTimeout {
		t.Fatalf("err = %v, want timeout", err)
	}
	if took > 2*time.Second {
		t.Fatalf("took %v: the request deadline was not applied", took)
	}
	if hits.Load() != 2 || calls.Count() != 2 {
		t.Fatalf("%d upstream hits, %d counted; want 2 (the 429, then the hung retry)", hits.Load(), calls.Count())
	}
}

// Identical concurrent queries of one key share one round trip; other keys and
// mutations never share.
func TestSingleflight(t *testing.T) {
	var hits atomic.Int64
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		<-release
		_, _ = w.Write([]byte(`{"data":{"x":"` + r.Header.Get("API-Key") + `"}}`))
	}))
	defer srv.Close()
	c := NewClient(srv.URL, Options{})
	type call struct{ key, query string }
	calls := []call{
		{"NRAK-A", "query Q { x }"}, {"NRAK-A", "query Q { x }"}, {"NRAK-A", "query Q { x }"},
		{"NRAK-B", "query Q { x }"},
		{"NRAK-A", "mutation M { x }"}, {"NRAK-A", "mutation M { x }"},
	}
	var wg sync.WaitGroup
	got := make([]string, len(calls))
	for i, cl := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var data struct {
				X string `json:"x"`
			}
			ctx := WithAPIKey(context.Background(), cl.key)
			if err := c.MakeRequest(ctx, &gql.Request{Query: cl.query}, &gql.Response{Data: &data}); err != nil {
				t.Error(err)
			}
			got[i] = data.X
		}()
	}
	// Wait until the distinct requests are in flight: 1 (A query) + 1 (B) + 2 mutations.
	deadline := time.Now().Add(5 * time.Second)
	for hits.Load() < 4 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := hits.Load(); n != 4 {
		t.Fatalf("upstream requests = %d, want 4", n)
	}
	for i, cl := range calls {
		if got[i] != cl.key {
			t.Errorf("call %d got data of %q, want %q", i, got[i], cl.key)
		}
	}
}

// At most MaxConcurrentPerKey requests of one key are in flight; other keys are not
// held up by it.
func TestConcurrencyPerKey(t *testing.T) {
	var peak atomic.Int64
	var perKey sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := perKey.LoadOrStore(r.Header.Get("API-Key"), new(atomic.Int64))
		k := c.(*atomic.Int64).Add(1)
		defer c.(*atomic.Int64).Add(-1)
		if r.Header.Get("API-Key") == "NRAK-A" {
			for {
				p := peak.Load()
				if k <= p || peak.CompareAndSwap(p, k) {
					break
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	defer srv.Close()
	c := NewClient(srv.URL, Options{MaxConcurrentPerKey: 3})
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := WithAPIKey(context.Background(), "NRAK-A")
			// Distinct mutation documents: never collapsed.
			q := "mutation M" + string(rune('a'+i)) + " { x }"
			if err := c.MakeRequest(ctx, &gql.Request{Query: q}, &gql.Response{Data: &struct{}{}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 3 || p < 2 {
		t.Fatalf("peak concurrency of one key = %d, want at most 3", p)
	}
	if c.slots.sems.len() != 0 {
		t.Fatalf("%d semaphores left after the calls", c.slots.sems.len())
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		answers   []int // statuses served in order; 200 answers data
		deadline  time.Duration
		wantCalls int64
		wantErr   bool
		maxTime   time.Duration
	}{
		{name: "429 with Retry-After then success", query: "query Q { x }", answers: []int{429, 200}, wantCalls: 2, maxTime: 1500 * time.Millisecond},
		{name: "502 twice then success", query: "query Q { x }", answers: []int{502, 502, 200}, wantCalls: 3},
		{name: "three failures give up", query: "query Q { x }", answers: []int{503, 503, 503, 200}, wantCalls: 3, wantErr: true},
		{name: "mutation never retried after sending", query: "mutation M { x }", answers: []int{502, 200}, wantCalls: 1, wantErr: true},
		{name: "Retry-After past the deadline answers at once", query: "query Q { x }", answers: []int{429, 200}, deadline: 300 * time.Millisecond,
			wantCalls: 1, wantErr: true, maxTime: 250 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				i := int(n.Add(1)) - 1
				status := tt.answers[min(i, len(tt.answers)-1)]
				if status == 429 {
					w.Header().Set("Retry-After", "1")
				}
				w.WriteHeader(status)
				_, _ = w.Write([]byte(`{"data":{"x":"ok"}}`))
			}))
			defer srv.Close()
			c := NewClient(srv.URL, Options{Backoff: 10 * time.Millisecond})
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			var calls Calls
			ctx = WithCalls(ctx, &calls)
			start := time.Now()
			var data struct{ X string }
			err := c.MakeRequest(ctx, &gql.Request{Query: tt.query}, &gql.Response{Data: &data})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if calls.Count() != tt.wantCalls {
				t.Fatalf("calls = %d, want %d", calls.Count(), tt.wantCalls)
			}
			if tt.maxTime > 0 && time.Since(start) > tt.maxTime {
				t.Fatalf("took %v", time.Since(start))
			}
		})
	}
}

// A query answered with a NerdGraph failure only at fields its caller marked optional
// (WithOptional) is returned at once with the data that came; a failure anywhere else,
// or without the mark, is sent again as before.
func TestOptionalFieldFailureNotRetried(t *testing.T) {
	partial := func(class string, path ...string) string {
		p, _ := json.Marshal(path)
		return `{"data":{"actor":{"entitySearch":{"count":1},"account":null}},"errors":[{"message":"m","path":` + string(p) +
			`,"extensions":{"errorClass":"` + class + `"}}]}`
	}
	tests := []struct {
		name      string
		optional  []string
		body      string
		wantCalls int64
	}{
		{"timeout at the optional field", []string{"actor.account"}, partial("TIMEOUT", "actor", "account", "inventory"), 1},
		{"server error at the optional field", []string{"actor.account"}, partial("INTERNAL_SERVER_ERROR", "actor", "account"), 1},
		{"timeout elsewhere", []string{"actor.account"}, partial("TIMEOUT", "actor", "entitySearch"), 3},
		{"no field marked", nil, partial("TIMEOUT", "actor", "account", "inventory"), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			c := NewClient(srv.URL, Options{Backoff: time.Millisecond})
			var calls Calls
			ctx := WithCalls(context.Background(), &calls)
			if tt.optional != nil {
				ctx = WithOptional(ctx, tt.optional...)
			}
			var data struct {
				Actor struct {
					EntitySearch struct{ Count int } `json:"entitySearch"`
				} `json:"actor"`
			}
			err := c.MakeRequest(ctx, &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &data})
			if err == nil {
				t.Fatal("no error")
			}
			if calls.Count() != tt.wantCalls {
				t.Errorf("calls = %d, want %d", calls.Count(), tt.wantCalls)
			}
			if data.Actor.EntitySearch.Count != 1 {
				t.Errorf("the data that came was not kept: %+v", data)
			}
		})
	}
}

// A mutation is resent only when the connection was refused, before anything was sent.
func TestMutationRetriedOnlyWhenRefused(t *testing.T) {
	ln := httptest.NewServer(http.NotFoundHandler())
	addr := ln.URL
	ln.Close() // nothing listens: connection refused
	c := NewClient(addr, Options{Backoff: time.Millisecond})
	var calls Calls
	err := c.MakeRequest(WithCalls(context.Background(), &calls), &gql.Request{Query: "mutation M { x }"}, &gql.Response{Data: &struct{}{}})
	if err == nil || calls.Count() != 3 {
		t.Fatalf("err %v after %d calls; want 3 tries of a refused connection", err, calls.Count())
	}
}

// The circuit opens after the configured failures, answers fast while open without
// calling NerdGraph, and closes after a successful probe.
func TestCircuitBreaker(t *testing.T) {
	var failing atomic.Bool
	var hits atomic.Int64
	failing.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if failing.Load() {
			w.WriteHeader(502)
			return
		}
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	defer srv.Close()
	c := NewClient(srv.URL, Options{BreakerThreshold: 3, BreakerCooldown: 200 * time.Millisecond, MaxAttempts: 1})
	call := func() error {
		return c.MakeRequest(context.Background(), &gql.Request{Query: "mutation M { x }"}, &gql.Response{Data: &struct{}{}})
	}
	for i := 0; i < 3; i++ {
		_ = call()
	}
	if hits.Load() != 3 {
		t.Fatalf("hits = %d", hits.Load())
	}
	start := time.Now()
	err := call()
	var ge *Error
	if !errors.As(err, &ge) || ge.Kind != KindUnavailable || time.Since(start) > 50*time.Millisecond || hits.Load() != 3 {
		t.Fatalf("open circuit: %v after %v, hits %d", err, time.Since(start), hits.Load())
	}
	time.Sleep(250 * time.Millisecond)
	failing.Store(false)
	if err := call(); err != nil { // the probe
		t.Fatalf("probe: %v", err)
	}
	if err := call(); err != nil || hits.Load() != 5 {
		t.Fatalf("closed circuit: %v, hits %d", err, hits.Load())
	}
}

// Callers that hang up (or whose own deadline passes) while NerdGraph is slow do not
// open the circuit: only NerdGraph's own failures count.
func TestCircuitBreakerIgnoresCallersGoingAway(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case <-r.Context().Done():
		case <-time.After(200 * time.Millisecond):
		}
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	defer srv.Close()
	c := NewClient(srv.URL, Options{BreakerThreshold: 3, BreakerCooldown: time.Minute, MaxAttempts: 1})
	for i := 0; i < 5; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		err := c.MakeRequest(ctx, &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
		cancel()
		if err == nil {
			t.Fatal("a call past its caller's deadline succeeded")
		}
	}
	if err := c.MakeRequest(context.Background(), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}}); err != nil {
		t.Fatalf("after callers went away the circuit is open: %v", err)
	}
	// A call may give up before its request is written (a loaded machine): what
	// matters is that enough of them failed to open a breaker that counted them.
	if hits.Load() < 4 {
		t.Fatalf("only %d calls reached the server; the test needs the threshold (3) and the last", hits.Load())
	}
}

func TestReadBody(t *testing.T) {
	body := strings.Repeat("x", 10000)
	tests := []struct {
		name        string
		declared    int64
		limit       int64
		wantLen     int
		wantTooLong bool
	}{
		{"declared exactly", 10000, 1 << 20, 10000, false},
		{"undeclared (gzip)", -1, 1 << 20, 10000, false},
		{"declared too short", 10, 1 << 20, 10000, false},
		{"declared too long", 20000, 1 << 20, 10000, false},
		{"over the limit", 10000, 100, 101, true},
		{"undeclared over the limit", -1, 100, 101, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := readBody(strings.NewReader(body), tt.declared, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) != tt.wantLen || (int64(len(b)) > tt.limit) != tt.wantTooLong {
				t.Fatalf("read %d bytes, want %d", len(b), tt.wantLen)
			}
			if string(b) != body[:len(b)] {
				t.Fatal("bytes differ from the body")
			}
		})
	}
}

// received returns what a test server's handler sent on ch, or the zero value when the
// request never reached it. The handler sends before it answers, so once the call has
// returned the value is there: never a blocking receive, so a client that stops a
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

// send hands v to the test without ever blocking a handler (a client that sends a request
// more often than the channel holds must not hang the server's Close).
func send[T any](ch chan T, v T) {
	select {
	case ch <- v:
	default:
	}
}

// TestNewClientDefaults pins the documented defaults of Options and that a given value
// is kept.
func TestNewClientDefaults(t *testing.T) {
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
	// Negative values take the defaults too.
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

// TestUserAgent: every call carries the User-Agent, "v2bridge" unless one is given.
func TestUserAgent(t *testing.T) {
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

// TestNon200KeepsGraphQLErrors: a non-200 answer whose body is a GraphQL answer keeps
// its errors (messages and paths reach the log); one whose body is not JSON has none.
func TestNon200KeepsGraphQLErrors(t *testing.T) {
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

// TestPingReadyBelow500 pins the readiness probe: any answer below 500 is ready (a
// refused key included), 500 and above and no answer at all are not.
func TestPingReadyBelow500(t *testing.T) {
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
