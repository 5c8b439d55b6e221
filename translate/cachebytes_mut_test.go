package translate

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Tests of the byte-bounded caches (cachebytes.go) written for the survivors of the
// mutation run (issue 22): the eviction steps of setSized and the exact estimates of
// sizeOf and hasIndirect.

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

// cachebytes.go:37 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (`used+n > max`):
// an entry that fits exactly does not sweep the expired ones; cachebytes.go:37
// ARITHMETIC_BASE (`used+n` → `used-n`): one that does not fit first sweeps the
// expired entries, and evicts nothing live when that makes room; cachebytes.go:44
// ARITHMETIC_BASE (`used+n <= max` → `used-n`): eviction goes on until the entry fits.
func TestSetSizedStepsMut(t *testing.T) {
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

// The recursive shapes of TestSizeOfDepthMut: each holds the leaf string s deep down.
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

// cachebytes.go:76 CONDITIONALS_BOUNDARY (`depth > maxSizeDepth` → `>=`): a string
// reached at depth 16 is counted, one at 17 is not; cachebytes.go:87, :95, :110, :122
// (key, :36, and value, :62) ARITHMETIC_BASE (`depth+1` → `depth-1` in the pointer,
// slice, struct and map steps): every step goes one level down, so a leaf past the
// bound through any of them is not counted.
func TestSizeOfDepthMut(t *testing.T) {
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

// cachebytes.go:102 INCREMENT_DECREMENT (`i++` → `i--` over an array), :118
// ARITHMETIC_BASE ×3 (a map's entries: len × (key + value + 8)), :122 ARITHMETIC_BASE
// (`sizeOf(key) + sizeOf(value)` → `-`), :136 CONDITIONALS_BOUNDARY and
// CONDITIONALS_NEGATION (hasIndirect's walk over a struct's fields): exact estimates.
func TestSizeOfExactMut(t *testing.T) {
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
