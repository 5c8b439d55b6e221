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

// One tenant's failures open only that tenant's circuit: key 2's
// NerdGraph answers 500 (or is slow past the call timeout) until its breaker opens;
// key 1, whose NerdGraph is healthy, still reaches it.
func TestBreakerIsolatesTenants(t *testing.T) {
	tests := []struct {
		name string
		fail func(w http.ResponseWriter, r *http.Request)
	}{
		{"HTTP 500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) }},
		{"slow query", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(time.Second):
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var healthy, failing atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Api-Key") == "NRAK-TWO" {
					failing.Add(1)
					tt.fail(w, r)
					return
				}
				healthy.Add(1)
				_, _ = w.Write([]byte(`{"data":{}}`))
			}))
			defer srv.Close()
			c := NewClient(srv.URL, Options{BreakerThreshold: 10, BreakerCooldown: time.Minute, MaxAttempts: 1, Timeout: 50 * time.Millisecond})
			call := func(key string) error {
				return c.MakeRequest(WithAPIKey(context.Background(), key), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
			}
			var err error
			for i := 0; i < 12; i++ {
				if err = call("NRAK-TWO"); err == nil {
					t.Fatal("the failing tenant's call succeeded")
				}
			}
			// On a loaded machine a slow-query call may time out (50 ms) before its request
			// reaches the server; it still counts towards the breaker, so at most 10 arrive.
			var ge *Error
			if n := failing.Load(); n > 10 || n == 0 || !errors.As(err, &ge) || ge.Kind != KindUnavailable {
				t.Errorf("the failing tenant reached NerdGraph %d times, last call %v; want at most 10, then its circuit open", n, err)
			}
			for i := 0; i < 3; i++ {
				if err := call("NRAK-ONE"); err != nil {
					t.Fatalf("the healthy tenant failed after another tenant's outage: %v", err)
				}
			}
			if n := healthy.Load(); n != 3 {
				t.Fatalf("the healthy tenant reached NerdGraph %d times, want 3", n)
			}
		})
	}
}

// A NerdGraph that cannot be reached at all (connection refused) is everyone's
// outage: the global breaker opens for every tenant.
func TestBreakerGlobalOnConnectionFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: every dial is refused
	c := NewClient("http://"+addr+"/graphql", Options{BreakerThreshold: 3, BreakerCooldown: time.Minute, MaxAttempts: 1})
	for i := 0; i < 3; i++ {
		_ = c.MakeRequest(WithAPIKey(context.Background(), "NRAK-TWO"), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
	}
	err = c.MakeRequest(WithAPIKey(context.Background(), "NRAK-ONE"), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
	var ge *Error
	if !errors.As(err, &ge) || ge.Kind != KindUnavailable {
		t.Fatalf("another tenant's call after connection failures: %v, want the open circuit", err)
	}
	if n := c.breaker.tenantCount(); n != 0 {
		t.Fatalf("%d tenant breakers held for connection failures, want 0", n)
	}
}

// A failing tenant's retries are bounded by its retry budget (about one retry per five
// calls after the first ten); another tenant's retries are untouched.
func TestRetryBudgetPerTenant(t *testing.T) {
	var failing, healthy atomic.Int64
	var healthyFailed atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Api-Key") == "NRAK-TWO" {
			failing.Add(1)
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		healthy.Add(1)
		if healthyFailed.CompareAndSwap(false, true) {
			w.WriteHeader(http.StatusBadGateway) // one failure: retried
			return
		}
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	defer srv.Close()
	c := NewClient(srv.URL, Options{BreakerThreshold: -1, MaxAttempts: 3, Backoff: time.Millisecond})
	call := func(key string) error {
		return c.MakeRequest(WithAPIKey(context.Background(), key), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
	}
	const calls = 50
	for i := 0; i < calls; i++ {
		_ = call("NRAK-TWO")
	}
	// Without a budget: 3 attempts each (150). With it: 50 first attempts, 10 retries
	// from the full bucket, then about one per five calls.
	if n := failing.Load(); n > calls+10+calls/5+2 {
		t.Fatalf("the failing tenant made %d NerdGraph calls for %d queries (retries unbounded)", n, calls)
	}
	if err := call("NRAK-ONE"); err != nil || healthy.Load() != 2 {
		t.Fatalf("the healthy tenant's failure was not retried: %v after %d calls", err, healthy.Load())
	}
}

// NerdGraph failing for every tenant (three distinct keys failing with no success in
// between) opens the global circuit: a fourth tenant fails fast too.
func TestBreakerGlobalWhenEveryTenantFails(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	c := NewClient(srv.URL, Options{BreakerThreshold: 5, BreakerCooldown: time.Minute, MaxAttempts: 1})
	call := func(key string) error {
		return c.MakeRequest(WithAPIKey(context.Background(), key), &gql.Request{Query: "query Q { x }"}, &gql.Response{Data: &struct{}{}})
	}
	for i := 0; i < 4; i++ {
		for _, k := range []string{"NRAK-A", "NRAK-B", "NRAK-C"} {
			_ = call(k)
		}
	}
	before := hits.Load()
	var ge *Error
	if err := call("NRAK-D"); !errors.As(err, &ge) || ge.Kind != KindUnavailable || hits.Load() != before {
		t.Fatalf("a new tenant during an outage of every tenant: %v (NerdGraph reached: %v)", err, hits.Load() != before)
	}
}
