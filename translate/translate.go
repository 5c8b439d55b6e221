package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/translate/metricdata"
	"github.com/v2bridge/v2bridge/translate/nameindex"
)

// Options tune a Translator; zero fields take their defaults.
type Options struct {
	// Now is the clock (default time.Now) of the answers and, when set, the caches'
	// lifetimes; tests fix it for golden files and move it to cross a TTL.
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
	// MaxCacheBytes bounds the estimated bytes of each cache (default
	// state.DefaultCacheMaxBytes; negative: no byte bound).
	MaxCacheBytes int64
	// MaxEntries bounds each cache (default 10000).
	MaxEntries int
	// ObserveCache hears of every cache hit and miss (for metrics); nil drops them.
	ObserveCache func(cache string, hit bool)
	// WriteAttemptWindow is how long a write whose outcome is unknown, or one sent with
	// an Idempotency-Key, is remembered (default state.DefaultWriteAttemptWindow).
	WriteAttemptWindow time.Duration
	// Writes, when set, shares the accounts' write counts across a fleet of replicas
	// (fleet mode): a write through any replica retires every replica's cached reads
	// of the account.
	Writes state.SharedWrites
	// Attempts, when set, shares write attempt records across the fleet: a retry
	// after an unknown outcome may reach any replica.
	Attempts state.SharedAttempts
	// SharedCache, when set, keeps the cached answers of the caches that have a codec
	// (sharedCodecs) in the fleet's store too (store.shared_cache).
	SharedCache state.SharedCache
	// Deployments, when set, shares the deployments recorded in the last
	// DeploymentMemory across the fleet.
	Deployments state.SharedDeployments
	// Warn receives failures of optional enrichments (the answer is still served
	// without them); nil drops them.
	Warn func(ctx context.Context, what string, err error)
	// Background receives failures of work done apart from any request (the name
	// index's background reads), for the process to log; nil drops them.
	Background func(what string, err error)
	// NameLike narrows filter[name] with the entity search's `name LIKE` (the
	// configuration's name_filter: like), REST's exact match applied to what it
	// returns; every such answer declares CapNameLike. Off, the search is read
	// without it (namefilter.go says why).
	NameLike bool
	// MetricChoices are the operator's readings of metric data where New Relic's
	// pages allow two (metric_raw, queue_time; metricdata.Choices).
	MetricChoices metricdata.Choices
	// SummaryAllTransactions computes application_summary's throughput and
	// response_time over all transactions (NerdGraph's apmSummary throughput and
	// responseTimeAverage, the configuration's summary_transactions: all) instead of
	// web transactions (non-web for an application without web traffic).
	SummaryAllTransactions bool
	// NameIndexRefresh is the age past which an account's name index (translate/nameindex) is
	// read again in the background while it is still served (default
	// DefaultNameIndexRefresh).
	NameIndexRefresh time.Duration
	// NameIndexMaxStale is the age past which the index is no longer served: it is read
	// on the caller's path (default DefaultNameIndexMaxStale). It is also the index's
	// lifetime in the fleet's store.
	NameIndexMaxStale time.Duration
	// NameIndexMaxApps caps the applications of one index: an account holding more is
	// matched by reading its search for each name instead (default
	// DefaultNameIndexMaxApps).
	NameIndexMaxApps int
	// NameIndexes caps the indexes a replica holds (default DefaultNameIndexes).
	NameIndexes int
}

// Translator answers v2 requests from NerdGraph. It is safe for concurrent use.
type Translator struct {
	client gql.Client
	now    func() time.Time
	warn   func(ctx context.Context, what string, err error)
	// background hears failures of work done apart from requests (Options.Background).
	background func(what string, err error)
	// st is what the translator remembers between requests: its caches and write
	// ledgers, with their policy (state.Stores).
	st *state.Stores[restv2.Deployment]
	// keys is the edge's key acceptance (UseKeys; nil: every key fresh).
	keys *atomic.Pointer[KeyVerdicts]

	namesWindow time.Duration
	nameLike    bool
	choices     metricdata.Choices
	summaryAll  bool
	docReading  string             // the metric choices and names window in every metric document's key (readings.go)
	showReading string             // the summary's transactions in every application show's key (readings.go)
	index       *nameindex.Indexes // the accounts' name indexes (translate/nameindex)
	sweeps      *sweeps            // metric data queries shared by sweeps (sweep.go)
	hostIDs     *hostIDMemo        // the host ids application pages link (ids.go)
}

// maxHostIDs bounds the host ids remembered.
const maxHostIDs = 1 << 16

// EntityTTL is the default lifetime of a cached application show: short, so summaries
// and health stay as fresh as REST's (which recomputed them each minute), long enough
// that a storm of scripts asking for the same application costs one round trip.
const EntityTTL = 30 * time.Second

// New returns a Translator that sends its operations through client.
func New(client gql.Client, opts Options) *Translator {
	so := state.StoresOptions{CursorTTL: opts.CursorTTL, ListTTL: opts.ListTTL, AccountTTL: opts.AccountTTL,
		MetricDataTTL: opts.MetricDataTTL, EntityTTL: opts.EntityTTL, MaxEntries: opts.MaxEntries,
		MaxCacheBytes: opts.MaxCacheBytes, ObserveCache: opts.ObserveCache, WriteAttemptWindow: opts.WriteAttemptWindow,
		DeploymentMemory: DeploymentMemory, SharedCache: opts.SharedCache, Codecs: sharedCodecs(),
		Writes: opts.Writes, Attempts: opts.Attempts, Answers: attemptAnswers{}, Deployments: opts.Deployments,
		Now: opts.Now} // the caches' lifetimes run on an injected clock too
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if so.MetricDataTTL == 0 {
		so.MetricDataTTL = MetricDataTTL
	}
	if so.EntityTTL == 0 {
		so.EntityTTL = EntityTTL
	}
	if opts.MetricNamesWindow <= 0 {
		opts.MetricNamesWindow = DefaultMetricNamesWindow
	}
	if opts.Warn == nil {
		opts.Warn = func(context.Context, string, error) {}
	}
	if opts.Background == nil {
		opts.Background = func(string, error) {}
	}
	st := state.NewStores(so, func(d restv2.Deployment) int64 { return d.ID })
	keys := new(atomic.Pointer[KeyVerdicts])
	t := &Translator{
		client:     verdictClient{next: client, keys: keys},
		keys:       keys,
		now:        opts.Now,
		warn:       opts.Warn,
		background: opts.Background,
		st:         st,
		hostIDs:    newHostIDMemo(maxHostIDs),

		namesWindow: opts.MetricNamesWindow,
		nameLike:    opts.NameLike,
		choices:     opts.MetricChoices,
		summaryAll:  opts.SummaryAllTransactions,
		docReading:  docReading(opts.MetricChoices, opts.MetricNamesWindow),
		showReading: showReading(opts.SummaryAllTransactions),
	}
	t.index = newNameIndexes(t, opts)
	st.Adopt(t.index.Cache())
	t.sweeps = newSweeps()
	return t
}

// Accounts returns the ids of the accounts a key reaches (cached per key hash).
func (t *Translator) Accounts(ctx context.Context, keyHash string) ([]int64, error) {
	key := Caller{KeyHash: keyHash}.cacheKey("accounts")
	if v, ok := vouchedGet(ctx, t.st.Accounts, key, time.Time{}); ok {
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
	t.st.Accounts.Set(key, ids)
	return ids, nil
}

// until is the end of "recent" windows: now, truncated to the minute so identical
// requests within a minute build identical NRQL.
func (t *Translator) until() time.Time {
	return t.now().UTC().Truncate(time.Minute)
}

// CacheStats reports each cache's estimated bytes held and evictions so far (for
// metrics), by cache name.
func (t *Translator) CacheStats() map[string][2]int64 {
	if t == nil {
		return map[string][2]int64{}
	}
	return t.st.Stats()
}

// WaitBackground waits for the background work under way (the name indexes' reads),
// for tests that count round trips step by step.
func (t *Translator) WaitBackground() { t.index.WaitRefreshes() }

// writeScoped is a cache key of c for kind, valid until the next write to c's account.
func (t *Translator) writeScoped(c Caller, kind string, parts ...string) string {
	return c.cacheKeyAt(kind, scopedGen(t.st.Writes.Gen(c.AccountID)), parts...)
}

// scopedGen is an account's write count as a key holds it.
func scopedGen(gen uint64) int64 { return int64(gen & (1<<62 - 1)) }

// sharedCodecs are the caches whose answers are shared and how: the application show
// (entities), the metric data document (metrics; the raw series entries of the same
// cache stay local), a key's account list (accounts), the application search's page
// cursors with the marks of a large account (cursors), so that Link paging through a
// load balancer costs what it costs on one replica and a walk to a cold page done by
// one replica serves the others, and a name pass's matching ids (name_matches). Every
// other cache (lists, metric names) stays per replica. Each type round-trips through
// JSON without loss (TestSharedCodecsRoundTrip).
func sharedCodecs() map[string]state.Codec {
	return map[string]state.Codec{
		"entities": {
			Encode: func(v any) ([]byte, bool) {
				d, ok := v.(*restv2.ApplicationShow)
				if !ok {
					return nil, false
				}
				return marshalShared(&d.Application)
			},
			Decode: func(b []byte) (any, bool) {
				d := &restv2.ApplicationShow{}
				if json.Unmarshal(b, &d.Application) != nil {
					return nil, false
				}
				d.Share()
				return d, true
			},
		},
		"metric_data": {
			Encode: func(v any) ([]byte, bool) {
				d, ok := v.(*restv2.MetricData)
				if !ok {
					return nil, false
				}
				return marshalShared(sharedMetricData{From: d.From, To: d.To, NotFound: d.NotFound, Found: d.Found,
					Metrics: d.Metrics, Summarize: d.Summarize})
			},
			Decode: func(b []byte) (any, bool) {
				var m sharedMetricData
				if json.Unmarshal(b, &m) != nil {
					return nil, false
				}
				d := &restv2.MetricData{From: m.From, To: m.To, NotFound: m.NotFound, Found: m.Found, Metrics: m.Metrics,
					Summarize: m.Summarize}
				d.Share()
				return d, true
			},
		},
		"cursors": {
			// A page's cursor (string) or why a list page leaves the account-wide
			// inventory out (true: the account is large, manyApps; invFailedMark:
			// that inventory failed; withoutInventory); a NerdGraph cursor is opaque
			// and not tied to the connection or replica that read it.
			Encode: func(v any) ([]byte, bool) {
				switch v.(type) {
				case string, bool:
					return marshalShared(v)
				}
				return nil, false
			},
			Decode: func(b []byte) (any, bool) {
				var v any
				if json.Unmarshal(b, &v) != nil {
					return nil, false
				}
				switch v.(type) {
				case string, bool:
					return v, true
				}
				return nil, false
			},
		},
		"accounts":     int64sCodec(), // a key's accounts
		"name_matches": int64sCodec(), // the name pass's matching ids (namefilter.go)
	}
}

// int64sCodec carries a []int64.
func int64sCodec() state.Codec {
	return state.Codec{
		Encode: func(v any) ([]byte, bool) {
			ids, ok := v.([]int64)
			if !ok {
				return nil, false
			}
			return marshalShared(ids)
		},
		Decode: func(b []byte) (any, bool) {
			var ids []int64
			if json.Unmarshal(b, &ids) != nil {
				return nil, false
			}
			return ids, true
		},
	}
}

// sharedMetricData is restv2.MetricData without its render memo.
type sharedMetricData struct {
	From, To  time.Time
	NotFound  []string
	Found     []string
	Metrics   []restv2.MetricSeries
	Summarize bool
}

// marshalShared is json.Marshal; a value it cannot carry (NaN) stays local.
func marshalShared(v any) ([]byte, bool) {
	b, err := json.Marshal(v)
	return b, err == nil
}

// DryRun returns a Translator that builds exactly the operations t would (same clock,
// same metric-name window, same name filter, same warnings) but sends them through client and starts
// with empty caches, so every round trip of a request shows. `v2bridge explain` gives
// it a graphql.Recorder, which sends nothing.
func (t *Translator) DryRun(client gql.Client) *Translator {
	return New(client, Options{Now: t.now, MetricNamesWindow: t.namesWindow, NameLike: t.nameLike, Warn: t.warn,
		MetricChoices: t.choices, SummaryAllTransactions: t.summaryAll})
}

// CachedAccounts returns the accounts a key reaches when this translator already holds
// them (a recent request of the key looked them up), without calling NerdGraph.
func (t *Translator) CachedAccounts(keyHash string) ([]int64, bool) {
	v, ok := t.st.Accounts.Get(Caller{KeyHash: keyHash}.cacheKey("accounts"))
	if !ok {
		return nil, false
	}
	ids, ok := v.([]int64)
	return ids, ok
}
