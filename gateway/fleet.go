package gateway

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/v2bridge/v2bridge/state/fleet"
)

// Fleet mode (issue 21): with Config.Store set, the per-key rate limit is counted in
// the shared store, so X-RateLimit-* show the fleet's numbers and N replicas allow
// the limit once, not N times. When the store does not answer within its timeout the
// replica counts on its own (per-replica limits, declared in the README); it keeps a
// mirror of the fleet's count of each key's window, so a fallback continues from the
// fleet's number instead of from zero.

// sharedLimit is the store's side of the rate limit (fleet.Store).
type sharedLimit interface {
	Allow(ctx context.Context, keyHash string, limit int, start time.Time, length time.Duration, floor int) (bool, int, error)
	Forget(ctx context.Context, keyHash string, start time.Time)
}

// allowFleet is allow counted fleet-wide when the limiter has a store.
func (l *rateLimiter) allowFleet(ctx context.Context, keyHash string) (ok bool, remaining int, reset time.Time) {
	if l.shared == nil {
		return l.allow(keyHash)
	}
	start := l.now().Truncate(time.Minute)
	floor := 0
	l.mu.Lock()
	if w := l.windows[keyHash]; w != nil && w.start == start {
		floor = w.count
	}
	l.mu.Unlock()
	ok, count, err := l.shared.Allow(ctx, keyHash, l.limit, start, time.Minute, floor)
	if err != nil {
		return l.allow(keyHash) // the store is down or slow: this replica's own count
	}
	l.mu.Lock()
	w := l.windows[keyHash]
	if w == nil || w.start != start {
		w = &window{start: start}
		l.windows[keyHash] = w
	}
	if ok && count <= w.count {
		// The store counted no more calls than this replica has already seen in the
		// window: it restarted empty, or missed calls while it was down. What this
		// replica saw is a floor, so a window never starts again from full within its
		// minute.
		count = w.count + 1
		ok = count <= l.limit
	}
	w.count = max(w.count, min(count, l.limit))
	l.mu.Unlock()
	return ok, max(l.limit-count, 0), start.Add(time.Minute)
}

// storeCollector is v2bridge_store_errors_total, v2bridge_store_up and, with the shared
// cache on, v2bridge_store_cache_total{result}.
func storeCollector(s *fleet.Store) []prometheus.Collector {
	cs := []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "v2bridge_store_errors_total",
			Help: "Calls to the shared fleet store (store: in the configuration) that failed or timed out; each fell back to this replica's own state.",
		}, func() float64 { return float64(s.Errors()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "v2bridge_store_up",
			Help: "1 while the shared fleet store answers, 0 while this replica runs on its own state. Readiness does not depend on it.",
		}, func() float64 {
			if s.Status() != nil {
				return 0
			}
			return 1
		}),
	}
	if !s.SharesCache() {
		return cs
	}
	for _, r := range []struct {
		result string
		n      func(fleet.CacheStats) int64
	}{
		{"hit", func(c fleet.CacheStats) int64 { return c.Hits }},
		{"miss", func(c fleet.CacheStats) int64 { return c.Misses }},
		{"written", func(c fleet.CacheStats) int64 { return c.Written }},
		{"skipped_entry_bytes", func(c fleet.CacheStats) int64 { return c.TooLarge }},
		{"skipped_max_bytes", func(c fleet.CacheStats) int64 { return c.OverBudget }},
		{"local_only", func(c fleet.CacheStats) int64 { return c.Unshareable }},
		{"fallback", func(c fleet.CacheStats) int64 { return c.Fallbacks }},
	} {
		cs = append(cs, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name:        "v2bridge_store_cache_total",
			Help:        "Shared cache (store.shared_cache) reads and writes by result: hit, miss, written, skipped for the per-entry or total byte bound, kept local (a value with no shared form), or fallback (the store down or slow: the local cache alone).",
			ConstLabels: prometheus.Labels{"result": r.result},
		}, func() float64 { return float64(r.n(s.CacheStats())) }))
	}
	return cs
}

// storeLine is /readyz?verbose's line about the shared store ("" without one). The
// store's state never changes readiness: a replica without it still answers.
func (g *Gateway) storeLine() string {
	if g.cfg.Store == nil {
		return ""
	}
	if err := g.cfg.Store.Status(); err != nil {
		return "store: unreachable (rate limits, write retirement and the shared cache per replica until it returns): " + err.Error() + "\n"
	}
	return "store: ok (fleet mode)\n"
}
