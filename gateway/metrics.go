package gateway

import (
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/translate"
)

// Metrics are the gateway's Prometheus series, on a registry of their own (served at
// /metrics). Labels never carry keys: callers appear only as routes and statuses.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	inFlight    prometheus.Gauge
	rateLimited prometheus.Counter
	authRefused *prometheus.CounterVec // requests refused before any NerdGraph call, by reason
	upstream    *prometheus.CounterVec
	upstreamDur *prometheus.HistogramVec
	answerWait  prometheus.Histogram
	cache       *prometheus.CounterVec
	compare     *prometheus.CounterVec
	calls       *prometheus.CounterVec
	degraded    *prometheus.CounterVec
	ops         *opsMetrics // round trips, breaker, time to REST v2's end

	// compareErrors names the failing side of compare-mode errors; compareFallbacks
	// counts answers served from the secondary (compare mode, migrate/compare.go).
	compareErrors    *prometheus.CounterVec
	compareFallbacks *prometheus.CounterVec

	// series memoizes the request series per route, method and status (a bounded set:
	// routes are the table's, methods are bounded by methodLabel, statuses by HTTP), so
	// a request does not hash its labels twice.
	series sync.Map // seriesKey → *requestSeries
}

type seriesKey struct {
	route, method string
	status        int
}

type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// requestSeries returns the request count and duration series of one answer.
func (m *Metrics) requestSeries(route, method string, status int) *requestSeries {
	k := seriesKey{route, method, status}
	if v, ok := m.series.Load(k); ok {
		return v.(*requestSeries)
	}
	s := &requestSeries{
		count:    m.requests.WithLabelValues(route, method, strconv.Itoa(status)),
		duration: m.duration.WithLabelValues(route),
	}
	v, _ := m.series.LoadOrStore(k, s)
	return v.(*requestSeries)
}

// NewMetrics registers the series on a new registry.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_requests_total", Help: "REST v2 requests answered, by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "v2bridge_request_duration_seconds", Help: "Time to answer a REST v2 request, by route.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "v2bridge_requests_in_flight", Help: "REST v2 requests being answered.",
		}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "v2bridge_rate_limited_total", Help: "Requests refused by the per-key REST v2 rate limit.",
		}),
		authRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_auth_refused_total",
			Help: "Requests refused before any NerdGraph call: rejected_key (a key NerdGraph refused " +
				"within rejected_key_ttl) or address_limit (too many failed authentications from " +
				"the client address).",
		}, []string{"reason"}),
		upstream: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_upstream_requests_total", Help: "NerdGraph requests, by operation and " +
				"result class (ok or the error kind).",
		}, []string{"operation", "class"}),
		upstreamDur: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "v2bridge_upstream_duration_seconds", Help: "NerdGraph request latency, by operation.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"operation"}),
		answerWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "v2bridge_large_answer_wait_seconds",
			Help: "Time a large NerdGraph answer (256 KiB or more) waited for the memory budget " +
				"of answers being decoded and answered (graphql.Options.AnswerMemory); only " +
				"answers that waited.",
			Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_cache_requests_total", Help: "Cache lookups, by cache and result (hit or miss).",
		}, []string{"cache", "result"}),
		compare: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_compare_total", Help: "Compare-mode comparisons, by route and result " +
				"(match, declared: differences the route's fidelity note declares only, diff, timeout, error, skipped).",
		}, []string{"route", "result"}),
		compareErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_compare_errors_total", Help: "Compare-mode comparisons not made because " +
				"a side failed, by route and side (rest, graph or both).",
		}, []string{"route", "side"}),
		compareFallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_compare_fallbacks_total", Help: "Compare-mode answers served from the " +
				"secondary because the primary failed, by route and the side that answered.",
		}, []string{"route", "side"}),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_v2_calls_total",
			Help: "REST v2 calls by route, caller (first 8 hex characters of the key's SHA-256), " +
				"mode and fidelity: the migration checklist.",
		}, []string{"route", "caller", "mode", "fidelity"}),
		degraded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "v2bridge_degraded_total",
			Help: "Answers served short of an NRDB or NerdGraph limit (X-V2bridge-Degraded), by " +
				"route and cap (translate/caps.go).",
		}, []string{"route", "cap"}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.inFlight, m.rateLimited, m.authRefused, m.upstream, m.upstreamDur, m.answerWait, m.cache, m.compare, m.calls, m.degraded,
		m.compareErrors, m.compareFallbacks,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.ops = newOpsMetrics(m.reg, time.Now)
	return m
}

// Registry is where the series live.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ObserveUpstream is a graphql.Options.Observe hook.
func (m *Metrics) ObserveUpstream(op string, d time.Duration, err error) {
	class := "ok"
	var ge *ng.Error
	if errors.As(err, &ge) {
		class = ge.Kind.String()
	} else if err != nil {
		class = "error"
	}
	m.upstream.WithLabelValues(op, class).Inc()
	m.upstreamDur.WithLabelValues(op).Observe(d.Seconds())
}

// ObserveAnswerWait is a graphql.Options.ObserveAnswerWait hook.
func (m *Metrics) ObserveAnswerWait(d time.Duration) { m.answerWait.Observe(d.Seconds()) }

// ObserveCache is a translate.Options.ObserveCache hook.
func (m *Metrics) ObserveCache(cache string, hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	m.cache.WithLabelValues(cache, result).Inc()
}

// CompareErrorCounter is the counter of compare-mode errors of a route by failing side
// (rest, graph or both).
func (m *Metrics) CompareErrorCounter(route, side string) prometheus.Counter {
	return m.compareErrors.WithLabelValues(route, side)
}

// CompareFallbackCounter counts a route's answers served from the secondary side.
func (m *Metrics) CompareFallbackCounter(route, side string) prometheus.Counter {
	return m.compareFallbacks.WithLabelValues(route, side)
}

// CompareCounter is the compare-mode counter of a route and result (for tests and
// reports).
func (m *Metrics) CompareCounter(route, result string) prometheus.Counter {
	return m.compare.WithLabelValues(route, result)
}

// DegradedCounter is the count of answers of a route served short of cap (for tests
// and reports).
func (m *Metrics) DegradedCounter(route, cap string) prometheus.Counter {
	return m.degraded.WithLabelValues(route, cap)
}

// opsMetrics are the series the dashboard and alert rules of configs/ need beyond the
// request counters: NerdGraph round trips per request, the circuit breaker's state and
// the time left until REST v2 is switched off.
type opsMetrics struct {
	roundTrips *prometheus.HistogramVec
	perRoute   sync.Map // route → prometheus.Observer, so a request hashes no labels

	breakerMu sync.Mutex
	breaker   func() bool
}

func newOpsMetrics(reg *prometheus.Registry, now func() time.Time) *opsMetrics {
	o := &opsMetrics{
		roundTrips: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "v2bridge_upstream_round_trips_per_request",
			Help:    "NerdGraph round trips spent on one REST v2 request (0: answered from cache), by route.",
			Buckets: []float64{0, 1, 2, 3, 5, 8, 13, 21},
		}, []string{"route"}),
	}
	reg.MustRegister(o.roundTrips,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "v2bridge_upstream_breaker_open",
			Help: "1 while the NerdGraph circuit breaker is open or half-open (calls fail fast), else 0.",
		}, o.breakerOpen),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "v2bridge_rest_v2_shutdown_remaining_seconds",
			Help: "Seconds until New Relic switches REST API v2 off (2027-07-31 23:59:59 UTC).",
		}, func() float64 { return Sunset().Sub(now()).Seconds() }),
	)
	return o
}

func (o *opsMetrics) breakerOpen() float64 {
	o.breakerMu.Lock()
	f := o.breaker
	o.breakerMu.Unlock()
	if f != nil && f() {
		return 1
	}
	return 0
}

// WatchBreaker makes v2bridge_upstream_breaker_open report open() (the NerdGraph
// client's BreakerOpen).
func (m *Metrics) WatchBreaker(open func() bool) {
	m.ops.breakerMu.Lock()
	m.ops.breaker = open
	m.ops.breakerMu.Unlock()
}

// observeRoundTrips records the NerdGraph round trips of one answered request.
func (m *Metrics) observeRoundTrips(route string, n int64) {
	v, ok := m.ops.perRoute.Load(route)
	if !ok {
		v, _ = m.ops.perRoute.LoadOrStore(route, m.ops.roundTrips.WithLabelValues(route))
	}
	v.(prometheus.Observer).Observe(float64(n))
}

// cacheCollector exports the translator caches' and the replay store's byte use and
// evictions: v2bridge_cache_bytes{cache} and v2bridge_cache_evictions_total{cache}.
type cacheCollector struct {
	tr     *translate.Translator
	replay *state.Cache // nil: none
}

var (
	cacheBytesDesc = prometheus.NewDesc("v2bridge_cache_bytes",
		"Estimated bytes held by each cache (bounded by cache.max_bytes).", []string{"cache"}, nil)
	cacheEvictionsDesc = prometheus.NewDesc("v2bridge_cache_evictions_total",
		"Cache entries evicted to make room (or not stored for lack of it), by cache.", []string{"cache"}, nil)
)

func (c cacheCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- cacheBytesDesc
	ch <- cacheEvictionsDesc
}

func (c cacheCollector) Collect(ch chan<- prometheus.Metric) {
	for name, s := range c.tr.CacheStats() {
		ch <- prometheus.MustNewConstMetric(cacheBytesDesc, prometheus.GaugeValue, float64(s[0]), name)
		ch <- prometheus.MustNewConstMetric(cacheEvictionsDesc, prometheus.CounterValue, float64(s[1]), name)
	}
	if c.replay != nil {
		ch <- prometheus.MustNewConstMetric(cacheBytesDesc, prometheus.GaugeValue, float64(c.replay.Bytes()), c.replay.Name())
		ch <- prometheus.MustNewConstMetric(cacheEvictionsDesc, prometheus.CounterValue, float64(c.replay.Evictions()), c.replay.Name())
	}
}

// storeCollector is v2bridge_store_errors_total, v2bridge_store_up and, with the shared
// cache on, v2bridge_store_cache_total{result}.
func storeCollector(s state.StoreHealth) []prometheus.Collector {
	cs := []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "v2bridge_store_errors_total",
			Help: "Calls to the shared fleet store (store: in the configuration) that failed or " +
				"timed out; each fell back to this replica's own state.",
		}, func() float64 { return float64(s.Errors()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "v2bridge_store_up",
			Help: "1 while the shared fleet store answers, 0 while this replica runs on its own " +
				"state. Readiness does not depend on it.",
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
		n      func(state.CacheStats) int64
	}{
		{"hit", func(c state.CacheStats) int64 { return c.Hits }},
		{"miss", func(c state.CacheStats) int64 { return c.Misses }},
		{"written", func(c state.CacheStats) int64 { return c.Written }},
		{"skipped_entry_bytes", func(c state.CacheStats) int64 { return c.TooLarge }},
		{"skipped_max_bytes", func(c state.CacheStats) int64 { return c.OverBudget }},
		{"local_only", func(c state.CacheStats) int64 { return c.Unshareable }},
		{"fallback", func(c state.CacheStats) int64 { return c.Fallbacks }},
	} {
		cs = append(cs, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "v2bridge_store_cache_total",
			Help: "Shared cache (store.shared_cache) reads and writes by result: hit, miss, " +
				"written, skipped for the per-entry or total byte bound, kept local (a value " +
				"with no shared form), or fallback (the store down or slow: the local cache " +
				"alone).",
			ConstLabels: prometheus.Labels{"result": r.result},
		}, func() float64 { return float64(r.n(s.CacheStats())) }))
	}
	return cs
}
