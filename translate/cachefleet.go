package translate

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// SharedCache keeps cached v2 answers in the fleet's store (store.shared_cache, issue
// 21; translate/fleet.Store): an answer fetched through one replica is served by the
// others without a NerdGraph round trip. The local cache stays in front of it (L1): a
// local hit costs no store round trip, and an entry read from the store is kept
// locally for what is left of its TTL only. Entries are keyed by the local cache's
// key (caller's key hash + account + the account's write count), so the tenant
// boundary and write retirement are the local cache's. Errors mean the store is down
// or slow: the replica uses its local cache alone.
type SharedCache interface {
	// GetCached returns the entry key of cache name (nil: none), its time left, and
	// the time left of the fleet's acceptance of keyHash (<= 0: do not serve it).
	GetCached(ctx context.Context, name, key, keyHash string) (value []byte, ttl, authLeft time.Duration, err error)
	// SetCached writes the entry key of cache name for ttl (within the store's bounds).
	SetCached(ctx context.Context, name, key string, value []byte, ttl time.Duration) error
	// KeyAccepted and KeyRefused keep the fleet's record of NerdGraph's verdict on a
	// key, which shared entries are served under (cache.go's AuthTTL rule, fleet-wide).
	KeyAccepted(ctx context.Context, keyHash string, ttl time.Duration)
	KeyRefused(ctx context.Context, keyHash string)
	// CacheUnshareable counts a value kept local (no codec for its type).
	CacheUnshareable()
}

// sharedCacheTimeout bounds one shared cache call (the store's own timeout is shorter).
const sharedCacheTimeout = time.Second

// cacheCodec turns the values of one cache into bytes and back. encode's false means
// the value stays local (a type the codec does not know, or one JSON cannot carry).
type cacheCodec struct {
	encode func(v any) ([]byte, bool)
	decode func(b []byte) (any, bool)
}

// sharedCodecs are the caches whose answers are shared and how: the application show
// (entities), the metric data document (metrics; the raw series entries of the same
// cache stay local), a key's account list (accounts), the application search's page
// cursors with the marks of a large account (cursors), so that Link paging through a
// load balancer costs what it costs on one replica and a walk to a cold page done by
// one replica serves the others, and a name pass's matching ids (name_matches). Every
// other cache (lists, metric names) stays per replica. Each type round-trips through
// JSON without loss (TestSharedCodecsRoundTrip).
func sharedCodecs() map[string]cacheCodec {
	return map[string]cacheCodec{
		"entities": {
			encode: func(v any) ([]byte, bool) {
				d, ok := v.(*v2.ApplicationShow)
				if !ok {
					return nil, false
				}
				return marshalShared(&d.Application)
			},
			decode: func(b []byte) (any, bool) {
				d := &v2.ApplicationShow{}
				if json.Unmarshal(b, &d.Application) != nil {
					return nil, false
				}
				d.Share()
				return d, true
			},
		},
		"metric_data": {
			encode: func(v any) ([]byte, bool) {
				d, ok := v.(*v2.MetricData)
				if !ok {
					return nil, false
				}
				return marshalShared(sharedMetricData{From: d.From, To: d.To, NotFound: d.NotFound, Found: d.Found,
					Metrics: d.Metrics, Summarize: d.Summarize})
			},
			decode: func(b []byte) (any, bool) {
				var m sharedMetricData
				if json.Unmarshal(b, &m) != nil {
					return nil, false
				}
				d := &v2.MetricData{From: m.From, To: m.To, NotFound: m.NotFound, Found: m.Found, Metrics: m.Metrics,
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
			encode: func(v any) ([]byte, bool) {
				switch v.(type) {
				case string, bool:
					return marshalShared(v)
				}
				return nil, false
			},
			decode: func(b []byte) (any, bool) {
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
func int64sCodec() cacheCodec {
	return cacheCodec{
		encode: func(v any) ([]byte, bool) {
			ids, ok := v.([]int64)
			if !ok {
				return nil, false
			}
			return marshalShared(ids)
		},
		decode: func(b []byte) (any, bool) {
			var ids []int64
			if json.Unmarshal(b, &ids) != nil {
				return nil, false
			}
			return ids, true
		},
	}
}

// sharedMetricData is v2.MetricData without its render memo.
type sharedMetricData struct {
	From, To  time.Time
	NotFound  []string
	Found     []string
	Metrics   []v2.MetricSeries
	Summarize bool
}

// marshalShared is json.Marshal; a value it cannot carry (NaN) stays local.
func marshalShared(v any) ([]byte, bool) {
	b, err := json.Marshal(v)
	return b, err == nil
}

// getShared looks key up in the store after a local miss. A hit is kept locally for
// what is left of the entry's TTL, and the fleet's acceptance of the caller's key is
// taken as this replica's (at the time the fleet recorded it), so the local hits that
// follow keep the AuthTTL rule.
func (c *Cache) getShared(key string) (any, bool) {
	keyHash, _, _ := strings.Cut(key, "|")
	ctx, cancel := context.WithTimeout(context.Background(), sharedCacheTimeout)
	defer cancel()
	b, ttl, authLeft, err := c.shared.GetCached(ctx, c.name, key, keyHash)
	if err != nil || b == nil || ttl <= 0 || authLeft <= 0 {
		return nil, false
	}
	v, ok := c.codec.decode(b)
	if !ok {
		return nil, false
	}
	if c.auth != nil && c.auth.ttl >= 0 {
		c.auth.acceptedAt(keyHash, c.auth.now().Add(authLeft-c.auth.ttl))
	}
	c.setLocal(key, v, ttl)
	return v, true
}

// setShared writes key's value to the store (after the local Set).
func (c *Cache) setShared(key string, v any) {
	b, ok := c.codec.encode(v)
	if !ok {
		c.shared.CacheUnshareable()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedCacheTimeout)
	defer cancel()
	_ = c.shared.SetCached(ctx, c.name, key, b, c.ttl)
}

// acceptedAt records that the fleet saw NerdGraph accept keyHash at t (a later local
// record is kept).
func (a *keyAuth) acceptedAt(keyHash string, t time.Time) {
	a.mu.Lock()
	if t.After(a.seen[keyHash]) {
		a.seen[keyHash] = t
	}
	a.mu.Unlock()
}

// shareVerdict tells the fleet NerdGraph's verdict on keyHash: accepted, its shared
// entries are served for the auth TTL (an hour when the check is off); refused, at
// once no more.
func (a *keyAuth) shareVerdict(keyHash string, accepted bool) {
	ctx, cancel := context.WithTimeout(context.Background(), sharedCacheTimeout)
	defer cancel()
	if !accepted {
		a.fleet.KeyRefused(ctx, keyHash)
		return
	}
	ttl := a.ttl
	if ttl < 0 {
		ttl = authSweepAfter
	}
	a.fleet.KeyAccepted(ctx, keyHash, ttl)
}

// shareCaches puts the caches that have a codec (sharedCodecs) in front of the store.
func shareCaches(caches []*Cache, auth *keyAuth, shared SharedCache) {
	codecs := sharedCodecs()
	for _, c := range caches {
		if cd, ok := codecs[c.nameOrEmpty()]; ok {
			c.shared, c.codec = shared, cd
		}
	}
	auth.fleet = shared
}

func (c *Cache) nameOrEmpty() string {
	if c == nil {
		return ""
	}
	return c.name
}
