package graphql

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
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
