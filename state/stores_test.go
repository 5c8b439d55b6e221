package state

import (
	"testing"
	"time"
)

// Only a negative TTL switches an optional cache off; a TTL of 0 is a cache (go-cache: no
// expiry).
func TestOptionalCache(t *testing.T) {
	o := StoresOptions{MaxEntries: 3}
	if c := optionalCache("x", -time.Second, o); c != nil {
		t.Fatal("a negative ttl gave a cache")
	}
	for _, ttl := range []time.Duration{0, time.Second} {
		c := optionalCache("x", ttl, o)
		if c == nil || c.TTL() != ttl || c.MaxEntries() != 3 || c.Name() != "x" {
			t.Fatalf("ttl %v: cache %+v", ttl, c)
		}
	}
}
