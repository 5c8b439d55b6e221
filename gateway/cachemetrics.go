package gateway

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/v2bridge/v2bridge/translate"
)

// cacheCollector exports the translator caches' byte use and evictions:
// v2bridge_cache_bytes{cache} and v2bridge_cache_evictions_total{cache}.
type cacheCollector struct{ tr *translate.Translator }

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
}
