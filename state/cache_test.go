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

// A stamped read holds while its key still has the same entry: a new Set of the key
// (even of an equal value), a Delete or its key hash going stale ends it, and an
// answer from the fleet's store has no stamp to hold.
func TestStampedEntryHolds(t *testing.T) {
	tests := []struct {
		name  string
		after func(c *Cache, fresh *bool)
		want  bool
	}{
		{"untouched", func(*Cache, *bool) {}, true},
		{"another key set", func(c *Cache, _ *bool) { c.Set("kh|1|other", 2) }, true},
		{"set again", func(c *Cache, _ *bool) { c.Set("kh|1|x", 1) }, false},
		{"deleted", func(c *Cache, _ *bool) { c.Delete("kh|1|x") }, false},
		{"key dropped", func(c *Cache, _ *bool) { c.DropKey("kh") }, false},
		{"key no longer fresh", func(_ *Cache, fresh *bool) { *fresh = false }, false},
	}
	for _, bounded := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				c := NewCache("t", time.Hour, 10, nil)
				if bounded {
					c.LimitBytes(1 << 20)
				}
				fresh := true
				c.CheckKeys(func(string) bool { return fresh }, nil)
				c.Set("kh|1|x", 1)
				v, stamp, ok := c.GetStamped("kh|1|x")
				if !ok || v != 1 || stamp.Expires().IsZero() || !c.Holds("kh|1|x", stamp) {
					t.Fatalf("read: %v %v stamp %v", v, ok, stamp)
				}
				tt.after(c, &fresh)
				if got := c.Holds("kh|1|x", stamp); got != tt.want {
					t.Fatalf("holds %v, want %v", got, tt.want)
				}
			})
		}
	}
	s := &store{val: map[string][]byte{}}
	a, b := NewCache("ids", time.Minute, 10, nil), NewCache("ids", time.Minute, 10, nil)
	a.Share(s, intsCodec)
	b.Share(s, intsCodec)
	a.Set("kh|1|x", []int{1})
	if v, stamp, ok := b.GetStamped("kh|1|x"); !ok || len(v.([]int)) != 1 || stamp != (Stamp{}) || b.Holds("kh|1|x", stamp) {
		t.Fatalf("from the store: %v %v stamp %v", v, ok, stamp)
	}
}

// sizedValue states its own size.
type sizedValue struct{ other *Cache }

func (sizedValue) CacheSize() int64 { return 1000 }

// A value that states its size (Sizer) is counted as it says, and the walk does not
// follow what it holds (here another cache).
func TestSizerStatesItsSize(t *testing.T) {
	c := NewCache("t", time.Hour, 10, nil)
	c.LimitBytes(1 << 20)
	c.Set("kh|x", sizedValue{other: NewCache("other", time.Hour, 10, nil)})
	if got, want := c.Bytes(), int64(len("kh|x"))+entryOverhead+1000; got != want {
		t.Fatalf("bytes %d, want %d", got, want)
	}
}
