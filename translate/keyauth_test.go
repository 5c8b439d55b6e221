package translate

import (
	"context"
	"errors"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// An answer is served exactly up to the auth TTL after NerdGraph last accepted the key, not a nanosecond later; a negative
// TTL switches the check off; a key never seen is not held back.
func TestKeyAuthFresh(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	a := &keyAuth{ttl: 5 * time.Second, now: func() time.Time { return now }, seen: map[string]time.Time{}}
	a.accepted("k")
	if !a.Fresh("k") || !a.Fresh("never") || !a.known("k") || a.known("never") {
		t.Fatal("fresh/known at acceptance")
	}
	now = now.Add(5 * time.Second)
	if !a.Fresh("k") {
		t.Error("stale at exactly the TTL")
	}
	now = now.Add(time.Nanosecond)
	if a.Fresh("k") {
		t.Error("fresh past the TTL")
	}
	a.ttl = -1
	if !a.Fresh("k") {
		t.Error("a negative TTL still checks")
	}
	var none *keyAuth
	if !none.Fresh("k") {
		t.Error("no auth holds answers back")
	}
}

// Keys not accepted for more than an hour are
// forgotten at the next sweep, which runs when a quarter hour has passed since the last;
// a key seen within the hour is kept.
func TestKeyAuthSweep(t *testing.T) {
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
	b.seen["hour"] = now.Add(-authSweepAfter) // exactly an hour: kept
	b.accepted("y")
	if b.known("stale") {
		t.Error("not swept after a quarter hour")
	}
	if !b.known("hour") {
		t.Error("a key accepted exactly an hour ago was swept")
	}
}

// authClient's verdicts: an answer or a 200 with errors accepts the key; a 401 or 403 forgets it and drops its cached answers (and
// only its); any other failure changes nothing.
func TestAuthClientVerdicts(t *testing.T) {
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
	tr.st.Lists.Set(Caller{KeyHash: k, AccountID: 1}.cacheKey("x"), 1)
	tr.st.Lists.Set(Caller{KeyHash: other, AccountID: 1}.cacheKey("x"), 1)
	_ = call(&ng.Error{Kind: ng.KindServer, Status: 500})
	if !tr.KeyAccepted(k) || tr.st.Lists.Len() != 2 {
		t.Fatal("a 500 changed the key's standing")
	}
	for _, kind := range []ng.Kind{ng.KindAuth, ng.KindForbidden} {
		_ = call(nil)
		tr.st.Lists.Set(Caller{KeyHash: k, AccountID: 1}.cacheKey("x"), 1)
		if err := call(&ng.Error{Kind: kind, Status: 401}); !errors.As(err, new(*ng.Error)) {
			t.Fatalf("error not passed on: %v", err)
		}
		if tr.KeyAccepted(k) {
			t.Errorf("%v: key still accepted", kind)
		}
		if _, ok := tr.st.Lists.Get(Caller{KeyHash: k, AccountID: 1}.cacheKey("x")); ok {
			t.Errorf("%v: the key's cached answer kept", kind)
		}
		if _, ok := tr.st.Lists.Get(Caller{KeyHash: other, AccountID: 1}.cacheKey("x")); !ok {
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

// A cached answer is not served to a key NerdGraph has not accepted within the auth TTL.
func TestCacheGetChecksKey(t *testing.T) {
	tr := New(nil, Options{AuthTTL: time.Second})
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tr.auth.now = func() time.Time { return now }
	k := HashKey("k")
	tr.auth.accepted(k)
	key := Caller{KeyHash: k, AccountID: 1}.cacheKey("x")
	tr.st.Lists.Set(key, 1)
	if _, ok := tr.st.Lists.Get(key); !ok {
		t.Fatal("fresh key: miss")
	}
	now = now.Add(time.Second + time.Nanosecond)
	if _, ok := tr.st.Lists.Get(key); ok {
		t.Fatal("a key not accepted within the auth TTL was served from the cache")
	}
}

// Only a negative TTL turns the key check off; a TTL of 0 serves a cached answer only at
// the very instant NerdGraph accepted the key (New never builds a TTL of 0; this pins
// keyAuth's own rule).
func TestKeyAuthFreshTTL(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		ttl   time.Duration
		after time.Duration
		want  bool
	}{
		{0, 0, true}, {0, time.Nanosecond, false},
		{-1, time.Hour, true},
		{time.Second, time.Second, true}, {time.Second, time.Second + 1, false},
	} {
		now := t0
		a := &keyAuth{ttl: tt.ttl, now: func() time.Time { return now }, seen: map[string]time.Time{}}
		a.accepted("h")
		now = t0.Add(tt.after)
		if got := a.Fresh("h"); got != tt.want {
			t.Errorf("ttl %v, %v after acceptance: fresh %v, want %v", tt.ttl, tt.after, got, tt.want)
		}
		if !a.Fresh("never-seen") {
			t.Errorf("ttl %v: a key never seen is held back", tt.ttl)
		}
	}
}
