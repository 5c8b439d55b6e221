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
	c   *gocache.Cache
	max int
}

// NewCache returns a cache whose entries live for ttl, holding at most max entries.
func NewCache(ttl time.Duration, max int) *Cache {
	return &Cache{c: gocache.New(ttl, 2*ttl), max: max}
}

// Get returns the cached value of key.
func (c *Cache) Get(key string) (any, bool) {
	if c == nil {
		return nil, false
	}
	return c.c.Get(key)
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
