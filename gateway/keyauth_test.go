package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/state/statetest"
	"github.com/v2bridge/v2bridge/translate"
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

// The translator's calls tell the edge NerdGraph's verdict on the caller's key: an
// answer or a 200 with errors accepts the key; a 401 or 403 forgets it and drops its
// cached answers (and only its); any other failure changes nothing; a call made for no
// key tells nothing.
func TestKeyAuthVerdicts(t *testing.T) {
	c := &accountsClient{accounts: `[{"id":1}]`}
	tr := translate.New(c, translate.Options{})
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	a := newKeyAuth(0, func() time.Time { return now }, tr)
	k, other := translate.HashKey("k"), translate.HashKey("other")
	ctx := translate.WithKeyHash(context.Background(), k)
	probes := 0
	call := func(err error) error {
		c.err = err
		probes++ // a key hash of its own: never answered from the cache
		_, e := tr.Accounts(ctx, "probe"+strconv.Itoa(probes))
		return e
	}
	cache := func(keyHash string) { // the key's cached answer
		c.err = nil
		_, _ = tr.Accounts(translate.WithKeyHash(context.Background(), keyHash), keyHash)
	}
	cached := func(keyHash string) bool { _, ok := tr.CachedAccounts(keyHash); return ok }
	if err := call(nil); err != nil || !a.known(k) {
		t.Fatalf("an answer did not accept the key: %v", err)
	}
	cache(k)
	cache(other)
	_ = call(&ng.Error{Kind: ng.KindServer, Status: 500})
	if !a.known(k) || !cached(k) || !cached(other) {
		t.Fatal("a 500 changed the key's standing")
	}
	for _, kind := range []ng.Kind{ng.KindAuth, ng.KindForbidden} {
		_ = call(nil)
		cache(k)
		if err := call(&ng.Error{Kind: kind, Status: 401}); !errors.As(err, new(*ng.Error)) {
			t.Fatalf("error not passed on: %v", err)
		}
		if a.known(k) {
			t.Errorf("%v: key still accepted", kind)
		}
		if cached(k) {
			t.Errorf("%v: the key's cached answer kept", kind)
		}
		if !cached(other) {
			t.Errorf("%v: another key's cached answer dropped", kind)
		}
	}
	_ = call(&ng.Error{Kind: ng.KindInvalid, Status: 200})
	if !a.known(k) {
		t.Error("a 200 with errors did not accept the key")
	}
	c.err = nil
	if _, err := tr.Accounts(context.Background(), "plain"); err != nil || a.known("") {
		t.Errorf("a call without a key hash recorded one: %v", err)
	}
}

// A cached answer is not served to a key NerdGraph has not accepted within the auth TTL.
func TestCacheGetChecksKey(t *testing.T) {
	c := &accountsClient{accounts: `[{"id":1}]`}
	tr := translate.New(c, translate.Options{})
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	newKeyAuth(time.Second, func() time.Time { return now }, tr)
	k := translate.HashKey("k")
	_, _ = tr.Accounts(translate.WithKeyHash(context.Background(), k), k) // NerdGraph accepts the key; its answer is cached
	if _, ok := tr.CachedAccounts(k); !ok {
		t.Fatal("fresh key: miss")
	}
	now = now.Add(time.Second + time.Nanosecond)
	if _, ok := tr.CachedAccounts(k); ok {
		t.Fatal("a key not accepted within the auth TTL was served from the cache")
	}
}

// Only a negative TTL turns the key check off; a TTL of 0 serves a cached answer only at
// the very instant NerdGraph accepted the key (newKeyAuth never builds a TTL of 0; this pins
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

// idsCodec shares a []int64 (as the translator's account lists are shared).
var idsCodec = state.Codec{
	Encode: func(v any) ([]byte, bool) {
		ids, ok := v.([]int64)
		if !ok {
			return nil, false
		}
		b, err := json.Marshal(ids)
		return b, err == nil
	},
	Decode: func(b []byte) (any, bool) {
		var ids []int64
		return ids, json.Unmarshal(b, &ids) == nil
	},
}

// An entry set through one replica is served by another while the fleet's acceptance
// of the key lasts, then
// kept locally only as long as that acceptance (taken as accepted at now + authLeft -
// AuthTTL, and only with the check on); never when the store fails, has no entry, or
// the entry or acceptance has run out.
func TestSharedCacheGet(t *testing.T) {
	store := statetest.NewSharedCache()
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	replica := func(authTTL time.Duration) (*state.Stores[int], *keyAuth) {
		st := state.NewStores(state.StoresOptions{SharedCache: store, AccountTTL: time.Hour,
			Codecs: map[string]state.Codec{"accounts": idsCodec}}, func(int) int64 { return 0 })
		a := &keyAuth{ttl: authTTL, now: func() time.Time { return clock }, seen: map[string]time.Time{}, fleet: store}
		st.CheckKeys(a)
		return st, a
	}
	a, _ := replica(5 * time.Second)
	key := "kh|1|accounts"
	a.Accounts.Set(key, []int64{1, 2})
	if string(store.Val["accounts/"+key]) != "[1,2]" || store.TTL["accounts/"+key] != time.Hour {
		t.Fatalf("stored %q for %v", store.Val["accounts/"+key], store.TTL["accounts/"+key])
	}
	a.Accounts.Set("kh|1|other", "not a list")
	if store.Unshareable != 1 || store.Val["accounts/kh|1|other"] != nil {
		t.Errorf("an unshareable value: %d counted, stored %q", store.Unshareable, store.Val["accounts/kh|1|other"])
	}

	// Not served: store error, no entry, entry or acceptance run out (at exactly 0 too).
	for _, tt := range []struct {
		name     string
		err      error
		key      string
		ttl      time.Duration
		authLeft time.Duration
	}{
		{"store error", errors.New("down"), key, time.Hour, time.Minute},
		{"no entry", nil, "kh|1|none", time.Hour, time.Minute},
		{"entry expired", nil, key, 0, time.Minute},
		{"acceptance over", nil, key, time.Hour, 0},
		{"acceptance negative", nil, key, time.Hour, -time.Second},
	} {
		store.Err, store.TTL["accounts/"+key], store.AuthLeft = tt.err, tt.ttl, tt.authLeft
		st, _ := replica(5 * time.Second)
		if v, ok := st.Accounts.Get(tt.key); ok {
			t.Errorf("%s: served %v", tt.name, v)
		}
	}
	store.Err, store.TTL["accounts/"+key], store.AuthLeft = nil, time.Hour, 3*time.Second
	b, _ := replica(5 * time.Second)
	if v, ok := b.Accounts.Get(key); !ok || len(v.([]int64)) != 2 {
		t.Fatalf("shared hit: %v, %v", v, ok)
	}
	gets := store.Gets
	// Kept locally while the fleet's acceptance lasts (3 s from now), not after.
	clock = clock.Add(3 * time.Second)
	if _, ok := b.Accounts.Get(key); !ok || store.Gets != gets {
		t.Errorf("local hit within the acceptance: %v, %d store reads", ok, store.Gets-gets)
	}
	clock = clock.Add(time.Millisecond)
	store.AuthLeft = 0
	if _, ok := b.Accounts.Get(key); ok || store.Gets != gets+1 {
		t.Errorf("after the acceptance: served %v, %d store reads", ok, store.Gets-gets)
	}
	// With the check off (negative AuthTTL) the fleet's acceptance is not recorded.
	store.AuthLeft = time.Minute
	off, offAuth := replica(-1)
	if _, ok := off.Accounts.Get(key); !ok || offAuth.known("kh") {
		t.Errorf("check off: served %v, acceptance recorded %v", ok, offAuth.known("kh"))
	}
}

// The fleet's record of a key: the later of its acceptance and this replica's is kept;
// a verdict is shared, accepted for AuthTTL (for authSweepAfter with the check off),
// refused at once.
func TestSharedVerdicts(t *testing.T) {
	store := statetest.NewSharedCache()
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	a := newKeyAuth(5*time.Second, now, translate.New(nil, translate.Options{SharedCache: store}))
	a.accepted("kh")
	if store.Accepted["kh"] != 5*time.Second {
		t.Errorf("accepted shared for %v, want 5s", store.Accepted["kh"])
	}
	a.acceptedAt("kh", clock.Add(-time.Second)) // older than this replica's own
	clock = clock.Add(5 * time.Second)
	if !a.Fresh("kh") {
		t.Error("an older fleet record replaced this replica's later one")
	}
	a.acceptedAt("kh", clock.Add(time.Second)) // later: taken
	clock = clock.Add(6 * time.Second)
	if !a.Fresh("kh") {
		t.Error("a later fleet record was not taken")
	}
	a.refused("kh")
	if len(store.Refused) != 1 || store.Refused[0] != "kh" {
		t.Errorf("refused shared as %v", store.Refused)
	}
	off := newKeyAuth(-1, now, translate.New(nil, translate.Options{SharedCache: store}))
	off.accepted("k2")
	if store.Accepted["k2"] != authSweepAfter {
		t.Errorf("check off: accepted shared for %v, want %v", store.Accepted["k2"], authSweepAfter)
	}
}
