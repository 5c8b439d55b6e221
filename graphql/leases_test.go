package graphql

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
)

// fakeLeases records each AcquireLease and answers as told: down (an error at once),
// wait (until the context ends), or a lease whose release is counted.
type fakeLeases struct {
	down, wait bool
	keyHash    string
	n          int
	ttl        time.Duration
	acquired   atomic.Int64
	released   atomic.Int64
}

func (f *fakeLeases) AcquireLease(ctx context.Context, keyHash string, n int, ttl time.Duration) (func(), error) {
	f.keyHash, f.n, f.ttl = keyHash, n, ttl
	switch {
	case f.down:
		return nil, errors.New("lease store: connection refused")
	case f.wait:
		<-ctx.Done()
		return nil, ctx.Err()
	}
	f.acquired.Add(1)
	return func() { f.released.Add(1) }, nil
}

// TestFleetLeases: a call takes one of MaxConcurrentPerKey leases of its key's hash for
// the call's timeout plus 5 s and gives it back; a lease store that is down lets the
// call go ahead; a call whose time ends waiting for a lease fails as rate limited
// without reaching NerdGraph; without Leases nothing is asked.
func TestFleetLeases(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"data":{"x":"1"}}`))
	}))
	defer srv.Close()
	ctx := WithAPIKey(context.Background(), "NRAK-FLEET")
	sum := sha256.Sum256([]byte("NRAK-FLEET"))
	call := func(l *fakeLeases, timeout time.Duration) error {
		c := NewClient(srv.URL, Options{Leases: l, MaxConcurrentPerKey: 4, Timeout: timeout, SlotWait: timeout, MaxAttempts: 1})
		var data struct {
			X string `json:"x"`
		}
		err := c.MakeRequest(ctx, &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &data})
		if err == nil && data.X != "1" {
			t.Errorf("data = %q", data.X)
		}
		return err
	}

	ok := &fakeLeases{}
	if err := call(ok, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if ok.keyHash != hex.EncodeToString(sum[:]) || ok.n != 4 || ok.ttl != 7*time.Second {
		t.Errorf("lease asked for key %s, n %d, ttl %v; want the key's SHA-256, 4, 7s", ok.keyHash, ok.n, ok.ttl)
	}
	if ok.acquired.Load() != 1 || ok.released.Load() != 1 || hits.Load() != 1 {
		t.Errorf("%d leases taken, %d given back, %d calls; want 1, 1, 1", ok.acquired.Load(), ok.released.Load(), hits.Load())
	}

	if err := call(&fakeLeases{down: true}, 2*time.Second); err != nil || hits.Load() != 2 {
		t.Errorf("lease store down: %v after %d calls; want the call to go ahead", err, hits.Load())
	}

	err := call(&fakeLeases{wait: true}, 20*time.Millisecond)
	var ge *Error
	if !errors.As(err, &ge) || ge.Kind != KindOverloaded || ge.Status != 0 || hits.Load() != 2 {
		t.Errorf("no lease within the slot wait: %v after %d calls; want overloaded, NerdGraph not called", err, hits.Load())
	}

	// Without Leases only this replica's bound applies (and nothing is asked).
	c := NewClient(srv.URL, Options{})
	if err := c.MakeRequest(ctx, &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}}); err != nil || hits.Load() != 3 {
		t.Errorf("without leases: %v after %d calls", err, hits.Load())
	}
}

// poolLeases is a lease store of several replicas: each key hash's leases held, with
// a caller finding all n held waiting until its context ends.
type poolLeases struct {
	mu   sync.Mutex
	held map[string]int
}

func (p *poolLeases) AcquireLease(ctx context.Context, keyHash string, n int, ttl time.Duration) (func(), error) {
	p.mu.Lock()
	if p.held[keyHash] >= n {
		p.mu.Unlock()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	p.held[keyHash]++
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.held[keyHash]--
		p.mu.Unlock()
	}, nil
}

// Background work holds at most its share of the fleet's leases of a key, not its
// share on every replica: with the share held through another replica, this
// replica's background call is overloaded without NerdGraph being asked, while the
// key's own call still goes out; every lease taken is given back.
func TestFleetBackgroundHoldsAtMostItsShare(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	defer srv.Close()
	sum := sha256.Sum256([]byte("NRAK-FLEET"))
	keyHash := hex.EncodeToString(sum[:])
	// Another replica's background work holds the whole share of 2 (and 2 of the 4).
	pool := &poolLeases{held: map[string]int{keyHash + backgroundLeases: 2, keyHash: 2}}
	c := NewClient(srv.URL, Options{Leases: pool, MaxConcurrentPerKey: 4, BackgroundSlots: 2, MaxAttempts: 1})
	ctx := WithAPIKey(context.Background(), "NRAK-FLEET")
	call := func(ctx context.Context, q string) error {
		return c.MakeRequest(ctx, &gql.Request{Query: q}, &gql.Response{Data: &struct{}{}})
	}
	// The background call is a cold read's on a request's path whose deadline has come.
	due := &Calls{}
	due.SetDeadline(time.Now())
	var ge *Error
	if err := call(WithCalls(WithBackground(ctx), due), "query A { x }"); !errors.As(err, &ge) || ge.Kind != KindOverloaded || hits.Load() != 0 {
		t.Fatalf("background call with the fleet's share held: %v after %d calls; want overloaded, NerdGraph not called", err, hits.Load())
	}
	if err := call(ctx, "query B { x }"); err != nil || hits.Load() != 1 {
		t.Fatalf("the key's own call with the share held: %v after %d calls; want it sent", err, hits.Load())
	}
	pool.held[keyHash+backgroundLeases] = 1
	if err := call(WithBackground(ctx), "query C { x }"); err != nil || hits.Load() != 2 {
		t.Fatalf("background call with a share lease free: %v after %d calls; want it sent", err, hits.Load())
	}
	if pool.held[keyHash+backgroundLeases] != 1 || pool.held[keyHash] != 2 {
		t.Fatalf("leases held after the calls: %v; want the other replica's only", pool.held)
	}
}
