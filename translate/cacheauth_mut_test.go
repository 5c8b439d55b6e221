package translate

import (
	"context"
	"errors"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// Tests of the caches' bounds and key revocation (cache.go) written for mutants no own
// test reached (issue 22): the entry bound, the auth TTL edge, the sweep of keys not
// seen for an hour, a 401/403 dropping only that key's entries, and which upstream
// answers accept a key.

// Mutants cache.go:75-77 (c.c.ItemCount() >= c.max, evicted.Add): a full cache keeps
// its entries, drops the new one and counts it.
func TestCacheEntryBoundMut(t *testing.T) {
	c := NewCache("t", time.Hour, 2, nil)
	c.Set("a|1|x", 1)
	c.Set("a|1|y", 2)
	if c.Evictions() != 0 || c.Len() != 2 {
		t.Fatalf("under the bound: %d evictions, %d entries", c.Evictions(), c.Len())
	}
	c.Set("a|1|z", 3)
	if _, ok := c.Get("a|1|z"); ok || c.Evictions() != 1 || c.Len() != 2 {
		t.Fatalf("over the bound: stored %v, %d evictions, %d entries", ok, c.Evictions(), c.Len())
	}
}

// Mutant cache.go:197 (a.now().Sub(t) <= a.ttl): an answer is served exactly up to the
// auth TTL after NerdGraph last accepted the key, not a nanosecond later; a negative
// TTL switches the check off; a key never seen is not held back.
func TestKeyAuthFreshMut(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	a := &keyAuth{ttl: 5 * time.Second, now: func() time.Time { return now }, seen: map[string]time.Time{}}
	a.accepted("k")
	if !a.fresh("k") || !a.fresh("never") || !a.known("k") || a.known("never") {
		t.Fatal("fresh/known at acceptance")
	}
	now = now.Add(5 * time.Second)
	if !a.fresh("k") {
		t.Error("stale at exactly the TTL")
	}
	now = now.Add(time.Nanosecond)
	if a.fresh("k") {
		t.Error("fresh past the TTL")
	}
	a.ttl = -1
	if !a.fresh("k") {
		t.Error("a negative TTL still checks")
	}
	var none *keyAuth
	if !none.fresh("k") {
		t.Error("no auth holds answers back")
	}
}

// Mutants cache.go:165-167 (the sweep): keys not accepted for more than an hour are
// forgotten at the next sweep, which runs when a quarter hour has passed since the last;
// a key seen within the hour is kept.
func TestKeyAuthSweepMut(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	a := &keyAuth{ttl: time.Second, now: func() time.Time { return now }, seen: map[string]time.Time{}}
	a.accepted("old")
	now = now.Add(50 * time.Minute)
	a.accepted("recent")
	// The accept of "recent" swept (50 min after the first): "old" was kept (50 min old).
	now = now.Add(authSweepAfter/4 + time.Nanosecond) // "old" is 65 min old; last sweep 15 min + 1 ns ago
	a.accepted("trigger")
	if a.known("old") || !a.known("recent") || !a.known("trigger") {
		t.Fatalf("after the sweep: old %v recent %v", a.known("old"), a.known("recent"))
	}
	b := &keyAuth{ttl: time.Second, now: func() time.Time { return now }, seen: map[string]time.Time{}}
	b.accepted("x") // sweeps (first call) and sets sweep = now
	b.seen["stale"] = now.Add(-2 * time.Hour)
	now = now.Add(authSweepAfter / 4)
	b.accepted("y") // exactly a quarter hour: no sweep yet
	if !b.known("stale") {
		t.Error("swept before a quarter hour passed")
	}
	now = now.Add(time.Nanosecond)
	b.seen["hour"] = now.Add(-authSweepAfter) // exactly an hour: kept (cache.go:167 > → >=)
	b.accepted("y")
	if b.known("stale") {
		t.Error("not swept after a quarter hour")
	}
	if !b.known("hour") {
		t.Error("a key accepted exactly an hour ago was swept")
	}
}

// Mutants of authClient and refused (cache.go:181-191, 228-243): an answer or a 200
// with errors accepts the key; a 401 or 403 forgets it and drops its cached answers (and
// only its); any other failure changes nothing.
func TestAuthClientVerdictsMut(t *testing.T) {
	var next error
	f := &opFake{answer: func(string, map[string]any) (any, error) {
		if next != nil {
			return nil, next
		}
		return nrqlAnswer(nil), nil
	}}
	tr := New(f, Options{})
	k, other := HashKey("k"), HashKey("other")
	ctx := WithKeyHash(context.Background(), k)
	call := func(err error) error {
		next = err
		_, e := ng.NrqlQuery(ctx, tr.client, 1, "SELECT 1")
		return e
	}
	if err := call(nil); err != nil || !tr.KeyAccepted(k) {
		t.Fatalf("an answer did not accept the key: %v", err)
	}
	tr.lists.Set(Caller{KeyHash: k, AccountID: 1}.cacheKey("x"), 1)
	tr.lists.Set(Caller{KeyHash: other, AccountID: 1}.cacheKey("x"), 1)
	_ = call(&ng.Error{Kind: ng.KindServer, Status: 500})
	if !tr.KeyAccepted(k) || tr.lists.Len() != 2 {
		t.Fatal("a 500 changed the key's standing")
	}
	for _, kind := range []ng.Kind{ng.KindAuth, ng.KindForbidden} {
		_ = call(nil)
		tr.lists.Set(Caller{KeyHash: k, AccountID: 1}.cacheKey("x"), 1)
		if err := call(&ng.Error{Kind: kind, Status: 401}); !errors.As(err, new(*ng.Error)) {
			t.Fatalf("error not passed on: %v", err)
		}
		if tr.KeyAccepted(k) {
			t.Errorf("%v: key still accepted", kind)
		}
		if _, ok := tr.lists.Get(Caller{KeyHash: k, AccountID: 1}.cacheKey("x")); ok {
			t.Errorf("%v: the key's cached answer kept", kind)
		}
		if _, ok := tr.lists.Get(Caller{KeyHash: other, AccountID: 1}.cacheKey("x")); !ok {
			t.Errorf("%v: another key's cached answer dropped", kind)
		}
	}
	_ = call(&ng.Error{Kind: ng.KindInvalid, Status: 200})
	if !tr.KeyAccepted(k) {
		t.Error("a 200 with errors did not accept the key")
	}
	plain := context.Background()
	next = nil
	if _, err := ng.NrqlQuery(plain, tr.client, 1, "SELECT 1"); err != nil || tr.KeyAccepted("") {
		t.Errorf("a call without a key hash recorded one: %v", err)
	}
}
