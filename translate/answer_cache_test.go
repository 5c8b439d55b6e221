package translate

import (
	"reflect"
	"testing"
	"time"
)

// A cached answer is not served to a key NerdGraph has not accepted within the auth TTL.
func TestCacheGetChecksKey(t *testing.T) {
	tr := New(nil, Options{AuthTTL: time.Second})
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tr.auth.now = func() time.Time { return now }
	k := HashKey("k")
	tr.auth.accepted(k)
	key := Caller{KeyHash: k, AccountID: 1}.cacheKey("x")
	tr.lists.Set(key, 1)
	if _, ok := tr.lists.Get(key); !ok {
		t.Fatal("fresh key: miss")
	}
	now = now.Add(time.Second + time.Nanosecond)
	if _, ok := tr.lists.Get(key); ok {
		t.Fatal("a key not accepted within the auth TTL was served from the cache")
	}
}

// A cache without a byte bound stores entries; an entry exactly the bound is stored,
// entries that exactly fill the bound are all kept, and a new one evicts only as many as
// it needs.
func TestCacheByteBoundEdges(t *testing.T) {
	tr := New(nil, Options{MaxCacheBytes: -1})
	tr.lists.Set("k|1|a", 1)
	if _, ok := tr.lists.Get("k|1|a"); !ok {
		t.Fatal("a cache without a byte bound stored nothing")
	}
	size := func(key string, v any) int64 {
		c := NewCache("probe", time.Hour, 10, nil)
		c.maxBytes = 1 << 40
		c.Set(key, v)
		return c.Bytes()
	}
	n := size("k|1|a", 1) // every key below has the same length and value
	c := NewCache("t", time.Hour, 10, nil)
	c.maxBytes = n
	c.Set("k|1|a", 1)
	if _, ok := c.Get("k|1|a"); !ok || c.Evictions() != 0 {
		t.Fatalf("an entry of exactly the bound: stored %v, %d evictions", ok, c.Evictions())
	}
	c.maxBytes = 3 * n
	c.Set("k|1|b", 1)
	c.Set("k|1|c", 1)
	if c.Len() != 3 || c.Evictions() != 0 || c.Bytes() != 3*n {
		t.Fatalf("three entries filling the bound: %d held, %d evictions, %d bytes", c.Len(), c.Evictions(), c.Bytes())
	}
	c.Set("k|1|d", 1)
	if c.Len() != 3 || c.Evictions() != 1 || c.Bytes() != 3*n {
		t.Fatalf("a fourth entry: %d held, %d evictions, %d bytes", c.Len(), c.Evictions(), c.Bytes())
	}
	if _, ok := c.Get("k|1|d"); !ok {
		t.Fatal("the new entry was not stored")
	}
}

// Every cache sweeps expired entries every two TTLs, so expired answers do not stay in
// memory, and in the byte count, until read or evicted for room.
func TestCacheJanitor(t *testing.T) {
	if got := janitorInterval(t, NewCache("lists", time.Minute, 10, nil).c); got != 2*time.Minute {
		t.Fatalf("janitor interval %v, want 2m", got)
	}
}

// janitorInterval is the cleanup interval of a go-cache cache (0: no janitor).
func janitorInterval(t *testing.T, c any) time.Duration {
	t.Helper()
	v := reflect.ValueOf(c).Elem().Field(0) // *cache
	if v.Kind() != reflect.Pointer || v.IsNil() {
		t.Fatalf("go-cache layout changed: %v", v.Kind())
	}
	j := v.Elem().FieldByName("janitor")
	if !j.IsValid() {
		t.Fatal("go-cache layout changed: no janitor field")
	}
	if j.IsNil() {
		return 0
	}
	return time.Duration(j.Elem().FieldByName("Interval").Int())
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
		if got := a.fresh("h"); got != tt.want {
			t.Errorf("ttl %v, %v after acceptance: fresh %v, want %v", tt.ttl, tt.after, got, tt.want)
		}
		if !a.fresh("never-seen") {
			t.Errorf("ttl %v: a key never seen is held back", tt.ttl)
		}
	}
}
