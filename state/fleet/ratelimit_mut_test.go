package fleet

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// ratelimit.go:36 ARITHMETIC_BASE (ttl := length + time.Second): a window's key outlives
// the window by one second, so a call at its last instant still finds the count.
func TestAllowKeyOutlivesWindowMut(t *testing.T) {
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
