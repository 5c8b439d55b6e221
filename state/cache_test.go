package state

import (
	"reflect"
	"testing"
	"time"
)

// A full cache keeps its entries, drops the new one and counts it.
func TestCacheEntryBound(t *testing.T) {
	c := NewCache("t", time.Hour, 2, nil)
	c.Set("a|1|x", 1)
	c.Set("a|1|y", 2)
	if c.Evictions() != 0 || c.Len() != 2 {
		t.Fatalf("under the bound: %d evictions, %d entries", c.Evictions(), c.Len())
	}
	c.Set("a|1|z", 3)
	if _, ok := c.Get("a|1|z"); ok || c.Evictions() != 1 || c.Len() != 2 {
		t.Fatalf("over the bound: stored %v, %d evictions, %d entries", ok, c.Evictions(), c.Len())
	}
}

// Every cache sweeps expired entries every two TTLs, so expired answers do not stay in
// memory, and in the byte count, until read or evicted for room.
func TestCacheJanitor(t *testing.T) {
	if got := janitorInterval(t, NewCache("lists", time.Minute, 10, nil).c); got != 2*time.Minute {
		t.Fatalf("janitor interval %v, want 2m", got)
	}
}

// janitorInterval is the cleanup interval of a go-cache cache (0: no janitor).
func janitorInterval(t *testing.T, c any) time.Duration {
	t.Helper()
	v := reflect.ValueOf(c).Elem().Field(0) // *cache
	if v.Kind() != reflect.Pointer || v.IsNil() {
		t.Fatalf("go-cache layout changed: %v", v.Kind())
	}
	j := v.Elem().FieldByName("janitor")
	if !j.IsValid() {
		t.Fatal("go-cache layout changed: no janitor field")
	}
	if j.IsNil() {
		return 0
	}
	return time.Duration(j.Elem().FieldByName("Interval").Int())
}
