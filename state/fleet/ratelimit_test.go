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
	if ok, _, err := s.Allow(context.Background(), "h", 5, start, time.Minute); !ok || err != nil {
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
	ok, count, err := s.Allow(context.Background(), "h", 5, start, time.Minute)
	if ok || count != 0 || err == nil || errors.Is(err, redis.Nil) || !strings.Contains(err.Error(), "WRONGTYPE") {
		t.Fatalf("Allow = %v, %d, %v; want false, 0 and the script's WRONGTYPE error", ok, count, err)
	}
	if st := s.Status(); st == nil || st.Error() != err.Error() {
		t.Fatalf("status %v, want %v", st, err)
	}
}
