package state

import (
	"reflect"
	"time"
)

// Caches bounded in bytes: go-cache counts entries, and one entry
// may be a 200-application document or a fully read list of thousands, so a bound on
// entries alone does not bound memory under GOMEMLIMIT. Each entry's size is
// estimated when it is stored (a walk of the value; stores happen only after a
// NerdGraph round trip, so the walk is cheap beside it) and the cache evicts entries
// until a new one fits.

// DefaultCacheMaxBytes is the default byte bound of each translator cache.
const DefaultCacheMaxBytes = 32 << 20

// LimitBytes bounds the estimated bytes the cache holds (0: no byte bound). Call it
// before the cache is used.
func (c *Cache) LimitBytes(n int64) {
	if c != nil {
		c.maxBytes = max(n, 0)
	}
}

// entryOverhead approximates go-cache's per-entry cost (map slot, Item, expiry).
const entryOverhead = 64

// Sizer is a value that gives its own estimated size in bytes, instead of the walk of
// sizeOf: one holding references the walk must not follow (another cache, say).
type Sizer interface{ CacheSize() int64 }

// item is a stored value with its estimated size (0 without a byte bound) and, with a
// clock (UseClock), when it expires on that clock (Unix nanoseconds; 0: never). Each
// Set stores a new one, so its address names the entry (Stamp).
type item struct {
	v       any
	n       int64
	expires int64
}

// setSized stores v under key within the byte bound: an entry larger than the whole
// bound is not stored; otherwise expired entries, then others, are evicted until it
// fits.
func (c *Cache) setSized(key string, v any, d time.Duration) {
	var n int64
	if sz, ok := v.(Sizer); ok {
		n = int64(len(key)) + entryOverhead + sz.CacheSize()
	} else {
		n = int64(len(key)) + entryOverhead + sizeOf(reflect.ValueOf(v), 0)
	}
	if n > c.maxBytes {
		c.evicted.Add(1)
		return
	}
	c.c.Delete(key) // an overwrite does not call OnEvicted: account for the old entry
	if c.used.Load()+n > c.maxBytes {
		c.c.DeleteExpired()
	}
	if c.used.Load()+n > c.maxBytes {
		for k := range c.c.Items() {
			c.c.Delete(k)
			c.evicted.Add(1)
			if c.used.Load()+n <= c.maxBytes {
				break
			}
		}
	}
	c.used.Add(n)
	c.c.Set(key, &item{v: v, n: n, expires: c.expiry(d)}, d)
}

// Bytes is the estimated size of the entries held.
func (c *Cache) Bytes() int64 {
	if c == nil {
		return 0
	}
	return c.used.Load()
}

// Evictions counts the entries evicted to make room, or not stored for lack of it.
func (c *Cache) Evictions() int64 {
	if c == nil {
		return 0
	}
	return c.evicted.Load()
}

// maxSizeDepth bounds the walk of sizeOf (cached values are trees of documents).
const maxSizeDepth = 16

// sizeOf estimates the bytes v holds beyond its own header: strings' and slices'
// backing arrays, what pointers and interfaces point to, and map entries, recursively.
// Shared pointers are counted each time they are reached (an overestimate).
func sizeOf(v reflect.Value, depth int) int64 {
	if !v.IsValid() || depth > maxSizeDepth {
		return 0
	}
	switch v.Kind() {
	case reflect.String:
		return int64(v.Len())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		return int64(e.Type().Size()) + sizeOf(e, depth+1)
	case reflect.Slice:
		if v.IsNil() {
			return 0
		}
		n := int64(v.Cap()) * int64(v.Type().Elem().Size())
		if hasIndirect(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				n += sizeOf(v.Index(i), depth+1)
			}
		}
		return n
	case reflect.Array:
		var n int64
		if hasIndirect(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				n += sizeOf(v.Index(i), depth+1)
			}
		}
		return n
	case reflect.Struct:
		var n int64
		for i := 0; i < v.NumField(); i++ {
			n += sizeOf(v.Field(i), depth+1)
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		kt, et := v.Type().Key(), v.Type().Elem()
		n := int64(v.Len()) * int64(kt.Size()+et.Size()+8)
		if hasIndirect(kt) || hasIndirect(et) {
			it := v.MapRange()
			for it.Next() {
				n += sizeOf(it.Key(), depth+1) + sizeOf(it.Value(), depth+1)
			}
		}
		return n
	}
	return 0
}

// hasIndirect reports whether values of t may hold memory beyond their own size.
func hasIndirect(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		return true
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasIndirect(t.Field(i).Type) {
				return true
			}
		}
	case reflect.Array:
		return hasIndirect(t.Elem())
	}
	return false
}
