package translate

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
