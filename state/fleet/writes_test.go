package fleet

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/alicebob/miniredis/v2"
)

// BumpWrites returns the fleet's new count.
func TestBumpWritesCount(t *testing.T) {
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

// A reload that fails while the store's work goes on is a store failure (counted, the
// store down with its reason); one cut short by the end of that work is not.
func TestReloadFailure(t *testing.T) {
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

// A replica that joins a fleet knows the fleet's write counts once Open and WatchWrites
// have returned, before it serves a request: its cached reads of an account written to
// earlier are keyed by the fleet's count at once, never by a count of 0 that would find
// answers stored before those writes.
func TestJoiningReplicaKnowsWriteCountsBeforeItServes(t *testing.T) {
	m := miniredis.RunT(t)
	m.HSet("t:writes", "9", "4")
	m.HSet("t:writes", "12", "1")
	s, err := Open(Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mu sync.Mutex
	got := map[int64]uint64{}
	s.WatchWrites(func(account int64, count uint64) {
		mu.Lock()
		defer mu.Unlock()
		got[account] = max(got[account], count)
	})
	mu.Lock()
	defer mu.Unlock()
	if got[9] != 4 || got[12] != 1 {
		t.Fatalf("counts heard when WatchWrites returned: %v, want 9=4 12=1", got)
	}
}
