package translate

import (
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

// Delete drops key (after a write that changes what it holds).
func (c *Cache) Delete(key string) {
	if c != nil {
		c.c.Delete(key)
	}
}
