package fleet

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
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
		ok, count, err := tc.s.Allow(ctx, "hash", 3, start, time.Minute, 0)
		if err != nil || ok != tc.ok || count != tc.count {
			t.Fatalf("call %d: ok %v count %d err %v, want %v %d", i, ok, count, err, tc.ok, tc.count)
		}
	}
	if ok, count, _ := a.Allow(ctx, "hash", 3, start.Add(time.Minute), time.Minute, 0); !ok || count != 1 {
		t.Fatalf("next window: %v %d", ok, count)
	}
	if ttl := m.TTL("t:rl:hash:" + itoa(start.Unix())); ttl <= 0 || ttl > 61*time.Second {
		t.Fatalf("window key ttl %s", ttl)
	}
	a.Forget(ctx, "hash", start)
	if ok, count, _ := b.Allow(ctx, "hash", 3, start, time.Minute, 0); !ok || count != 1 {
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
	// fails under load.
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
	if _, _, err := a.Allow(ctx, "h", 10, time.Now().Truncate(time.Minute), time.Minute, 0); err == nil {
		t.Fatal("Allow with the server down: no error")
	}
	start := time.Now()
	for range 100 {
		_, _, _ = a.Allow(ctx, "h", 10, time.Now().Truncate(time.Minute), time.Minute, 0)
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

// bareStore is a Store on m without Open's background work (no subscription, no
// probe), so a test alone decides which calls reach the server.
func bareStore(t *testing.T, m *miniredis.Miniredis) *Store {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	return &Store{rdb: rdb, prefix: "t:", timeout: time.Second, log: zap.NewNop(), pending: map[int64]uint64{}}
}

// Credentials given in the options replace the URL's, and absent ones leave the URL's;
// a failed call is not retried (go-redis keeps MaxRetries -1 as 0 retries).
func TestOpenOptions(t *testing.T) {
	m := miniredis.RunT(t)
	for _, tt := range []struct {
		user, pass         string
		wantUser, wantPass string
	}{{"", "", "urluser", "urlpass"}, {"envuser", "envpass", "envuser", "envpass"}, {"envuser", "", "envuser", "urlpass"}, {"", "envpass", "urluser", "envpass"}} {
		s, err := Open(Options{URL: "redis://urluser:urlpass@" + m.Addr(), Username: tt.user, Password: tt.pass, KeyPrefix: "t:"})
		if err != nil {
			t.Fatal(err)
		}
		o := s.rdb.Options()
		if o.Username != tt.wantUser || o.Password != tt.wantPass || o.MaxRetries != 0 {
			t.Errorf("options %q/%q: user %q, password %q, retries %d; want %q, %q, 0", tt.user, tt.pass, o.Username, o.Password, o.MaxRetries, tt.wantUser, tt.wantPass)
		}
		_ = s.Close()
	}
}

// A down store says why, the last failure's text; "unreachable" only when none was
// recorded.
func TestStatusSaysWhy(t *testing.T) {
	s := &Store{log: zap.NewNop()}
	if err := s.Status(); err != nil {
		t.Fatalf("an up store: %v", err)
	}
	s.down.Store(true)
	if err := s.Status(); err == nil || err.Error() != "unreachable" {
		t.Fatalf("down without a failure: %v", err)
	}
	s.fail(errors.New("dial tcp: connection refused"))
	if err := s.Status(); err == nil || err.Error() != "dial tcp: connection refused" || s.Errors() != 1 {
		t.Fatalf("down after a failure: %v (%d errors)", err, s.Errors())
	}
}

// The subscription loop keeps receiving after the subscription's confirmation, so a
// published count that the stored hash does not hold (the probe's reload cannot find
// it) reaches the watchers, and the store's Done stays open until Close.
func TestRunKeepsReceiving(t *testing.T) {
	m := miniredis.RunT(t)
	s := open(t, m)
	got := make(chan uint64, 16)
	s.WatchWrites(func(account int64, count uint64) {
		if account == 5 {
			select {
			case got <- count:
			default:
			}
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for m.PubSubNumSub("t:writes")["t:writes"] == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the store never subscribed")
		}
		runtime.Gosched()
	}
	m.Publish("t:writes", "5=3")
	select {
	case n := <-got:
		if n != 3 {
			t.Fatalf("watchers heard %d, want 3", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the published count never reached the watchers")
	}
	select {
	case <-s.Done():
		t.Fatal("Done closed before Close")
	default:
	}
}

// A message is a count only when both sides are numbers.
func TestParseCount(t *testing.T) {
	for _, tt := range []struct {
		in      string
		account int64
		count   uint64
		ok      bool
	}{{"5=7", 5, 7, true}, {"x=7", 0, 7, false}, {"5=x", 5, 0, false}, {"5=-1", 5, 0, false}, {"57", 0, 0, false}} {
		a, c, ok := parseCount(tt.in)
		if ok != tt.ok || (ok && (a != tt.account || c != tt.count)) {
			t.Errorf("parseCount(%q) = %d, %d, %v; want %d, %d, %v", tt.in, a, c, ok, tt.account, tt.count, tt.ok)
		}
	}
}
