package translate

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/v2bridge/v2bridge/state/fleet"
)

// fleetStore is a store with the shared cache on, over m.
func fleetStore(t *testing.T, m *miniredis.Miniredis) *fleet.Store {
	t.Helper()
	s, err := fleet.Open(fleet.Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:", Cache: &fleet.CacheOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Two replicas sharing a store: the one that reads an account's index from NerdGraph
// writes it there in chunks, and the other's lookup reads it from the store with no
// round trip for the index; a chunk that does not decode, or a manifest whose chunks
// are gone, is no index: that replica reads NerdGraph. Another caller of the account
// never reads the first caller's index.
func TestNameIndexSharedThroughStore(t *testing.T) {
	m := miniredis.RunT(t)
	apps := manyApps(5000) // 3 chunks
	pages := indexPages(len(apps))
	c := Caller{KeyHash: "k", AccountID: 1}
	ctx := context.Background()
	fleetStore(t, m).KeyAccepted(ctx, "k", time.Hour) // NerdGraph accepted the key (through any replica)
	replica := func() (*Translator, *nameFake) {
		f := newNameFake(apps)
		return New(f, Options{SharedCache: fleetStore(t, m)}), f
	}
	lookup := func(tr *Translator, f *nameFake, caller Caller, name string) ([]int64, int) {
		t.Helper()
		before := fullReads(f)
		ids, err := tr.indexedMatches(ctx, caller, "", AppListRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return ids, fullReads(f) - before
	}
	a, fa := replica()
	if ids, reads := lookup(a, fa, c, "app-04321"); !slices.Equal(ids, []int64{4321}) || reads != pages {
		t.Fatalf("first replica: %v with %d pages", ids, reads)
	}
	b, fb := replica()
	if ids, reads := lookup(b, fb, c, "app-00017"); !slices.Equal(ids, []int64{17}) || reads != 0 {
		t.Errorf("second replica: %v with %d index pages, want 0", ids, reads)
	}
	if _, reads := lookup(b, fb, Caller{KeyHash: "other", AccountID: 1}, "app-00017"); reads != pages {
		t.Errorf("another caller read %d pages, want its own index (%d)", reads, pages)
	}
	chunkKeys := func() []string {
		var out []string
		for _, k := range m.Keys() {
			if strings.HasPrefix(k, "t:x:name_index:") && strings.Count(k, ":") == 5 && m.TTL(k) > time.Minute {
				out = append(out, k)
			}
		}
		return out
	}
	if chunks := chunkKeys(); len(chunks) != 2*3 { // both callers' indexes
		t.Fatalf("chunks stored: %q", chunks)
	}
	for _, tc := range []struct {
		name  string
		spoil func(key string)
	}{
		{"a chunk corrupt", func(k string) { _ = m.Set(k, "\xff\xff\xff") }},
		{"a chunk truncated", func(k string) { v, _ := m.Get(k); _ = m.Set(k, v[:len(v)/2]) }},
		{"a chunk gone", func(k string) { m.Del(k) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range chunkKeys() { // the last subtest's replica wrote a new generation
				tc.spoil(k)
			}
			r, fr := replica()
			if ids, reads := lookup(r, fr, c, "app-00018"); !slices.Equal(ids, []int64{18}) || reads != pages {
				t.Errorf("%v with %d pages, want NerdGraph's index (%d)", ids, reads, pages)
			}
		})
	}
}

// In a fleet, a due refresh first takes an index another replica read since from the
// store (no round trip), and while another replica holds the key's lock it reads
// nothing: that replica reads it.
func TestNameIndexRefreshInFleet(t *testing.T) {
	m := miniredis.RunT(t)
	clock := newTestClock()
	c := Caller{KeyHash: "k", AccountID: 1}
	ctx := context.Background()
	store := fleetStore(t, m)
	store.KeyAccepted(ctx, "k", time.Hour)
	fa, fb := newNameFake(manyApps(300)), newNameFake(manyApps(300))
	a := New(fa, Options{SharedCache: fleetStore(t, m), Now: clock.now})
	b := New(fb, Options{SharedCache: fleetStore(t, m), Now: clock.now})
	if _, _, err := a.nameIndex(ctx, c); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.nameIndex(ctx, c); err != nil || fullReads(fb) != 0 {
		t.Fatalf("b read %d pages (%v)", fullReads(fb), err)
	}
	clock.advance(DefaultNameIndexRefresh)
	// a refreshes; then b, due too, finds a's fresher index in the store.
	if _, _, err := a.nameIndex(ctx, c); err != nil {
		t.Fatal(err)
	}
	a.index.waitRefreshes()
	if _, _, err := b.nameIndex(ctx, c); err != nil {
		t.Fatal(err)
	}
	b.index.waitRefreshes()
	if fullReads(fa) != 2*indexPages(300) || fullReads(fb) != 0 {
		t.Errorf("a read %d pages, b %d; want %d and 0", fullReads(fa), fullReads(fb), 2*indexPages(300))
	}
	clock.advance(DefaultNameIndexRefresh)
	release, ok, err := store.TryLock(ctx, "name_index", c.cacheKey("apps-index"), time.Minute)
	if err != nil || !ok {
		t.Fatalf("lock: %v %v", ok, err)
	}
	if _, _, err := b.nameIndex(ctx, c); err != nil {
		t.Fatal(err)
	}
	b.index.waitRefreshes()
	if fullReads(fb) != 0 {
		t.Errorf("b read %d pages while another replica held the lock", fullReads(fb))
	}
	release()
	if _, _, err := b.nameIndex(ctx, c); err != nil {
		t.Fatal(err)
	}
	b.index.waitRefreshes()
	if fullReads(fb) != indexPages(300) {
		t.Errorf("b read %d pages once the lock was free, want %d", fullReads(fb), indexPages(300))
	}
}

// An index round-trips through its stored form; what is not exactly an index (short,
// long, a language out of the table, past the cap) does not decode.
func TestNameIndexStoredForm(t *testing.T) {
	ix := &nameIndex{readAt: time.UnixMilli(1764000000123), gen: 7}
	for i := range 4500 {
		lang := []string{"go", "java", ""}[i%3]
		ix.entries = append(ix.entries, nameEntry{id: int64(i+1) << 20, name: fmt.Sprintf("app ü %d", i), language: lang, reporting: i%2 == 0})
	}
	meta, chunks := encodeIndex(ix)
	if len(chunks) != 3 {
		t.Fatalf("%d chunks", len(chunks))
	}
	got, ok := decodeIndex(meta, chunks, DefaultNameIndexMaxApps)
	if !ok || !slices.Equal(got.entries, ix.entries) || !got.readAt.Equal(ix.readAt) || got.gen != 7 {
		t.Fatal("not the same index")
	}
	empty, chunks0 := encodeIndex(&nameIndex{readAt: ix.readAt})
	if got, ok := decodeIndex(empty, chunks0, 10); !ok || len(got.entries) != 0 {
		t.Fatal("the empty index does not round-trip")
	}
	for _, tc := range []struct {
		name   string
		meta   []byte
		chunks [][]byte
		max    int
	}{
		{"a chunk missing", meta, chunks[:2], DefaultNameIndexMaxApps},
		{"a chunk short", meta, [][]byte{chunks[0], chunks[1][:len(chunks[1])-1], chunks[2]}, DefaultNameIndexMaxApps},
		{"a chunk long", meta, [][]byte{chunks[0], chunks[1], append(slices.Clone(chunks[2]), chunks[2][:20]...)}, DefaultNameIndexMaxApps},
		{"a language out of the table", []byte(`{"n":4500,"langs":["go"]}`), chunks, DefaultNameIndexMaxApps},
		{"past the cap", meta, chunks, 4000},
		{"no meta", []byte("{"), chunks, DefaultNameIndexMaxApps},
	} {
		if _, ok := decodeIndex(tc.meta, tc.chunks, tc.max); ok {
			t.Errorf("%s: decoded", tc.name)
		}
	}
}

// The memory an index of 10,000 applications holds (the figure docs/performance.md
// quotes): go test ./translate -run '^$' -bench NameIndexMemory -benchtime 5x.
func BenchmarkNameIndexMemory(b *testing.B) {
	const n = 10000
	var held uint64
	for range b.N {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ix := syntheticIndex(n)
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(ix)
	}
	b.ReportMetric(float64(held), "bytes/10k-apps")
	meta, chunks := encodeIndex(&nameIndex{entries: syntheticIndex(n)})
	stored := len(meta)
	for _, ch := range chunks {
		stored += len(ch)
	}
	b.ReportMetric(float64(stored), "stored-bytes/10k-apps")
}

// syntheticIndex is an index of n applications named as services often are
// ("team-service-env-N", 20 to 25 bytes), in three languages.
func syntheticIndex(n int) []nameEntry {
	langs := []string{"java", "go", "nodejs"}
	es := make([]nameEntry, 0, n)
	for i := range n {
		es = append(es, nameEntry{id: int64(100000000 + i), name: fmt.Sprintf("payments-api-prod-%05d", i), language: langs[i%3]})
	}
	return es
}
