package translate

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	gocache "github.com/patrickmn/go-cache"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// Cache is a go-cache with a bound on the number of entries and, when maxBytes is set,
// on the estimated bytes held (cachebytes.go): go-cache itself is unbounded, so a Set
// beyond the entry bound first drops expired entries and, if still full, is skipped
// (the value is recomputed next time); a Set beyond the byte bound evicts entries
// until the new one fits. Keys are built by Caller.cacheKey, so they always start with
// the caller's identity.
type Cache struct {
	c        *gocache.Cache
	max      int
	name     string
	observe  func(cache string, hit bool)
	auth     *keyAuth // nil: no revocation check
	maxBytes int64    // 0: no byte bound
	used     atomic.Int64
	evicted  atomic.Int64 // entries evicted for room or not stored for lack of it
	ttl      time.Duration
	// shared, with codec, keeps the entries in the fleet's store too (cachefleet.go).
	shared SharedCache
	codec  cacheCodec
}

// NewCache returns a cache named name (for metrics) whose entries live for ttl,
// holding at most max entries; observe, if not nil, hears of every hit and miss.
func NewCache(name string, ttl time.Duration, max int, observe func(cache string, hit bool)) *Cache {
	c := &Cache{c: gocache.New(ttl, 2*ttl), max: max, name: name, observe: observe, ttl: ttl}
	c.c.OnEvicted(func(_ string, v any) {
		if e, ok := v.(sized); ok {
			c.used.Add(-e.n)
		}
	})
	return c
}

// Get returns the cached value of key: this replica's, else the fleet's store's (when
// the cache is shared).
func (c *Cache) Get(key string) (any, bool) { return c.get(key, true) }

// getLocal is Get without the fleet's store: for a scan over many keys, each of which
// would otherwise cost a store round trip when missing here.
func (c *Cache) getLocal(key string) (any, bool) { return c.get(key, false) }

func (c *Cache) get(key string, shared bool) (any, bool) {
	if c == nil {
		return nil, false
	}
	v, ok := c.c.Get(key)
	if e, isSized := v.(sized); isSized {
		v = e.v
	}
	if ok && c.auth != nil {
		// Revocation (issue 17 item 3): an answer is served only to a key NerdGraph
		// accepted within the auth TTL; past it, the caller's next call goes upstream
		// and re-proves the key.
		keyHash, _, _ := strings.Cut(key, "|")
		ok = c.auth.fresh(keyHash)
	}
	if !ok && shared && c.shared != nil {
		v, ok = c.getShared(key)
	}
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
	c.setLocal(key, v, gocache.DefaultExpiration)
	if c.shared != nil {
		c.setShared(key, v)
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
	c.c.Set(key, v, d)
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
type accountWrites struct {
	m sync.Map // account id (int64) → *atomic.Uint64
	// shared, when set, is the fleet's count (fleet mode, writesfleet.go).
	shared SharedWrites
}

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
	w.bumpShared(account)
}

// writeScoped is a cache key of c for kind, valid until the next write to c's account.
func (t *Translator) writeScoped(c Caller, kind string, parts ...string) string {
	return c.cacheKeyAt(kind, int64(t.writes.gen(c.AccountID)&(1<<62-1)), parts...)
}

// AuthTTL is the default of Options.AuthTTL: how long after NerdGraph last accepted a
// key its cached answers may still be served to it (issue 17 item 3).
const AuthTTL = 5 * time.Second

// authSweepAfter is how long an accepted key is remembered: longer than any cache's
// lifetime (10 minutes at most), so a key with cached entries is always known.
const authSweepAfter = time.Hour

type keyHashKey struct{}

// WithKeyHash puts the hash of the caller's presented key on ctx, so that NerdGraph's
// verdict on the key (accepted, or refused with 401/403) is recorded against it.
func WithKeyHash(ctx context.Context, keyHash string) context.Context {
	return context.WithValue(ctx, keyHashKey{}, keyHash)
}

func keyHashFrom(ctx context.Context) string {
	s, _ := ctx.Value(keyHashKey{}).(string)
	return s
}

// keyAuth remembers when NerdGraph last accepted each key (by hash). Only keys that
// NerdGraph accepted are held, so callers with invented keys allocate nothing here.
type keyAuth struct {
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	seen  map[string]time.Time
	sweep time.Time
	drop  func(keyHash string) // drops a revoked key's cache entries
	// fleet, when set, shares the verdicts (store.shared_cache, cachefleet.go).
	fleet SharedCache
}

func (a *keyAuth) accepted(keyHash string) {
	now := a.now()
	a.mu.Lock()
	a.seen[keyHash] = now
	if now.Sub(a.sweep) > authSweepAfter/4 {
		for k, t := range a.seen {
			if now.Sub(t) > authSweepAfter {
				delete(a.seen, k)
			}
		}
		a.sweep = now
	}
	a.mu.Unlock()
	if a.fleet != nil {
		a.shareVerdict(keyHash, true)
	}
}

// refused forgets a key NerdGraph refused and drops its cached answers at once.
func (a *keyAuth) refused(keyHash string) {
	a.mu.Lock()
	_, known := a.seen[keyHash]
	delete(a.seen, keyHash)
	a.mu.Unlock()
	if known && a.drop != nil {
		a.drop(keyHash)
	}
	if a.fleet != nil {
		a.shareVerdict(keyHash, false)
	}
}

// fresh reports whether a cached answer may be served to keyHash: NerdGraph accepted it
// within the TTL. A key never seen (a caller that did not go through the gateway's
// pipeline, such as a unit test's) is not held back: every cached answer of a key the
// gateway serves was fetched with that key, which recorded it.
func (a *keyAuth) fresh(keyHash string) bool {
	if a == nil || a.ttl < 0 {
		return true
	}
	a.mu.Lock()
	t, ok := a.seen[keyHash]
	a.mu.Unlock()
	return !ok || a.now().Sub(t) <= a.ttl
}

// known reports whether NerdGraph accepted keyHash within the last hour.
func (a *keyAuth) known(keyHash string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.seen[keyHash]
	return ok
}

// dropKey deletes every entry of c whose key belongs to keyHash.
func (c *Cache) dropKey(keyHash string) {
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

// authClient records NerdGraph's verdict on the caller's key after every call: an
// answer accepts it, a 401/403 refuses it.
type authClient struct {
	next gql.Client
	auth *keyAuth
}

func (a authClient) MakeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) error {
	err := a.next.MakeRequest(ctx, req, resp)
	keyHash := keyHashFrom(ctx)
	if keyHash == "" {
		return err
	}
	var ge *ng.Error
	switch {
	case err == nil:
		a.auth.accepted(keyHash)
	case errors.As(err, &ge) && (ge.Kind == ng.KindAuth || ge.Kind == ng.KindForbidden):
		a.auth.refused(keyHash)
	case errors.As(err, &ge) && ge.Status == 200:
		a.auth.accepted(keyHash) // an answer with errors (partial data): the key is good
	}
	return err
}
