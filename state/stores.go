package state

import (
	"slices"
	"sync/atomic"
	"time"
)

// Stores is everything a translator remembers between requests, built once from
// StoresOptions: its caches, each with its lifetime and bounds, and its write ledgers.
// D is the deployment type Deploys holds. The translator builds every key (each starts
// with the caller's key hash, so no caller reads another's entry) and every value; the
// policy of keeping them — lifetimes, entry and byte bounds, the clock, the revocation
// check, the fleet's store — is decided here.
type Stores[D any] struct {
	// Cursors: entity-search page cursors and the marks of an account's size.
	Cursors *Cache
	// Lists: fully fetched, post-filtered lists, kept for paging through them.
	Lists *Cache
	// Matches: a name pass's matching ids (filter[name]).
	Matches *Cache
	// Accounts: a key's account list.
	Accounts *Cache
	// Metrics: metric data documents and series (nil when switched off).
	Metrics *Cache
	// Names: a scope's metric names.
	Names *Cache
	// Entities: application shows (nil when switched off).
	Entities *Cache

	// Writes counts the writes per account that retire cached reads.
	Writes Writes
	// Deploys holds the deployments this replica recorded.
	Deploys *Deploys[D]
	// Attempts is the ledger of writes whose outcome is unknown or that carry an
	// Idempotency-Key.
	Attempts *Attempts

	caches []*Cache
	opts   StoresOptions
	// keys is the edge's word on callers' keys (CheckKeys); nil: every key is fresh.
	keys atomic.Pointer[KeyCheck]
	// shared is the fleet's cache store (nil: this replica's memory only).
	shared SharedCache
}

// KeyCheck is the edge's word on callers' keys, by hash: whether a cached entry may be
// served to a key (NerdGraph accepted it within the auth TTL), and the fleet's
// acceptance of a key, with the time it has left, when an entry is read from the
// fleet's store.
type KeyCheck interface {
	Fresh(keyHash string) bool
	FleetAccepted(keyHash string, left time.Duration)
}

// StoresOptions tune Stores; zero fields take their defaults.
type StoresOptions struct {
	// Now, when set, is the clock the caches' lifetimes run on.
	Now func() time.Time
	// CursorTTL (default 5m), ListTTL (default 60s; also the name matches'),
	// AccountTTL (default 10m) and NamesTTL (default 10m) are the caches' lifetimes.
	CursorTTL, ListTTL, AccountTTL, NamesTTL time.Duration
	// MetricDataTTL and EntityTTL are the lifetimes of the metric data and application
	// show caches; negative switches the cache off (0: entries do not expire; the
	// translator gives its defaults instead).
	MetricDataTTL, EntityTTL time.Duration
	// MaxEntries bounds each cache (default 10000).
	MaxEntries int
	// MaxCacheBytes bounds the estimated bytes of each cache (default
	// DefaultCacheMaxBytes; negative: no byte bound).
	MaxCacheBytes int64
	// ObserveCache hears of every cache hit and miss (for metrics); nil drops them.
	ObserveCache func(cache string, hit bool)
	// WriteAttemptWindow is how long an attempt record is kept (default
	// DefaultWriteAttemptWindow).
	WriteAttemptWindow time.Duration
	// DeploymentMemory is how long a recorded deployment is remembered; DeploymentID
	// is its id.
	DeploymentMemory time.Duration
	// SharedCache, when set, keeps the entries of the caches named in Codecs in the
	// fleet's store too.
	SharedCache SharedCache
	// Codecs are the caches whose entries are shared, by cache name, and how.
	Codecs map[string]Codec
	// Writes, Attempts (with Answers, how its answers are stored) and Deployments,
	// when set, share the ledgers across the fleet.
	Writes      SharedWrites
	Attempts    SharedAttempts
	Answers     Answers
	Deployments SharedDeployments
}

// NewStores builds the caches and ledgers o describes; id is a deployment's id.
func NewStores[D any](o StoresOptions, id func(D) int64) *Stores[D] {
	if o.CursorTTL <= 0 {
		o.CursorTTL = 5 * time.Minute
	}
	if o.ListTTL <= 0 {
		o.ListTTL = time.Minute
	}
	if o.AccountTTL <= 0 {
		o.AccountTTL = 10 * time.Minute
	}
	if o.NamesTTL <= 0 {
		o.NamesTTL = 10 * time.Minute
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = 10000
	}
	if o.MaxCacheBytes == 0 {
		o.MaxCacheBytes = DefaultCacheMaxBytes
	}
	s := &Stores[D]{
		Cursors:  NewCache("cursors", o.CursorTTL, o.MaxEntries, o.ObserveCache),
		Lists:    NewCache("lists", o.ListTTL, o.MaxEntries, o.ObserveCache),
		Matches:  NewCache("name_matches", o.ListTTL, o.MaxEntries, o.ObserveCache),
		Accounts: NewCache("accounts", o.AccountTTL, o.MaxEntries, o.ObserveCache),
		Metrics:  optionalCache("metric_data", o.MetricDataTTL, o),
		Names:    NewCache("metric_names", o.NamesTTL, o.MaxEntries, o.ObserveCache),
		Entities: optionalCache("entities", o.EntityTTL, o),
		Deploys:  NewDeploys(o.DeploymentMemory, id),
		Attempts: NewAttempts(o.WriteAttemptWindow),
		opts:     o,
		shared:   o.SharedCache,
	}
	for _, c := range []*Cache{s.Cursors, s.Lists, s.Matches, s.Accounts, s.Metrics, s.Names, s.Entities} {
		s.Adopt(c)
	}
	if o.Attempts != nil {
		s.Attempts.Share(o.Attempts, o.Answers)
	}
	if o.Deployments != nil {
		s.Deploys.Share(o.Deployments)
	}
	if o.Writes != nil {
		s.Writes.Share(o.Writes)
	}
	return s
}

// optionalCache is a cache that a negative ttl switches off (a nil *Cache never hits
// and never stores); a ttl of 0 is a cache whose entries do not expire.
func optionalCache(name string, ttl time.Duration, o StoresOptions) *Cache {
	if ttl < 0 {
		return nil
	}
	return NewCache(name, ttl, o.MaxEntries, o.ObserveCache)
}

// Adopt puts c under the stores' policy (the revocation check, the byte bound, the
// clock, the fleet's store when Codecs names it) and into Stats and DropKey: the
// caches NewStores builds, and one built elsewhere (the name indexes'). Call it before
// c is used.
func (s *Stores[D]) Adopt(c *Cache) {
	c.CheckKeys(s.fresh, s.fleetAccepted)
	c.LimitBytes(s.opts.MaxCacheBytes)
	if s.opts.Now != nil {
		c.UseClock(s.opts.Now)
	}
	if cd, ok := s.opts.Codecs[c.Name()]; ok && s.shared != nil && c != nil {
		c.Share(s.shared, cd)
	}
	s.caches = append(s.caches, c)
}

// CheckKeys makes every cache serve an entry only while k says its key is fresh. The
// edge calls it once, before requests are served.
func (s *Stores[D]) CheckKeys(k KeyCheck) { s.keys.Store(&k) }

func (s *Stores[D]) fresh(keyHash string) bool {
	k := s.keys.Load()
	return k == nil || (*k).Fresh(keyHash)
}

// FleetAccepted passes the fleet's acceptance of keyHash on to the edge's KeyCheck.
func (s *Stores[D]) FleetAccepted(keyHash string, left time.Duration) {
	if k := s.keys.Load(); k != nil {
		(*k).FleetAccepted(keyHash, left)
	}
}

func (s *Stores[D]) fleetAccepted(keyHash string, left time.Duration) { s.FleetAccepted(keyHash, left) }

// SharedCache is the fleet's cache store (nil: none): the edge shares its verdicts on
// keys there.
func (s *Stores[D]) SharedCache() SharedCache { return s.shared }

// DropKey drops every entry of keyHash from every cache (a key NerdGraph refused).
func (s *Stores[D]) DropKey(keyHash string) {
	for _, c := range s.caches {
		c.DropKey(keyHash)
	}
}

// Caches are the caches under the stores' policy (nil for one switched off).
func (s *Stores[D]) Caches() []*Cache { return slices.Clone(s.caches) }

// Stats reports each cache's estimated bytes held and evictions so far, by cache name.
func (s *Stores[D]) Stats() map[string][2]int64 {
	out := map[string][2]int64{}
	for _, c := range s.caches {
		if c != nil {
			out[c.Name()] = [2]int64{c.Bytes(), c.Evictions()}
		}
	}
	return out
}
