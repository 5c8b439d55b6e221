package graphql

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
)

// A key's semaphore stays while any call of the key holds or waits for a slot, so every
// call of the key shares the one bound, and is dropped when the last leaves; a call
// that finds every slot held past its wait is overloaded (the gateway's 503), not
// rate limited.
func TestKeySlotsShareOneBoundPerKey(t *testing.T) {
	var k keySlots
	ctx := context.Background()
	take := func(background bool, until time.Time) (func(), error) {
		return k.acquire(ctx, tenantID("NRAK-A"), 2, 1, background, until)
	}
	relA, err := take(false, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	relB, err := take(false, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	relA()
	if k.sems.len() != 1 {
		t.Fatalf("%d semaphores while a call of the key still holds a slot, want 1", k.sems.len())
	}
	relC, err := take(false, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var ge *Error
	if _, err := take(false, time.Now()); !errors.As(err, &ge) || ge.Kind != KindOverloaded || ge.RetryAfter <= 0 {
		t.Fatalf("third call of a key with 2 slots held, past its wait: %v, want overloaded with Retry-After", err)
	}
	relB()
	relC()
	if k.sems.len() != 0 {
		t.Fatalf("%d semaphores after every call left, want 0", k.sems.len())
	}
}

// Background work holds at most its share of a key's slots: with 4 slots and a share
// of 2, a third background call waits while the key's own calls still find the two
// other slots free.
func TestBackgroundHoldsAtMostItsShare(t *testing.T) {
	var k keySlots
	ctx := context.Background()
	expired := time.Now()
	take := func(background bool) (func(), error) {
		return k.acquire(ctx, tenantID("NRAK-A"), 4, 2, background, expired)
	}
	var held []func()
	for range 2 {
		rel, err := take(true)
		if err != nil {
			t.Fatalf("background within its share: %v", err)
		}
		held = append(held, rel)
	}
	if _, err := take(true); err == nil {
		t.Fatal("a third background call took a slot: background holds more than its share")
	}
	for range 2 {
		rel, err := take(false)
		if err != nil {
			t.Fatalf("the key's own call with background at its share: %v", err)
		}
		held = append(held, rel)
	}
	if _, err := take(false); err == nil {
		t.Fatal("a fifth call took one of 4 slots")
	}
	for _, rel := range held {
		rel()
	}
	if k.sems.len() != 0 {
		t.Fatalf("%d semaphores after every call left, want 0", k.sems.len())
	}
}

// A call that waited its SlotWait for a key's only slot is answered overloaded without
// NerdGraph being asked, and the breaker (threshold 1) does not hear of it: the next
// call, once the slot is free, goes out.
func TestSlotWaitOverloadedNotCountedByBreaker(t *testing.T) {
	srv, arrived, hold, requests := holdingFirst(t)
	c := NewClient(srv.URL, Options{MaxConcurrentPerKey: 1, SlotWait: time.Nanosecond, BreakerThreshold: 1, MaxAttempts: 1})
	ctx := WithAPIKey(context.Background(), "NRAK-A")
	call := func(q string) error {
		return c.MakeRequest(ctx, &gql.Request{Query: q}, &gql.Response{Data: &struct{}{}})
	}
	first := make(chan error, 1)
	go func() { first <- call("mutation A { x }") }()
	<-arrived
	for _, q := range []string{"mutation B { x }", "mutation C { x }"} {
		var ge *Error
		if err := call(q); !errors.As(err, &ge) || ge.Kind != KindOverloaded {
			t.Fatalf("%s with the key's only slot held: %v, want overloaded", q, err)
		}
	}
	close(hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := call("mutation D { x }"); err != nil {
		t.Fatalf("after two overloaded calls: %v, want it sent (the breaker counts NerdGraph's answers only)", err)
	}
	if n := requests.Load(); n != 2 {
		t.Fatalf("NerdGraph asked %d times, want 2 (A and D)", n)
	}
}

// A background call made on a request's path (a cold index read) that finds the
// key's background share held past the request's deadline is overloaded without
// NerdGraph being asked: it neither waits on past the deadline nor goes out then to
// time out as if NerdGraph had been slow.
func TestBackgroundSlotWaitEndsAtRequestDeadline(t *testing.T) {
	srv, arrived, hold, requests := holdingFirst(t)
	defer func() {
		select {
		case <-hold:
		default:
			close(hold)
		}
	}()
	c := NewClient(srv.URL, Options{MaxConcurrentPerKey: 4, BackgroundSlots: 1, MaxAttempts: 1})
	bg := WithBackground(WithAPIKey(context.Background(), "NRAK-A"))
	call := func(ctx context.Context, q string) error {
		return c.MakeRequest(ctx, &gql.Request{Query: q}, &gql.Response{Data: &struct{}{}})
	}
	first := make(chan error, 1)
	go func() { first <- call(bg, "query A { x }") }()
	<-arrived
	calls := &Calls{}
	calls.SetDeadline(time.Now())
	second := make(chan error, 1)
	go func() { second <- call(WithCalls(bg, calls), "query B { x }") }()
	var err error
	select {
	case err = <-second:
	case <-time.After(10 * time.Second):
		t.Fatal("a background call on a request's path still waits for its slot past the request's deadline")
	}
	var ge *Error
	if !errors.As(err, &ge) || ge.Kind != KindOverloaded || ge.RetryAfter <= 0 {
		t.Fatalf("background call past its request's deadline with the share held: %v, want overloaded with Retry-After", err)
	}
	close(hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if n := requests.Load(); n != 1 {
		t.Fatalf("NerdGraph asked %d times, want 1 (the call holding the share)", n)
	}
}

// holdingFirst is NerdGraph holding its first request until hold closes (arrived hears
// of it), answering every other at once; requests counts them all. Closed when t ends.
func holdingFirst(t *testing.T) (srv *httptest.Server, arrived, hold chan struct{}, requests *atomic.Int32) {
	t.Helper()
	arrived, hold, requests = make(chan struct{}, 1), make(chan struct{}), new(atomic.Int32)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 {
			arrived <- struct{}{}
			<-hold
		}
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	t.Cleanup(srv.Close)
	return srv, arrived, hold, requests
}
