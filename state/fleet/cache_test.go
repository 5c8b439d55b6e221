package fleet

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

func openCache(t *testing.T, m *miniredis.Miniredis, o CacheOptions) *Store {
	t.Helper()
	s, err := Open(Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:", Cache: &o})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// An entry written by one store is read by another with its TTL, but only while the
// fleet's acceptance of the caller's key holds; a refusal ends it at once.
func TestSharedCacheEntryAndAuth(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := openCache(t, m, CacheOptions{}), openCache(t, m, CacheOptions{})
	ctx := context.Background()
	if err := a.SetCached(ctx, "entities", "hash|1|application@0|7", []byte(`{"ID":7}`), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	v, ttl, auth, err := b.GetCached(ctx, "entities", "hash|1|application@0|7", "hash")
	if err != nil || string(v) != `{"ID":7}` || ttl <= 29*time.Second || ttl > 30*time.Second || auth > 0 {
		t.Fatalf("before acceptance: %q %s %s %v", v, ttl, auth, err)
	}
	a.KeyAccepted(ctx, "hash", 5*time.Second)
	if _, _, auth, _ := b.GetCached(ctx, "entities", "hash|1|application@0|7", "hash"); auth <= 4*time.Second || auth > 5*time.Second {
		t.Fatalf("accepted: auth left %s", auth)
	}
	if _, _, auth, _ := b.GetCached(ctx, "entities", "hash|1|application@0|7", "other"); auth > 0 {
		t.Fatalf("another key's acceptance: %s", auth)
	}
	b.KeyRefused(ctx, "hash")
	if _, _, auth, _ := a.GetCached(ctx, "entities", "hash|1|application@0|7", "hash"); auth > 0 {
		t.Fatalf("refused: auth left %s", auth)
	}
	if v, _, _, _ := b.GetCached(ctx, "entities", "hash|1|application@1|7", "hash"); v != nil {
		t.Fatal("another write count found the entry")
	}
	for _, k := range m.Keys() {
		if strings.Contains(k, "application") {
			t.Fatalf("a cache key is stored in clear: %s", k)
		}
	}
	if st := b.CacheStats(); st.Hits != 1 || st.Misses != 3 {
		t.Fatalf("b's stats %+v", st)
	}
}

// Writes are capped: an entry over the per-entry bound is not written, and the bytes
// written per window stop at half the total bound; both are counted.
func TestSharedCacheBounds(t *testing.T) {
	m := miniredis.RunT(t)
	s := openCache(t, m, CacheOptions{MaxEntryBytes: 200, MaxBytes: 1000, Window: time.Hour})
	ctx := context.Background()
	if err := s.SetCached(ctx, "entities", "big", make([]byte, 300), time.Minute); err != nil {
		t.Fatal(err)
	}
	written := 0
	for i := range 10 {
		if err := s.SetCached(ctx, "entities", "k"+itoa(int64(i)), make([]byte, 100), time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range m.Keys() {
		if strings.HasPrefix(k, "t:c:") {
			written++
		}
	}
	st := s.CacheStats()
	// Each entry is 100 bytes plus its 73-byte key: two fit in 500 bytes.
	if written != 2 || st.Written != 2 || st.TooLarge != 1 || st.OverBudget != 8 {
		t.Fatalf("%d entries written, stats %+v", written, st)
	}
	if ttl := m.TTL("t:cbytes:" + itoa(time.Now().UnixMilli()/time.Hour.Milliseconds())); ttl <= 0 || ttl > 2*time.Hour {
		t.Fatalf("window count ttl %s", ttl)
	}
}

// The store down: reads and writes fail at once, are counted as fallbacks, and the
// shared cache off answers errCacheOff.
func TestSharedCacheDown(t *testing.T) {
	m := miniredis.RunT(t)
	s := openCache(t, m, CacheOptions{})
	m.Close()
	ctx := context.Background()
	if _, _, _, err := s.GetCached(ctx, "entities", "k", "h"); err == nil {
		t.Fatal("read from a closed store")
	}
	if err := s.SetCached(ctx, "entities", "k", []byte("v"), time.Minute); err == nil {
		t.Fatal("write to a closed store")
	}
	if st := s.CacheStats(); st.Fallbacks != 2 {
		t.Fatalf("stats %+v", st)
	}
	off := open(t, miniredis.RunT(t))
	if _, _, _, err := off.GetCached(ctx, "entities", "k", "h"); err != errCacheOff || off.SharesCache() {
		t.Fatalf("cache off: %v", err)
	}
}

// A store opened with Options.Cache shares the cache; one without, or none, does not.
func TestSharesCache(t *testing.T) {
	m := miniredis.RunT(t)
	if !openCache(t, m, CacheOptions{}).SharesCache() {
		t.Error("a store with Options.Cache does not share the cache")
	}
	if open(t, m).SharesCache() {
		t.Error("a store without Options.Cache shares the cache")
	}
	if (*Store)(nil).SharesCache() {
		t.Error("no store shares the cache")
	}
}

// An entry with 0 ms left, or a key whose fleet acceptance has 0 ms left, is a miss,
// not a hit (PTTL rounds below a millisecond down to 0).
func TestGetCachedZeroLeft(t *testing.T) {
	m := miniredis.RunT(t)
	s := openCache(t, m, CacheOptions{})
	ctx := context.Background()
	const name, key, hash = "entities", "hash|1|application@0|7", "hash"
	if err := s.SetCached(ctx, name, key, []byte("v"), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	s.KeyAccepted(ctx, hash, 5*time.Second)
	ek, ak := s.entryKey(name, key), s.key("auth", hash)
	for _, tt := range []struct {
		name            string
		entry, auth     time.Duration
		hits, misses    int64
		wantTTL, wantAu time.Duration
	}{
		{"both left", 30 * time.Second, 5 * time.Second, 1, 0, 30 * time.Second, 5 * time.Second},
		{"entry at 0 ms", 500 * time.Microsecond, 5 * time.Second, 1, 1, 0, 5 * time.Second},
		{"acceptance at 0 ms", 30 * time.Second, 500 * time.Microsecond, 1, 2, 30 * time.Second, 0},
	} {
		m.SetTTL(ek, tt.entry)
		m.SetTTL(ak, tt.auth)
		v, ttl, auth, err := s.GetCached(ctx, name, key, hash)
		st := s.CacheStats()
		if err != nil || string(v) != "v" || ttl != tt.wantTTL || auth != tt.wantAu || st.Hits != tt.hits || st.Misses != tt.misses {
			t.Fatalf("%s: %q, %v, %v, %v, stats %+v; want ttl %v, auth %v, %d hits, %d misses",
				tt.name, v, ttl, auth, err, st, tt.wantTTL, tt.wantAu, tt.hits, tt.misses)
		}
	}
}

// An entry of exactly MaxEntryBytes (its store key and value) is written; one byte
// more is not.
func TestSetCachedEntryBound(t *testing.T) {
	m := miniredis.RunT(t)
	probe := open(t, m)
	const name, key = "entities", "hash|1|application@0|7"
	ekLen := int64(len(probe.entryKey(name, key)))
	s := openCache(t, m, CacheOptions{MaxEntryBytes: ekLen + 10})
	ctx := context.Background()
	for _, tt := range []struct {
		size              int
		written, tooLarge int64
	}{{10, 1, 0}, {11, 1, 1}} {
		if err := s.SetCached(ctx, name, key, []byte(strings.Repeat("v", tt.size)), time.Minute); err != nil {
			t.Fatal(err)
		}
		if st := s.CacheStats(); st.Written != tt.written || st.TooLarge != tt.tooLarge {
			t.Fatalf("a %d-byte value: stats %+v, want %d written, %d too large", tt.size, st, tt.written, tt.tooLarge)
		}
	}
	if v, _ := m.Get(s.entryKey(name, key)); v != strings.Repeat("v", 10) {
		t.Fatalf("stored %q", v)
	}
}
