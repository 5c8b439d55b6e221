package graphql

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// spanNamed returns the one ended span called name, failing the test otherwise.
func spanNamed(t *testing.T, rec *tracetest.SpanRecorder, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d ended spans named %q, want 1", len(found), name)
	}
	return found[0]
}

func spanAttrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// TestTracingSpans: a traced operation's span counts its tries, retries and round
// trips, each round trip has its own HTTP span and sends the W3C traceparent, and a
// failure is recorded by kind.
func TestTracingSpans(t *testing.T) {
	var n atomic.Int64
	parents := make(chan string, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		send(parents, r.Header.Get("Traceparent"))
		if n.Add(1) == 1 || strings.Contains(r.URL.Path, "down") {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		_, _ = w.Write([]byte(`{"data":{"x":"1"}}`))
	}))
	defer srv.Close()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	ctx := context.Background()

	// A query that fails once with 502 and then succeeds.
	c := NewClient(srv.URL, Options{TracerProvider: tp, MaxAttempts: 2, Backoff: time.Millisecond})
	if err := c.MakeRequest(ctx, &gql.Request{Query: "query Q { x }", OpName: "Q"}, &gql.Response{Data: &struct{}{}}); err != nil {
		t.Fatal(err)
	}
	q := spanNamed(t, rec, "query Q")
	a := spanAttrs(q)
	if a[attrAttempts].AsInt64() != 2 || a[attrRetries].AsInt64() != 1 || a[attrRoundTrips].AsInt64() != 2 ||
		a[attrShared].AsBool() || a[attrOpType].AsString() != "query" || a[attrOpName].AsString() != "Q" {
		t.Errorf("query span attributes = %v", q.Attributes())
	}
	if _, ok := a[attrErrorKind]; ok || q.Status().Code != codes.Unset {
		t.Errorf("successful query span: status %v, attributes %v", q.Status(), q.Attributes())
	}
	var httpSpans int
	for _, s := range rec.Ended() {
		if s.Name() == "POST nerdgraph" {
			httpSpans++
			if s.Parent().SpanID() != q.SpanContext().SpanID() {
				t.Errorf("HTTP span's parent is not the operation span")
			}
		}
	}
	if httpSpans != 2 {
		t.Errorf("%d HTTP spans, want one per round trip (2)", httpSpans)
	}
	for range 2 {
		if p := received(parents); p == "" || !strings.Contains(p, q.SpanContext().TraceID().String()) {
			t.Errorf("traceparent %q does not carry the operation's trace", p)
		}
	}

	// A mutation answered 502: one try, recorded as a server failure.
	down := NewClient(srv.URL+"/down", Options{TracerProvider: tp})
	err := down.MakeRequest(ctx, &gql.Request{Query: "mutation M { x }", OpName: "M"}, &gql.Response{Data: &struct{}{}})
	received(parents)
	if err == nil {
		t.Fatal("502 mutation succeeded")
	}
	m := spanNamed(t, rec, "mutation M")
	a = spanAttrs(m)
	if a[attrAttempts].AsInt64() != 1 || a[attrRetries].AsInt64() != 0 || a[attrRoundTrips].AsInt64() != 1 ||
		a[attrErrorKind].AsString() != "server" || a[attrOpType].AsString() != "mutation" ||
		m.Status().Code != codes.Error || m.Status().Description != "nerdgraph server" {
		t.Errorf("mutation span: status %v, attributes %v", m.Status(), m.Attributes())
	}

	// A failure that is not a NerdGraph answer (the variables cannot be encoded).
	err = c.MakeRequest(ctx, &gql.Request{Query: "query E { x }", OpName: "E", Variables: make(chan int)}, &gql.Response{Data: &struct{}{}})
	var ge *Error
	if err == nil || errors.As(err, &ge) {
		t.Fatalf("unencodable variables: %v, want a plain error", err)
	}
	e := spanNamed(t, rec, "query E")
	a = spanAttrs(e)
	if a[attrErrorKind].AsString() != "other" || a[attrRoundTrips].AsInt64() != 0 || e.Status().Description != "nerdgraph other" {
		t.Errorf("encode failure span: status %v, attributes %v", e.Status(), e.Attributes())
	}
}

// waitingInFlight reports whether some goroutine waits in singleflight.Group.Do for
// another caller's round trip (the stack of a joined caller).
func waitingInFlight() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if i := strings.Index(g, "sync.(*WaitGroup).Wait"); i >= 0 && strings.Contains(g[i:], "singleflight.(*Group).Do") {
			return true
		}
	}
	return false
}

// TestTracingSharedFlight: a traced query that joins another identical query's round
// trip is marked shared_flight and counts no round trip of its own. The test waits, by
// looking at the goroutines' stacks, until the second query has joined the first's
// flight before NerdGraph answers, so it does not depend on timing.
func TestTracingSharedFlight(t *testing.T) {
	release := make(chan struct{})
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		<-release
		_, _ = w.Write([]byte(`{"data":{"x":"1"}}`))
	}))
	defer srv.Close()
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // before srv.Close: a handler still waiting is let go
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	c := NewClient(srv.URL, Options{TracerProvider: tp})
	ctx := WithAPIKey(context.Background(), "NRAK-SHARED")
	errs := make(chan error, 2)
	call := func() {
		errs <- c.MakeRequest(ctx, &gql.Request{Query: "query Q { x }", OpName: "Q"}, &gql.Response{Data: &struct{}{}})
	}
	go call()
	for deadline := time.Now().Add(20 * time.Second); hits.Load() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the first query never reached the server")
		}
		time.Sleep(time.Millisecond)
	}
	go call()
	for deadline := time.Now().Add(20 * time.Second); !waitingInFlight(); {
		if time.Now().After(deadline) {
			t.Fatal("the second query never joined the first's flight")
		}
		time.Sleep(time.Millisecond)
	}
	free()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if hits.Load() != 1 {
		t.Fatalf("%d round trips, want 1 shared", hits.Load())
	}
	var shared, roundTrips int64
	spans := rec.Ended()
	for _, s := range spans {
		if s.Name() == "query Q" {
			a := spanAttrs(s)
			if a[attrShared].AsBool() {
				shared++
			}
			roundTrips += a[attrRoundTrips].AsInt64()
		}
	}
	// singleflight tells both callers that the answer was shared.
	if shared != 2 || roundTrips != 1 {
		t.Errorf("%d of the two query spans marked shared_flight, %d round trips counted; want 2 and 1", shared, roundTrips)
	}
}
