package translate

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// Tests of the fleet's shared cache (cachefleet.go getShared, setShared, acceptedAt,
// shareVerdict) written for mutants no own test reached (issue 22; the dry run at
// f9be12a listed 14 of cachefleet.go NOT COVERED). The store is memCache, an in-memory
// SharedCache; the cache is a Translator's "accounts" cache (shared as []int64), its
// key-verdict clock a fake one.

type memCache struct {
	mu          sync.Mutex
	val         map[string][]byte
	ttl         map[string]time.Duration
	authLeft    time.Duration
	err         error
	gets        int
	accepted    map[string]time.Duration
	refused     []string
	unshareable int
}

func newMemCache() *memCache {
	return &memCache{val: map[string][]byte{}, ttl: map[string]time.Duration{}, accepted: map[string]time.Duration{}, authLeft: time.Minute}
}

func (m *memCache) GetCached(_ context.Context, name, key, _ string) ([]byte, time.Duration, time.Duration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets++
	return m.val[name+"/"+key], m.ttl[name+"/"+key], m.authLeft, m.err
}

func (m *memCache) SetCached(_ context.Context, name, key string, value []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.val[name+"/"+key], m.ttl[name+"/"+key] = value, ttl
	return nil
}

func (m *memCache) KeyAccepted(_ context.Context, keyHash string, ttl time.Duration) {
	m.mu.Lock()
	m.accepted[keyHash] = ttl
	m.mu.Unlock()
}

func (m *memCache) KeyRefused(_ context.Context, keyHash string) {
	m.mu.Lock()
	m.refused = append(m.refused, keyHash)
	m.mu.Unlock()
}

func (m *memCache) CacheUnshareable() { m.mu.Lock(); m.unshareable++; m.mu.Unlock() }

// Mutants cachefleet.go:131 (err, no entry, ttl <= 0, authLeft <= 0: not served), :138
// (the fleet's acceptance taken only with the check on) and :139 ARITHMETIC_BASE /
// INVERT_NEGATIVES (accepted at now + authLeft - AuthTTL): an entry set through one
// replica is served by another while the fleet's acceptance of the key lasts, then
// kept locally only as long as that acceptance; never when the store fails, has no
// entry, or the entry or acceptance has run out.
func TestSharedCacheGetMut(t *testing.T) {
	store := newMemCache()
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	replica := func(authTTL time.Duration) *Translator {
		tr := New(nil, Options{SharedCache: store, AuthTTL: authTTL, AccountTTL: time.Hour})
		tr.auth.now = func() time.Time { return clock }
		return tr
	}
	a := replica(5 * time.Second)
	key := "kh|1|accounts"
	a.accounts.Set(key, []int64{1, 2})
	if string(store.val["accounts/"+key]) != "[1,2]" || store.ttl["accounts/"+key] != time.Hour {
		t.Fatalf("stored %q for %v", store.val["accounts/"+key], store.ttl["accounts/"+key])
	}
	a.accounts.Set("kh|1|other", "not a list")
	if store.unshareable != 1 || store.val["accounts/kh|1|other"] != nil {
		t.Errorf("an unshareable value: %d counted, stored %q", store.unshareable, store.val["accounts/kh|1|other"])
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
		store.err, store.ttl["accounts/"+key], store.authLeft = tt.err, tt.ttl, tt.authLeft
		if v, ok := replica(5 * time.Second).accounts.Get(tt.key); ok {
			t.Errorf("%s: served %v", tt.name, v)
		}
	}
	store.err, store.ttl["accounts/"+key], store.authLeft = nil, time.Hour, 3*time.Second
	b := replica(5 * time.Second)
	if v, ok := b.accounts.Get(key); !ok || len(v.([]int64)) != 2 {
		t.Fatalf("shared hit: %v, %v", v, ok)
	}
	gets := store.gets
	// Kept locally while the fleet's acceptance lasts (3 s from now), not after.
	clock = clock.Add(3 * time.Second)
	if _, ok := b.accounts.Get(key); !ok || store.gets != gets {
		t.Errorf("local hit within the acceptance: %v, %d store reads", ok, store.gets-gets)
	}
	clock = clock.Add(time.Millisecond)
	store.authLeft = 0
	if _, ok := b.accounts.Get(key); ok || store.gets != gets+1 {
		t.Errorf("after the acceptance: served %v, %d store reads", ok, store.gets-gets)
	}
	// With the check off (negative AuthTTL) the fleet's acceptance is not recorded.
	store.authLeft = time.Minute
	off := replica(-1)
	if _, ok := off.accounts.Get(key); !ok || off.auth.known("kh") {
		t.Errorf("check off: served %v, acceptance recorded %v", ok, off.auth.known("kh"))
	}
}

// Mutants cachefleet.go:178 (acceptedAt keeps the later record) and :196 (shareVerdict:
// accepted for AuthTTL, or for authSweepAfter with the check off; refused at once).
func TestSharedVerdictsMut(t *testing.T) {
	store := newMemCache()
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tr := New(nil, Options{SharedCache: store, AuthTTL: 5 * time.Second})
	tr.auth.now = func() time.Time { return clock }
	tr.auth.accepted("kh")
	if store.accepted["kh"] != 5*time.Second {
		t.Errorf("accepted shared for %v, want 5s", store.accepted["kh"])
	}
	tr.auth.acceptedAt("kh", clock.Add(-time.Second)) // older than this replica's own
	clock = clock.Add(5 * time.Second)
	if !tr.auth.fresh("kh") {
		t.Error("an older fleet record replaced this replica's later one")
	}
	tr.auth.acceptedAt("kh", clock.Add(time.Second)) // later: taken
	clock = clock.Add(6 * time.Second)
	if !tr.auth.fresh("kh") {
		t.Error("a later fleet record was not taken")
	}
	tr.auth.refused("kh")
	if len(store.refused) != 1 || store.refused[0] != "kh" {
		t.Errorf("refused shared as %v", store.refused)
	}
	off := New(nil, Options{SharedCache: store, AuthTTL: -1})
	off.auth.accepted("k2")
	if store.accepted["k2"] != authSweepAfter {
		t.Errorf("check off: accepted shared for %v, want %v", store.accepted["k2"], authSweepAfter)
	}
}
