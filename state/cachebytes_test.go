package state

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A cache bounded in bytes never holds more than its bound: storing more evicts (and
// counts) entries, an entry larger than the bound is not stored, and overwrites and
// deletes give their bytes back.
func TestCacheBoundedInBytes(t *testing.T) {
	const bound = 10 << 10
	c := NewCache("test", time.Minute, 1000, nil)
	c.maxBytes = bound
	value := strings.Repeat("x", 1000)
	for i := 0; i < 100; i++ {
		c.Set("k"+strconv.Itoa(i), value)
		if c.Bytes() > bound {
			t.Fatalf("after %d sets: %d bytes held, bound %d", i+1, c.Bytes(), bound)
		}
	}
	if c.Evictions() == 0 {
		t.Fatal("no evictions counted")
	}
	if v, ok := c.Get("k99"); !ok || v.(string) != value {
		t.Fatal("the newest entry is not held, or comes back wrapped")
	}
	before := c.Evictions()
	c.Set("huge", strings.Repeat("y", 2*bound))
	if _, ok := c.Get("huge"); ok || c.Evictions() != before+1 {
		t.Fatal("an entry larger than the bound was stored, or not counted")
	}
	used := c.Bytes()
	c.Set("k99", value) // overwrite: same size
	if c.Bytes() != used {
		t.Fatalf("overwrite changed the bytes held: %d → %d", used, c.Bytes())
	}
	c.c.Delete("k99")
	if c.Bytes() >= used {
		t.Fatalf("delete did not give bytes back: %d → %d", used, c.Bytes())
	}
}

func TestSizeOf(t *testing.T) {
	type doc struct {
		Name  string
		Tags  []string
		Inner *struct{ N []int64 }
	}
	d := doc{Name: strings.Repeat("n", 100), Tags: []string{strings.Repeat("t", 50), strings.Repeat("u", 50)},
		Inner: &struct{ N []int64 }{N: make([]int64, 100)}}
	got := sizeOf(reflect.ValueOf(d), 0)
	if min := int64(100 + 100 + 800); got < min || got > 4*min {
		t.Fatalf("sizeOf = %d, want about %d", got, min)
	}
	if sizeOf(reflect.ValueOf(nil), 0) != 0 {
		t.Fatal("sizeOf(nil) != 0")
	}
}

// byteCache is a cache of at most max bytes; every entry set by put has a one-byte key,
// so it takes 1 + entryOverhead + len(value) bytes.
func byteCache(max int64) *Cache {
	c := NewCache("t", time.Hour, 100, nil)
	c.maxBytes = max
	return c
}

// put stores a value of size bytes (key included) under the one-byte key k for d.
func put(c *Cache, k string, size int, d time.Duration) {
	c.setSized(k, strings.Repeat("v", size-1-entryOverhead), d)
}

// expire stores k for a nanosecond and returns once it has expired (go-cache reads the
// clock itself: there is no clock to inject, but an entry of 1 ns is expired by the
// next reading).
func expire(c *Cache, k string, size int) {
	put(c, k, size, time.Nanosecond)
	for {
		if _, ok := c.c.Get(k); !ok {
			return
		}
	}
}

// setSized's steps: an entry that fits exactly does not sweep the expired ones; one
// that does not fit first sweeps the expired entries, and evicts nothing live when
// that makes room; eviction goes on until the entry fits.
func TestSetSizedSteps(t *testing.T) {
	t.Run("fits exactly", func(t *testing.T) {
		c := byteCache(300)
		expire(c, "a", 100)
		put(c, "b", 200, 0)
		if c.Bytes() != 300 || c.c.ItemCount() != 2 || c.Evictions() != 0 {
			t.Fatalf("%d bytes, %d items, %d evictions; want 300, 2 (the expired one not swept), 0", c.Bytes(), c.c.ItemCount(), c.Evictions())
		}
	})
	t.Run("expired swept first", func(t *testing.T) {
		c := byteCache(300)
		expire(c, "a", 100)
		put(c, "c", 100, 0)
		put(c, "b", 200, 0)
		if _, ok := c.Get("c"); !ok || c.Bytes() != 300 || c.c.ItemCount() != 2 || c.Evictions() != 0 {
			t.Fatalf("c held %v, %d bytes, %d items, %d evictions; want true, 300, 2, 0", ok, c.Bytes(), c.c.ItemCount(), c.Evictions())
		}
	})
	t.Run("evicts until it fits", func(t *testing.T) {
		c := byteCache(300)
		for _, k := range []string{"a", "b", "c"} {
			put(c, k, 100, 0)
		}
		put(c, "d", 200, 0)
		if _, ok := c.Get("d"); !ok || c.Bytes() != 300 || c.c.ItemCount() != 2 || c.Evictions() != 2 {
			t.Fatalf("d held %v, %d bytes, %d items, %d evictions; want true, 300, 2, 2", ok, c.Bytes(), c.c.ItemCount(), c.Evictions())
		}
	})
}

// ptrChain is a value of k pointers to pointers to … to s.
func ptrChain(s string, k int) reflect.Value {
	v := reflect.ValueOf(s)
	for range k {
		p := reflect.New(v.Type())
		p.Elem().Set(v)
		v = p
	}
	return v
}

// The recursive shapes of TestSizeOfDepth: each holds the leaf string s deep down.
type (
	sizePtrNode struct { // struct → pointer → struct …
		p *sizePtrNode
		s string
	}
	sizeSliceNode struct { // struct → slice → struct …
		l []sizeSliceNode
		s string
	}
	sizeKeyNode struct { // struct → map → key pointer → struct …
		m map[*sizeKeyNode]int
		s string
	}
	sizeValNode struct { // struct → map → value pointer → struct …
		m map[int]*sizeValNode
		s string
	}
)

// sizeOf's depth bound: a string reached at depth 16 is counted, one at 17 is not;
// every pointer, slice, struct and map (key and value) step goes one level down, so a
// leaf past the bound through any of them is not counted.
func TestSizeOfDepth(t *testing.T) {
	const big = 1 << 20
	leaf := strings.Repeat("x", big)
	// k pointers: k-1 pointers and the string header below the first, and the leaf.
	for k, want := range map[int]int64{16: 15*8 + 16 + big, 17: 16*8 + 16} {
		if got := sizeOf(ptrChain(leaf, k), 0); got != want {
			t.Errorf("%d pointers: sizeOf %d, want %d", k, got, want)
		}
	}
	const levels = 10
	ptr := sizePtrNode{s: leaf}
	sl := sizeSliceNode{s: leaf}
	key := sizeKeyNode{s: leaf}
	val := sizeValNode{s: leaf}
	for range levels {
		p := ptr
		ptr = sizePtrNode{p: &p}
		sl = sizeSliceNode{l: []sizeSliceNode{sl}}
		k := key
		key = sizeKeyNode{m: map[*sizeKeyNode]int{&k: 1}}
		v := val
		val = sizeValNode{m: map[int]*sizeValNode{1: &v}}
	}
	for name, v := range map[string]any{"pointers": ptr, "slices": sl, "map keys": key, "map values": val} {
		if got := sizeOf(reflect.ValueOf(v), 0); got <= 0 || got >= big {
			t.Errorf("%s: sizeOf %d: the leaf %d levels down is counted (or nothing is)", name, got, levels)
		}
	}
}

// Exact estimates: an array's elements, a map's entries (len × (key + value + 8) plus
// what keys and values hold), and hasIndirect's walk over a struct's fields.
func TestSizeOfExact(t *testing.T) {
	type flat struct{ A, B int64 }
	type named struct{ S string }
	for _, tt := range []struct {
		name string
		v    any
		want int64
	}{
		{"array of strings", [2]string{"ab", "cde"}, 5},
		{"map of string to int", map[string]int64{"a": 1}, 16 + 8 + 8 + 1},
		{"map of string to string", map[string]string{"a": "bcd"}, 16 + 16 + 8 + 1 + 3},
		{"slice of flat structs", []flat{{1, 2}}, 16},
		{"slice of structs holding strings", []named{{"abcd"}}, 16 + 4},
		{"array of flat structs", [3]flat{}, 0},
	} {
		if got := sizeOf(reflect.ValueOf(tt.v), 0); got != tt.want {
			t.Errorf("%s: sizeOf %d, want %d", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct {
		v    any
		want bool
	}{{flat{}, false}, {named{}, true}, {struct {
		A int
		B []byte
	}{}, true}, {[2]flat{}, false}} {
		if got := hasIndirect(reflect.TypeOf(tt.v)); got != tt.want {
			t.Errorf("hasIndirect(%T) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

// A cache without a byte bound stores entries; an entry exactly the bound is stored,
// entries that exactly fill the bound are all kept, and a new one evicts only as many as
// it needs.
func TestCacheByteBoundEdges(t *testing.T) {
	lists := NewCache("lists", time.Minute, 10000, nil)
	lists.LimitBytes(-1) // a translator's Options.MaxCacheBytes of -1
	lists.Set("k|1|a", 1)
	if _, ok := lists.Get("k|1|a"); !ok {
		t.Fatal("a cache without a byte bound stored nothing")
	}
	size := func(key string, v any) int64 {
		c := NewCache("probe", time.Hour, 10, nil)
		c.maxBytes = 1 << 40
		c.Set(key, v)
		return c.Bytes()
	}
	n := size("k|1|a", 1) // every key below has the same length and value
	c := NewCache("t", time.Hour, 10, nil)
	c.maxBytes = n
	c.Set("k|1|a", 1)
	if _, ok := c.Get("k|1|a"); !ok || c.Evictions() != 0 {
		t.Fatalf("an entry of exactly the bound: stored %v, %d evictions", ok, c.Evictions())
	}
	c.maxBytes = 3 * n
	c.Set("k|1|b", 1)
	c.Set("k|1|c", 1)
	if c.Len() != 3 || c.Evictions() != 0 || c.Bytes() != 3*n {
		t.Fatalf("three entries filling the bound: %d held, %d evictions, %d bytes", c.Len(), c.Evictions(), c.Bytes())
	}
	c.Set("k|1|d", 1)
	if c.Len() != 3 || c.Evictions() != 1 || c.Bytes() != 3*n {
		t.Fatalf("a fourth entry: %d held, %d evictions, %d bytes", c.Len(), c.Evictions(), c.Bytes())
	}
	if _, ok := c.Get("k|1|d"); !ok {
		t.Fatal("the new entry was not stored")
	}
}
