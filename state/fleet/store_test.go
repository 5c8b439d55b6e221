package fleet

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

func open(t *testing.T, m *miniredis.Miniredis) *Store {
	t.Helper()
	s, err := Open(Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// The window script counts calls within the limit and refuses (without counting) the
// ones beyond it, across stores sharing the server.
func TestAllowFleetWindow(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := open(t, m), open(t, m)
	start := time.Now().Truncate(time.Minute)
	ctx := context.Background()
	for i, tc := range []struct {
		s     *Store
		ok    bool
		count int
	}{{a, true, 1}, {b, true, 2}, {a, true, 3}, {b, false, 3}, {a, false, 3}} {
		ok, count, err := tc.s.Allow(ctx, "hash", 3, start, time.Minute)
		if err != nil || ok != tc.ok || count != tc.count {
			t.Fatalf("call %d: ok %v count %d err %v, want %v %d", i, ok, count, err, tc.ok, tc.count)
		}
	}
	if ok, count, _ := a.Allow(ctx, "hash", 3, start.Add(time.Minute), time.Minute); !ok || count != 1 {
		t.Fatalf("next window: %v %d", ok, count)
	}
	if ttl := m.TTL("t:rl:hash:" + itoa(start.Unix())); ttl <= 0 || ttl > 61*time.Second {
		t.Fatalf("window key ttl %s", ttl)
	}
	a.Forget(ctx, "hash", start)
	if ok, count, _ := b.Allow(ctx, "hash", 3, start, time.Minute); !ok || count != 1 {
		t.Fatalf("after Forget: %v %d", ok, count)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Leases: at most n held across stores; a released lease is free at once, an
// unreleased one (a dead replica) when its ttl ends.
func TestLeases(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := open(t, m), open(t, m)
	ctx := context.Background()
	rel1, err := a.AcquireLease(ctx, "k", 2, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.AcquireLease(ctx, "k", 2, 300*time.Millisecond); err != nil { // never released: "dies"
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := b.AcquireLease(short, "k", 2, time.Second); err == nil {
		t.Fatal("a third lease of two was granted")
	}
	rel1()
	rel3, err := b.AcquireLease(ctx, "k", 2, time.Second)
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	defer rel3()
	start := time.Now()
	rel4, err := a.AcquireLease(ctx, "k", 2, time.Second) // waits for the dead one's ttl
	if err != nil {
		t.Fatal(err)
	}
	rel4()
	if waited := time.Since(start); waited > 2*time.Second {
		t.Fatalf("the dead replica's lease held %s", waited)
	}
}

// A bump through one store reaches the other's watcher (published), and a store that
// subscribes later catches up from the stored counts.
func TestWriteCounts(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := open(t, m), open(t, m)
	var mu sync.Mutex
	seen := map[int64]uint64{}
	b.WatchWrites(func(account int64, count uint64) {
		mu.Lock()
		seen[account] = max(seen[account], count)
		mu.Unlock()
	})
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(3 * time.Second)
		for {
			mu.Lock()
			done := ok()
			mu.Unlock()
			if done {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: seen %v", what, seen)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// Both stores subscribed (Open subscribes in the background): a fixed sleep here
	// failed under load (mutation runs).
	waitFor("subscribed", func() bool { return m.PubSubNumSub("t:writes")["t:writes"] >= 2 })
	for range 2 {
		if _, err := a.BumpWrites(context.Background(), 7); err != nil {
			t.Fatal(err)
		}
	}
	waitFor("published", func() bool { return seen[7] == 2 })
	c := open(t, m)
	var late uint64
	c.WatchWrites(func(account int64, count uint64) {
		mu.Lock()
		if account == 7 {
			late = count
		}
		mu.Unlock()
	})
	waitFor("caught up", func() bool { return late == 2 })
}

// A store that is down answers at once with an error (no wait on every call), counts
// it, says so in Status, keeps the writes made meanwhile and replays them when the
// server returns.
func TestStoreDown(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := open(t, m), open(t, m)
	var mu sync.Mutex
	var seen uint64
	b.WatchWrites(func(account int64, count uint64) {
		mu.Lock()
		seen = max(seen, count)
		mu.Unlock()
	})
	m.Close()
	ctx := context.Background()
	if _, _, err := a.Allow(ctx, "h", 10, time.Now().Truncate(time.Minute), time.Minute); err == nil {
		t.Fatal("Allow with the server down: no error")
	}
	start := time.Now()
	for range 100 {
		_, _, _ = a.Allow(ctx, "h", 10, time.Now().Truncate(time.Minute), time.Minute)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("100 calls on a down store took %s", d)
	}
	if a.Status() == nil || a.Errors() == 0 {
		t.Fatalf("status %v, errors %d", a.Status(), a.Errors())
	}
	if _, err := a.BumpWrites(ctx, 9); err == nil {
		t.Fatal("BumpWrites with the server down: no error")
	}
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := seen
		mu.Unlock()
		if got == 1 && a.Status() == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart: b saw %d, a's status %v", got, a.Status())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
