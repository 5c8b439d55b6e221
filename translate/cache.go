package translate

import (
	"sync"
	"sync/atomic"
	"time"

	gocache "github.com/patrickmn/go-cache"
)

// Cache is a go-cache with a bound on the number of entries: go-cache itself is
// unbounded, so a Set beyond the bound first drops expired entries and, if still
// full, is skipped (the value is recomputed next time). Keys are built by
// Caller.cacheKey, so they always start with the caller's identity.
type Cache struct {
	c       *gocache.Cache
	max     int
	name    string
	observe func(cache string, hit bool)
}

// NewCache returns a cache named name (for metrics) whose entries live for ttl,
// holding at most max entries; observe, if not nil, hears of every hit and miss.
func NewCache(name string, ttl time.Duration, max int, observe func(cache string, hit bool)) *Cache {
	return &Cache{c: gocache.New(ttl, 2*ttl), max: max, name: name, observe: observe}
}

// Get returns the cached value of key.
func (c *Cache) Get(key string) (any, bool) {
	if c == nil {
		return nil, false
	}
	v, ok := c.c.Get(key)
	if c.observe != nil {
		c.observe(c.name, ok)
	}
	return v, ok
}

// Set stores v under key with the cache's default lifetime.
func (c *Cache) Set(key string, v any) {
	if c == nil {
		return
	}
	if c.c.ItemCount() >= c.max {
		c.c.DeleteExpired()
		if c.c.ItemCount() >= c.max {
			return
		}
	}
	c.c.SetDefault(key, v)
}

// Len is the number of entries held (expired ones included until swept).
func (c *Cache) Len() int {
	if c == nil {
		return 0
	}
	return c.c.ItemCount()
}

// accountWrites counts the writes made through this gateway per account. The cached
// reads a write can change (application shows, filtered application lists, browser
// application lists) carry their account's count in their keys, taken before the read
// goes upstream: after a write, every caller of the account reads afresh, and a read
// that raced the write stores its answer under the old count, where nothing finds it
// again (it expires with its TTL). Only accounts that were written to are kept.
type accountWrites struct{ m sync.Map } // account id (int64) → *atomic.Uint64

// gen is account's write count.
func (w *accountWrites) gen(account int64) uint64 {
	if v, ok := w.m.Load(account); ok {
		return v.(*atomic.Uint64).Load()
	}
	return 0
}

// bump records a write to account.
func (w *accountWrites) bump(account int64) {
	v, _ := w.m.LoadOrStore(account, new(atomic.Uint64))
	v.(*atomic.Uint64).Add(1)
}

// writeScoped is a cache key of c for kind, valid until the next write to c's account.
func (t *Translator) writeScoped(c Caller, kind string, parts ...string) string {
	return c.cacheKeyAt(kind, int64(t.writes.gen(c.AccountID)&(1<<62-1)), parts...)
}
