package fleet

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
)

// Tests written for the survivors of the translate tree's mutation run (issue 22,
// fourth pass at 5855b87): Open's options, Status, the subscription loop, parseCount,
// the write counts, the rate-limit error, and the shared cache's counters and bound.
//
// Equivalent survivors (package fleet):
//   - usage.go:63:28 ARITHMETIC_BASE (`3+6*len(deltas)` → `3+6/len(deltas)`, the
//     capacity of AddUsage's argument slice): deltas is not empty there (an empty push
//     returns first), so the capacity stays positive and append grows the slice to the
//     same arguments.

// bareStore is a Store on m without Open's background work (no subscription, no
// probe), so a test alone decides which calls reach the server.
func bareStore(t *testing.T, m *miniredis.Miniredis) *Store {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	return &Store{rdb: rdb, prefix: "t:", timeout: time.Second, log: zap.NewNop(), pending: map[int64]uint64{}}
}

// store.go:76 and :79 CONDITIONALS_NEGATION (`opts.Username != ""`, `opts.Password !=
// ""`): credentials given in the options replace the URL's, and absent ones leave the
// URL's; store.go:92 INVERT_NEGATIVES and ARITHMETIC_BASE (`MaxRetries = -1`): a failed
// call is not retried (go-redis keeps -1 as 0 retries; 1 would be one retry).
func TestOpenOptionsMut(t *testing.T) {
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

// store.go:121 CONDITIONALS_NEGATION (`p != nil` in Status): a down store says why, the
// last failure's text; "unreachable" only when none was recorded.
func TestStatusSaysWhyMut(t *testing.T) {
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

// store.go:154 CONDITIONALS_NEGATION (`ctx.Err() != nil` in run): the subscription
// loop keeps receiving after the subscription's confirmation, so a published count
// that the stored hash does not hold (the probe's reload cannot find it) reaches the
// watchers, and the store's Done stays open until Close.
func TestRunKeepsReceivingMut(t *testing.T) {
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

// store.go:219 CONDITIONALS_NEGATION ×2 (`err1 == nil && err2 == nil` in parseCount):
// a message is a count only when both sides are numbers.
func TestParseCountMut(t *testing.T) {
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

// writes.go:67 CONDITIONALS_NEGATION (`err != nil` in publishBump): BumpWrites returns
// the fleet's new count.
func TestBumpWritesCountMut(t *testing.T) {
	m := miniredis.RunT(t)
	s := bareStore(t, m)
	ctx := context.Background()
	for want := uint64(1); want <= 3; want++ {
		if n, err := s.BumpWrites(ctx, 9); n != want || err != nil {
			t.Fatalf("bump %d: %d, %v", want, n, err)
		}
	}
	if v := m.HGet("t:writes", "9"); v != "3" {
		t.Fatalf("stored count %q", v)
	}
}

// writes.go:101 CONDITIONALS_NEGATION (`ctx.Err() == nil` in reload): a reload that
// fails while the store's work goes on is a store failure (counted, the store down
// with its reason); one cut short by the end of that work is not.
func TestReloadFailureMut(t *testing.T) {
	m := miniredis.RunT(t)
	if err := m.Set("t:writes", "not a hash"); err != nil {
		t.Fatal(err)
	}
	s := bareStore(t, m)
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	s.reload(ended)
	if s.Errors() != 0 || s.Status() != nil {
		t.Fatalf("a reload after the end: %d errors, status %v", s.Errors(), s.Status())
	}
	s.reload(context.Background())
	if err := s.Status(); s.Errors() != 1 || err == nil || !strings.Contains(err.Error(), "WRONGTYPE") {
		t.Fatalf("a failed reload: %d errors, status %v", s.Errors(), err)
	}
}

// ratelimit.go:40 CONDITIONALS_NEGATION (`err == nil` in Allow): a failed window
// script returns its own error (and the store keeps it as its status), not redis.Nil.
func TestAllowScriptErrorMut(t *testing.T) {
	m := miniredis.RunT(t)
	s := bareStore(t, m)
	start := time.Unix(1_800_000_000, 0)
	m.HSet("t:rl:h:1800000000", "f", "v") // the window's key of another type
	ok, count, err := s.Allow(context.Background(), "h", 5, start, time.Minute)
	if ok || count != 0 || err == nil || errors.Is(err, redis.Nil) || !strings.Contains(err.Error(), "WRONGTYPE") {
		t.Fatalf("Allow = %v, %d, %v; want false, 0 and the script's WRONGTYPE error", ok, count, err)
	}
	if st := s.Status(); st == nil || st.Error() != err.Error() {
		t.Fatalf("status %v, want %v", st, err)
	}
}

// cache.go:85 CONDITIONALS_NEGATION (`s != nil` in SharesCache): a store opened with
// Options.Cache shares the cache; one without, or none, does not.
func TestSharesCacheMut(t *testing.T) {
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

// cache.go:143 CONDITIONALS_BOUNDARY ×2 (`ttl > 0 && authLeft > 0` in GetCached): an
// entry with 0 ms left, or a key whose fleet acceptance has 0 ms left, is a miss, not
// a hit (PTTL rounds below a millisecond down to 0).
func TestGetCachedZeroLeftMut(t *testing.T) {
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

// cache.go:181 CONDITIONALS_BOUNDARY (`n > MaxEntryBytes` in SetCached): an entry of
// exactly MaxEntryBytes (its store key and value) is written; one byte more is not.
func TestSetCachedEntryBoundMut(t *testing.T) {
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
