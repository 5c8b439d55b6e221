package translate

import (
	"context"
	"fmt"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	ng "github.com/v2bridge/v2bridge/graphql"
)

// Options tune a Translator; zero fields take their defaults.
type Options struct {
	// Now is the clock (default time.Now); tests fix it for golden files.
	Now func() time.Time
	// CursorTTL is how long entity-search page cursors are kept (default 5m).
	CursorTTL time.Duration
	// ListTTL is how long a fully fetched, post-filtered list is kept for paging
	// through it (default 60s).
	ListTTL time.Duration
	// AccountTTL is how long a key's account list is kept (default 10m).
	AccountTTL time.Duration
	// MetricDataTTL is how long identical metric queries are answered from cache
	// (default MetricDataTTL; negative disables the cache).
	MetricDataTTL time.Duration
	// EntityTTL is how long an application show is answered from cache (default
	// EntityTTL; negative disables the cache). Writes through this gateway drop it.
	EntityTTL time.Duration
	// MetricNamesWindow is how far back metric names are looked for (default one day).
	MetricNamesWindow time.Duration
	// AuthTTL is how long after NerdGraph last accepted a key its cached answers are
	// served to it (default AuthTTL; negative: no check). A 401/403 from NerdGraph for a
	// key drops its cached answers at once.
	AuthTTL time.Duration
	// MaxCacheBytes bounds the estimated bytes of each cache (default
	// DefaultCacheMaxBytes; negative: no byte bound).
	MaxCacheBytes int64
	// MaxEntries bounds each cache (default 10000).
	MaxEntries int
	// ObserveCache hears of every cache hit and miss (for metrics); nil drops them.
	ObserveCache func(cache string, hit bool)
	// WriteAttemptWindow is how long a write whose outcome is unknown, or one sent with
	// an Idempotency-Key, is remembered (default DefaultWriteAttemptWindow; attempts.go).
	WriteAttemptWindow time.Duration
	// Writes, when set, shares the accounts' write counts across a fleet of replicas
	// (fleet mode, writesfleet.go): a write through any replica retires every
	// replica's cached reads of the account.
	Writes SharedWrites
	// Attempts, when set, shares write attempt records across the fleet
	// (attemptsfleet.go): a retry after an unknown outcome may reach any replica.
	Attempts SharedAttempts
	// SharedCache, when set, keeps the cached answers of the entities, metric_data
	// and accounts caches in the fleet's store too (store.shared_cache,
	// cachefleet.go).
	SharedCache SharedCache
	// Deployments, when set, shares the deployments recorded in the last
	// DeploymentMemory across the fleet (deploysfleet.go).
	Deployments SharedDeployments
	// Warn receives failures of optional enrichments (the answer is still served
	// without them); nil drops them.
	Warn func(ctx context.Context, what string, err error)
	// NameLike narrows filter[name] with the entity search's `name LIKE` (the
	// configuration's name_filter: like), REST's exact match applied to what it
	// returns; every such answer declares CapNameLike. Off, the search is read
	// without it (namefilter.go says why).
	NameLike bool
}

// Translator answers v2 requests from NerdGraph. It is safe for concurrent use.
type Translator struct {
	client   gql.Client
	now      func() time.Time
	warn     func(ctx context.Context, what string, err error)
	cursors  *Cache
	lists    *Cache
	matches  *Cache // the name pass's matching ids (namefilter.go), shared in a fleet
	accounts *Cache
	metrics  *Cache
	names    *Cache
	entities *Cache
	writes   accountWrites
	deploys  *deployLedger
	auth     *keyAuth
	caches   []*Cache
	attempts *attemptLedger

	namesWindow time.Duration
	nameLike    bool
}

// EntityTTL is the default lifetime of a cached application show: short, so summaries
// and health stay as fresh as REST's (which recomputed them each minute), long enough
// that a storm of scripts asking for the same application costs one round trip.
const EntityTTL = 30 * time.Second

// New returns a Translator that sends its operations through client.
func New(client gql.Client, opts Options) *Translator {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CursorTTL <= 0 {
		opts.CursorTTL = 5 * time.Minute
	}
	if opts.ListTTL <= 0 {
		opts.ListTTL = time.Minute
	}
	if opts.AccountTTL <= 0 {
		opts.AccountTTL = 10 * time.Minute
	}
	if opts.MetricDataTTL == 0 {
		opts.MetricDataTTL = MetricDataTTL
	}
	if opts.EntityTTL == 0 {
		opts.EntityTTL = EntityTTL
	}
	if opts.MetricNamesWindow <= 0 {
		opts.MetricNamesWindow = DefaultMetricNamesWindow
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = 10000
	}
	if opts.Warn == nil {
		opts.Warn = func(context.Context, string, error) {}
	}
	if opts.AuthTTL == 0 {
		opts.AuthTTL = AuthTTL
	}
	auth := &keyAuth{ttl: opts.AuthTTL, now: time.Now, seen: map[string]time.Time{}}
	t := &Translator{
		client:   authClient{next: client, auth: auth},
		auth:     auth,
		now:      opts.Now,
		warn:     opts.Warn,
		cursors:  NewCache("cursors", opts.CursorTTL, opts.MaxEntries, opts.ObserveCache),
		lists:    NewCache("lists", opts.ListTTL, opts.MaxEntries, opts.ObserveCache),
		matches:  NewCache("name_matches", opts.ListTTL, opts.MaxEntries, opts.ObserveCache),
		accounts: NewCache("accounts", opts.AccountTTL, opts.MaxEntries, opts.ObserveCache),
		metrics:  metricCache(opts),
		names:    NewCache("metric_names", 10*time.Minute, opts.MaxEntries, opts.ObserveCache),
		entities: optionalCache("entities", opts.EntityTTL, opts),
		deploys:  newDeployLedger(),
		attempts: newAttemptLedger(opts.WriteAttemptWindow),

		namesWindow: opts.MetricNamesWindow,
		nameLike:    opts.NameLike,
	}
	if opts.MaxCacheBytes == 0 {
		opts.MaxCacheBytes = DefaultCacheMaxBytes
	}
	caches := []*Cache{t.cursors, t.lists, t.matches, t.accounts, t.metrics, t.names, t.entities}
	for _, c := range caches {
		if c != nil {
			c.auth = auth
			c.maxBytes = max(opts.MaxCacheBytes, 0)
		}
	}
	t.caches = caches
	if opts.SharedCache != nil {
		shareCaches(caches, auth, opts.SharedCache)
	}
	t.attempts.shared = opts.Attempts
	t.deploys.shared = opts.Deployments
	if opts.Writes != nil {
		t.writes.shared = opts.Writes
		opts.Writes.WatchWrites(t.writes.raise)
	}
	auth.drop = func(keyHash string) {
		for _, c := range caches {
			c.dropKey(keyHash)
		}
	}
	return t
}

// KeyAccepted reports whether NerdGraph accepted the key with this hash within the last
// hour: only such callers get usage-report rows and per-caller series.
func (t *Translator) KeyAccepted(keyHash string) bool {
	return t != nil && t.auth.known(keyHash)
}

// Accounts returns the ids of the accounts a key reaches (cached per key hash).
func (t *Translator) Accounts(ctx context.Context, keyHash string) ([]int64, error) {
	key := Caller{KeyHash: keyHash}.cacheKey("accounts")
	if v, ok := t.accounts.Get(key); ok {
		return v.([]int64), nil
	}
	resp, err := ng.Accounts(ctx, t.client)
	if err != nil {
		return nil, fmt.Errorf("accounts: %w", err)
	}
	var ids []int64
	if resp != nil && resp.Actor != nil {
		for _, a := range resp.Actor.Accounts {
			if a != nil && a.Id != nil {
				ids = append(ids, int64(*a.Id))
			}
		}
	}
	t.accounts.Set(key, ids)
	return ids, nil
}

// until is the end of "recent" windows: now, truncated to the minute so identical
// requests within a minute build identical NRQL.
func (t *Translator) until() time.Time {
	return t.now().UTC().Truncate(time.Minute)
}

func metricCache(o Options) *Cache { return optionalCache("metric_data", o.MetricDataTTL, o) }

// optionalCache is a cache that a negative ttl switches off.
func optionalCache(name string, ttl time.Duration, o Options) *Cache {
	if ttl < 0 {
		return nil // a nil *Cache never hits and never stores
	}
	return NewCache(name, ttl, o.MaxEntries, o.ObserveCache)
}

// CacheStats reports each cache's estimated bytes held and evictions so far (for
// metrics), by cache name.
func (t *Translator) CacheStats() map[string][2]int64 {
	out := map[string][2]int64{}
	if t == nil {
		return out
	}
	for _, c := range t.caches {
		if c != nil {
			out[c.name] = [2]int64{c.Bytes(), c.Evictions()}
		}
	}
	return out
}
