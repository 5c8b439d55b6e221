package fleet

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// A window's key outlives the window by one second, so a call at its last instant still
// finds the count.
func TestAllowKeyOutlivesWindow(t *testing.T) {
	m := miniredis.RunT(t)
	s := open(t, m)
	start := time.Unix(1_800_000_000, 0)
	if ok, _, err := s.Allow(context.Background(), "h", 5, start, time.Minute, 0); !ok || err != nil {
		t.Fatalf("allow: %v %v", ok, err)
	}
	if ttl := m.TTL("t:rl:h:" + itoa(start.Unix())); ttl != 61*time.Second {
		t.Fatalf("window key ttl %v, want 61s", ttl)
	}
}

// A failed window script returns its own error (and the store keeps it as its status),
// not redis.Nil.
func TestAllowScriptError(t *testing.T) {
	m := miniredis.RunT(t)
	s := bareStore(t, m)
	start := time.Unix(1_800_000_000, 0)
	m.HSet("t:rl:h:1800000000", "f", "v") // the window's key of another type
	ok, count, err := s.Allow(context.Background(), "h", 5, start, time.Minute, 0)
	if ok || count != 0 || err == nil || errors.Is(err, redis.Nil) || !strings.Contains(err.Error(), "WRONGTYPE") {
		t.Fatalf("Allow = %v, %d, %v; want false, 0 and the script's WRONGTYPE error", ok, count, err)
	}
	if st := s.Status(); st == nil || st.Error() != err.Error() {
		t.Fatalf("status %v, want %v", st, err)
	}
}

// A store that restarted empty takes the replica's own count of the window as a floor:
// the window goes on from there for every replica, not from full.
func TestAllowTakesTheReplicaCountAsFloor(t *testing.T) {
	m := miniredis.RunT(t)
	s := open(t, m)
	start := time.Unix(1_800_000_000, 0)
	ok, count, err := s.Allow(context.Background(), "h", 1000, start, time.Minute, 141)
	if !ok || count != 142 || err != nil {
		t.Fatalf("Allow from floor 141 = %v, %d, %v; want true, 142", ok, count, err)
	}
	// another replica, which saw fewer, counts on from the store's figure
	if _, count, _ = s.Allow(context.Background(), "h", 1000, start, time.Minute, 3); count != 143 {
		t.Fatalf("second replica's call counted %d, want 143", count)
	}
	if ok, _, _ = s.Allow(context.Background(), "h", 5, start, time.Minute, 0); ok {
		t.Fatal("a call past the limit was allowed")
	}
}
