package fleet

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// A chunked entry written by one store is read whole by another, only under the
// fleet's acceptance of the caller's key; rewritten, the previous generation's chunks
// are left a grace period; a chunk gone missing is no entry at all.
func TestChunkedEntryRoundTrip(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := openCache(t, m, CacheOptions{}), openCache(t, m, CacheOptions{})
	ctx := context.Background()
	key := "hash|1|apps-index"
	chunks := [][]byte{[]byte("one"), []byte("two"), []byte("three")}
	if err := a.SetChunks(ctx, "name_index", key, []byte("meta"), chunks, time.Hour); err != nil {
		t.Fatal(err)
	}
	if meta, got, _, err := b.GetChunks(ctx, "name_index", key, "hash"); err != nil || meta != nil || got != nil {
		t.Fatalf("before the key's acceptance: %q %q %v", meta, got, err)
	}
	a.KeyAccepted(ctx, "hash", time.Hour)
	meta, got, auth, err := b.GetChunks(ctx, "name_index", key, "hash")
	if err != nil || string(meta) != "meta" || len(got) != 3 || string(got[2]) != "three" || auth <= 0 {
		t.Fatalf("read: %q %q %s %v", meta, got, auth, err)
	}
	if _, got, _, _ := b.GetChunks(ctx, "name_index", "other|1|apps-index", "other"); got != nil {
		t.Fatal("another caller's key found the entry")
	}
	for _, k := range m.Keys() {
		if strings.Contains(k, "apps-index") {
			t.Fatalf("a cache key is stored in clear: %s", k)
		}
		if ttl := m.TTL(k); strings.HasPrefix(k, "t:x:") && (ttl <= 0 || ttl > time.Hour) {
			t.Fatalf("%s: ttl %s", k, ttl)
		}
	}
	old := chunkKeys(m)
	if err := a.SetChunks(ctx, "name_index", key, []byte("meta2"), chunks[:1], time.Hour); err != nil {
		t.Fatal(err)
	}
	for _, k := range old {
		if ttl := m.TTL(k); ttl > chunkGrace {
			t.Fatalf("previous generation's %s lives %s", k, ttl)
		}
	}
	if meta, got, _, _ := b.GetChunks(ctx, "name_index", key, "hash"); string(meta) != "meta2" || len(got) != 1 {
		t.Fatalf("rewritten: %q %q", meta, got)
	}
	m.FastForward(chunkGrace + time.Second)
	for _, k := range chunkKeys(m) {
		m.Del(k)
	}
	if meta, got, _, err := b.GetChunks(ctx, "name_index", key, "hash"); err != nil || meta != nil || got != nil {
		t.Fatalf("a chunk missing: %q %q %v", meta, got, err)
	}
	if st := b.CacheStats(); st.Hits != 2 || st.Misses != 3 {
		t.Fatalf("b's stats %+v", st)
	}
}

// chunkKeys are the stored chunk keys (a manifest key has no generation part).
func chunkKeys(m *miniredis.Miniredis) []string {
	var out []string
	for _, k := range m.Keys() {
		if strings.HasPrefix(k, "t:x:") && strings.Count(k, ":") == 5 {
			out = append(out, k)
		}
	}
	return out
}

// A chunk past the entry bound, or an entry past the window's budget, is not written
// (both counted); nothing of it is stored.
func TestChunkedEntryBounds(t *testing.T) {
	m := miniredis.RunT(t)
	s := openCache(t, m, CacheOptions{MaxEntryBytes: 200, MaxBytes: 1000})
	ctx := context.Background()
	big := [][]byte{[]byte("small"), []byte(strings.Repeat("x", 200))}
	if err := s.SetChunks(ctx, "name_index", "k|1|i", nil, big, time.Hour); err != nil {
		t.Fatal(err)
	}
	fits := [][]byte{[]byte(strings.Repeat("x", 100)), []byte(strings.Repeat("y", 100))}
	for _, key := range []string{"k|1|a", "k|1|b"} { // ~460 bytes each: the second passes the 500-byte budget
		if err := s.SetChunks(ctx, "name_index", key, nil, fits, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if st := s.CacheStats(); st.TooLarge != 1 || st.OverBudget != 1 || st.Written != 1 {
		t.Fatalf("stats %+v", st)
	}
	var manifests int
	for _, k := range m.Keys() {
		if strings.HasPrefix(k, "t:x:") && strings.Count(k, ":") == 3 {
			manifests++
		}
	}
	if manifests != 1 {
		t.Fatalf("%d manifests stored, want 1: %q", manifests, m.Keys())
	}
}

// One holder at a time: a second TryLock fails until the first is released or expires,
// and a release after expiry does not drop a later holder's lock.
func TestChunkedEntryLock(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := openCache(t, m, CacheOptions{}), openCache(t, m, CacheOptions{})
	ctx := context.Background()
	relA, ok, err := a.TryLock(ctx, "name_index", "k|1|i", time.Minute)
	if err != nil || !ok {
		t.Fatalf("first: %v %v", ok, err)
	}
	if _, ok, _ := b.TryLock(ctx, "name_index", "k|1|i", time.Minute); ok {
		t.Fatal("second holder while the first holds it")
	}
	if _, ok, _ := b.TryLock(ctx, "name_index", "k|2|i", time.Minute); !ok {
		t.Fatal("another key's lock is held")
	}
	m.FastForward(time.Minute + time.Second)
	relB, ok, _ := b.TryLock(ctx, "name_index", "k|1|i", time.Minute)
	if !ok {
		t.Fatal("expired lock still held")
	}
	relA()
	if _, ok, _ := a.TryLock(ctx, "name_index", "k|1|i", time.Minute); ok {
		t.Fatal("a stale release dropped the new holder's lock")
	}
	relB()
	if _, ok, _ := a.TryLock(ctx, "name_index", "k|1|i", time.Minute); !ok {
		t.Fatal("released lock still held")
	}
}
