package gateway

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

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
