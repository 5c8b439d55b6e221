package translate

import (
	"context"
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
	a.index.WaitRefreshes()
	if _, _, err := b.nameIndex(ctx, c); err != nil {
		t.Fatal(err)
	}
	b.index.WaitRefreshes()
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
	b.index.WaitRefreshes()
	if fullReads(fb) != 0 {
		t.Errorf("b read %d pages while another replica held the lock", fullReads(fb))
	}
	release()
	if _, _, err := b.nameIndex(ctx, c); err != nil {
		t.Fatal(err)
	}
	b.index.WaitRefreshes()
	if fullReads(fb) != indexPages(300) {
		t.Errorf("b read %d pages once the lock was free, want %d", fullReads(fb), indexPages(300))
	}
}

// Two replicas meeting a cold account at once read its pages once for the fleet: the
// replica that takes the store lock reads, the other waits for that index in the store
// and serves it. A lock whose reader leaves nothing in the store (its read failed, or
// it stopped) does not hold the waiter: it reads the index itself.
func TestColdNameIndexReadOnceForTheFleet(t *testing.T) {
	for _, readerFails := range []bool{false, true} {
		m := miniredis.RunT(t)
		c := Caller{KeyHash: "k", AccountID: 1}
		ctx := context.Background()
		store := fleetStore(t, m)
		store.KeyAccepted(ctx, "k", time.Hour)
		fa, fb := newNameFake(manyApps(3*PageSize)), newNameFake(manyApps(3*PageSize))
		fa.gate = make(chan struct{})
		a := New(fa, Options{SharedCache: fleetStore(t, m)})
		b := New(fb, Options{SharedCache: fleetStore(t, m)})
		aCtx, failA := context.WithCancel(ctx)
		defer failA()
		aDone := make(chan error, 1)
		go func() {
			_, _, err := a.nameIndex(aCtx, c)
			aDone <- err
		}()
		for fa.count("AppNamePage") != indexPages(0) { // a's read is under way, held at its first pages
			runtime.Gosched()
		}
		bDone := make(chan int, 1)
		go func() {
			es, _, err := b.nameIndex(ctx, c)
			if err != nil {
				t.Errorf("b: %v", err)
			}
			bDone <- len(es)
		}()
		for b.index.Stats().ColdWaiting != 1 { // b's cold read has begun
			runtime.Gosched()
		}
		if readerFails {
			failA()
		}
		close(fa.gate)
		if err := <-aDone; (err != nil) != readerFails {
			t.Fatalf("readerFails=%v: a's read: %v", readerFails, err)
		}
		if n := <-bDone; n != 3*PageSize {
			t.Fatalf("readerFails=%v: b served %d entries, want %d", readerFails, n, 3*PageSize)
		}
		if readerFails {
			if fullReads(fb) != indexPages(3*PageSize) {
				t.Errorf("b read %d pages after a's read failed, want the whole %d", fullReads(fb), indexPages(3*PageSize))
			}
			continue
		}
		if fullReads(fa) != indexPages(3*PageSize) || fullReads(fb) != 0 {
			t.Errorf("a read %d pages, b %d; want %d and 0", fullReads(fa), fullReads(fb), indexPages(3*PageSize))
		}
	}
}
