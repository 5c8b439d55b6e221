package state

import (
	"strings"
	"sync/atomic"
	"time"

	gocache "github.com/patrickmn/go-cache"
)

// Cache is a go-cache with a bound on the number of entries and, when maxBytes is set,
// on the estimated bytes held (cachebytes.go): go-cache itself is unbounded, so a Set
// beyond the entry bound first drops expired entries and, if still full, is skipped
// (the value is recomputed next time); a Set beyond the byte bound evicts entries
// until the new one fits. Keys start with the caller's key hash and "|": the
// revocation check (CheckKeys) and DropKey read it there.
type Cache struct {
	c        *gocache.Cache
	max      int
	name     string
	observe  func(cache string, hit bool)
	maxBytes int64 // 0: no byte bound
	used     atomic.Int64
	evicted  atomic.Int64 // entries evicted for room or not stored for lack of it
	ttl      time.Duration
	// fresh, when set, says whether an entry may be served to its key hash;
	// fleetAccepted takes the fleet's acceptance of a key hash, with the time it has
	// left, as this replica's (see CheckKeys).
	fresh         func(keyHash string) bool
	fleetAccepted func(keyHash string, left time.Duration)
	// shared, with codec, keeps the entries in the fleet's store too (cachefleet.go).
	shared SharedCache
	codec  Codec
	// now, when set, is the clock the entries' lifetimes run on (UseClock).
	now func() time.Time
}

// NewCache returns a cache named name (for metrics) whose entries live for ttl,
// holding at most max entries; observe, if not nil, hears of every hit and miss.
func NewCache(name string, ttl time.Duration, max int, observe func(cache string, hit bool)) *Cache {
	c := &Cache{c: gocache.New(ttl, 2*ttl), max: max, name: name, observe: observe, ttl: ttl}
	c.c.OnEvicted(func(_ string, v any) {
		if e, ok := v.(*item); ok {
			c.used.Add(-e.n)
		}
	})
	return c
}

// CheckKeys makes every hit pass the revocation check: an entry is served only when
// fresh(its key hash) holds. fleetAccepted hears of the fleet's acceptance of a key
// hash (with the time it has left) when an entry is read from the fleet's store.
// Call it before the cache is used.
func (c *Cache) CheckKeys(fresh func(keyHash string) bool, fleetAccepted func(keyHash string, left time.Duration)) {
	if c != nil {
		c.fresh, c.fleetAccepted = fresh, fleetAccepted
	}
}

// Name is the cache's name ("" for a nil cache).
func (c *Cache) Name() string {
	if c == nil {
		return ""
	}
	return c.name
}

// Get returns the cached value of key: this replica's, else the fleet's store's (when
// the cache is shared).
func (c *Cache) Get(key string) (any, bool) { return c.get(key, true) }

// GetLocal is Get without the fleet's store: for a scan over many keys, each of which
// would otherwise cost a store round trip when missing here.
func (c *Cache) GetLocal(key string) (any, bool) { return c.get(key, false) }

func (c *Cache) get(key string, shared bool) (any, bool) {
	v, _, ok := c.getStamped(key, shared)
	return v, ok
}

// Stamp names the entry a read served: a later Set of the key stores another entry,
// even of an equal value at the same instant.
type Stamp struct {
	e       *item
	expires int64 // Unix nanoseconds
}

// Expires is when the entry expires (zero for no entry).
func (s Stamp) Expires() time.Time {
	if s.e == nil {
		return time.Time{}
	}
	return time.Unix(0, s.expires)
}

// GetStamped is Get with the stamp of the entry this replica's memory answered from,
// so Holds says later whether a Get would still read that entry. An answer from the
// fleet's store has the zero Stamp, which never holds.
func (c *Cache) GetStamped(key string) (v any, s Stamp, ok bool) {
	return c.getStamped(key, true)
}

func (c *Cache) getStamped(key string, shared bool) (v any, s Stamp, ok bool) {
	if c == nil {
		return nil, Stamp{}, false
	}
	v, exp, ok := c.c.GetWithExpiration(key)
	e, _ := v.(*item)
	if e != nil {
		v = e.v
	}
	if ok && c.expired(e) {
		v, e, ok = nil, nil, false
	}
	if ok && c.fresh != nil {
		// Revocation: an answer is served only to a key NerdGraph accepted within the
		// auth TTL; past it, the caller's next call goes upstream and re-proves the key.
		keyHash, _, _ := strings.Cut(key, "|")
		ok = c.fresh(keyHash)
	}
	if ok && e != nil && !exp.IsZero() {
		s = Stamp{e: e, expires: exp.UnixNano()}
	}
	if !ok && shared && c.shared != nil {
		v, ok = c.getShared(key)
	}
	if c.observe != nil {
		c.observe(c.name, ok)
	}
	return v, s, ok
}

// Holds reports whether key still holds the entry stamped s (not expired, not
// replaced, its key hash still fresh). The zero Stamp never holds.
func (c *Cache) Holds(key string, s Stamp) bool {
	if c == nil || s.e == nil {
		return false
	}
	v, ok := c.c.Get(key)
	if !ok || v != any(s.e) || c.expired(s.e) {
		return false
	}
	if c.fresh != nil {
		keyHash, _, _ := strings.Cut(key, "|")
		return c.fresh(keyHash)
	}
	return true
}

// Set stores v under key with the cache's default lifetime.
func (c *Cache) Set(key string, v any) {
	if c == nil {
		return
	}
	c.setLocal(key, v, gocache.DefaultExpiration)
	if c.shared != nil {
		c.setShared(key, v)
	}
}

// SetLocal stores v under key in this replica's memory only, with the cache's default
// lifetime: for marks that are this replica's own (what it holds locally), never shared.
func (c *Cache) SetLocal(key string, v any) {
	if c != nil {
		c.setLocal(key, v, gocache.DefaultExpiration)
	}
}

// SetLocalFor is SetLocal with a lifetime of its own, ttl.
func (c *Cache) SetLocalFor(key string, v any, ttl time.Duration) {
	if c != nil {
		c.setLocal(key, v, ttl)
	}
}

// setLocal stores v under key in this replica's memory for d (DefaultExpiration: the
// cache's lifetime).
func (c *Cache) setLocal(key string, v any, d time.Duration) {
	if c.c.ItemCount() >= c.max {
		c.c.DeleteExpired()
		if c.c.ItemCount() >= c.max {
			c.evicted.Add(1)
			return
		}
	}
	if c.maxBytes > 0 {
		c.setSized(key, v, d)
		return
	}
	c.c.Set(key, &item{v: v, expires: c.expiry(d)}, d)
}

// Len is the number of entries held (expired ones included until swept).
func (c *Cache) Len() int {
	if c == nil {
		return 0
	}
	return c.c.ItemCount()
}

// DropKey deletes every entry whose key belongs to keyHash.
func (c *Cache) DropKey(keyHash string) {
	if c == nil {
		return
	}
	prefix := keyHash + "|"
	for k := range c.c.Items() {
		if strings.HasPrefix(k, prefix) {
			c.c.Delete(k)
		}
	}
}

// Delete drops key's entry from this replica's memory.
func (c *Cache) Delete(key string) {
	if c != nil {
		c.c.Delete(key)
	}
}

// TTL is the lifetime of the cache's entries.
func (c *Cache) TTL() time.Duration { return c.ttl }

// MaxEntries is the cache's bound on the number of entries.
func (c *Cache) MaxEntries() int { return c.max }

// MaxBytes is the cache's bound on the estimated bytes held (0: none).
func (c *Cache) MaxBytes() int64 { return c.maxBytes }

// UseClock makes the entries' lifetimes run on now as well: an entry is served until
// its lifetime has passed on now (and on the wall clock, which also sweeps it from
// memory). Tests move now to cross a TTL. Call it before the cache is used.
func (c *Cache) UseClock(now func() time.Time) {
	if c != nil {
		c.now = now
	}
}

// expiry is when an entry stored now for d (gocache.DefaultExpiration: the cache's
// lifetime) expires on the cache's clock, in Unix nanoseconds; 0 without a clock or
// a lifetime.
func (c *Cache) expiry(d time.Duration) int64 {
	if c.now == nil {
		return 0
	}
	if d == gocache.DefaultExpiration {
		d = c.ttl
	}
	if d <= 0 {
		return 0
	}
	return c.now().Add(d).UnixNano()
}

// expired reports whether e's lifetime has passed on the cache's clock.
func (c *Cache) expired(e *item) bool {
	return e != nil && e.expires != 0 && c.now != nil && c.now().UnixNano() >= e.expires
}
