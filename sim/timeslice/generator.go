package timeslice

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/sim/nrdb"
)

// Names are the metric names every reporting application has.
var defaultNames = []string{
	"HttpDispatcher", "OtherTransaction/all", "Errors/all", "Apdex", "EndUser", "EndUser/Apdex", "EndUser/RB",
	"WebTransactionTotalTime", "Database/allWeb", "Datastore/MySQL/allWeb", "ActiveRecord/all", "Memcache/allWeb",
	"External/allWeb", "WebFrontend/QueueTime", "Memory/Physical", "CPU/User Time",
	"Controller/orders/show", "Controller/users/index", "Controller/health/check",
	"WebTransaction/Controller/orders/show", "WebTransaction/Controller/users/index",
	"Apdex/Controller/orders/show", "Apdex/Controller/users/index",
	"Errors/WebTransaction/Controller/orders/show", "Errors/WebTransaction/Controller/users/index",
	// Segments recorded both unscoped and scoped to each transaction (Scoped).
	"Datastore/statement/MySQL/users/select", "External/api.example.com/Net::HTTP/GET", "Custom/Billing/charge",
}

// Scoped reports whether NRDB holds scoped copies of a metric besides its unscoped
// row: Datastore/*, External/* and Custom/* segments, except roll-ups (a last segment
// all, allWeb or allOther). A scoped copy carries the same metricTimesliceName and a
// scope attribute naming the transaction it was measured in; unscoped rows have no
// scope ("scope: (Optional) The timeslice name of the legacy metric that this metric
// is scoped to", https://docs.newrelic.com/docs/data-apis/understand-data/metric-data/query-apm-metric-timeslice-data-nrql/,
// newrelic/docs-website src/content/docs/data-apis/understand-data/metric-data/query-apm-metric-timeslice-data-nrql.mdx;
// its example breaks a transaction down with scope = 'Controller/users/show' and
// FACET metricTimesliceName).
func Scoped(name string) bool {
	if !strings.HasPrefix(name, "Datastore/") && !strings.HasPrefix(name, "External/") && !strings.HasPrefix(name, "Custom/") {
		return false
	}
	last := name[strings.LastIndexByte(name, '/')+1:]
	return !strings.HasPrefix(last, "all")
}

// Scopes are the transactions scoped copies are measured in: the application's
// Controller/* names (the form of the doc's example scope).
func Scopes(names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "Controller/") {
			out = append(out, n)
		}
	}
	return out
}

// ScopedTimeslice is the copy of a metric scoped to one transaction: its own numbers,
// drawn like the unscoped metric's.
func (g Generator) ScopedTimeslice(appID, instanceID int64, name, scope string, minute time.Time, apdexT float64) nrdb.Timeslice {
	return g.Timeslice(appID, instanceID, name+"\x00"+scope, minute, apdexT)
}

// DefaultNames returns the metric names the generator knows.
func DefaultNames() []string { return append([]string(nil), defaultNames...) }

// Generator makes raw timeslices from a seed.
type Generator struct {
	Seed uint64
}

// Timeslice returns the raw timeslice of one instance of an application for a metric
// name and minute. Durations are seconds. Apdex metrics use s, t, f, apdex_t, apdex_t, 0.
func (g Generator) Timeslice(appID, instanceID int64, name string, minute time.Time, apdexT float64) nrdb.Timeslice {
	m := minute.Unix() / 60
	base := g.unit(appID, 0, "base", 0)          // per-app scale, stable over time
	u := g.unit(appID, instanceID, name, m)      // per-minute noise
	v := g.unit(appID, instanceID, name+"#2", m) // second noise
	calls := math.Round(20 + 180*base + 40*u)    // calls per minute per instance
	avg := 0.05 + 0.4*base + 0.1*v               // seconds
	switch {
	case name == "Apdex" || strings.HasPrefix(name, "Apdex/") || name == "EndUser/Apdex":
		s := math.Round(calls * (0.7 + 0.25*u))
		f := math.Round((calls - s) * 0.2 * v)
		t := calls - s - f
		return nrdb.Timeslice{Count: s, Total: t, TotalExclusive: f, Min: apdexT, Max: apdexT}
	case name == "Errors/all":
		n := math.Round(calls * 0.02 * u)
		return nrdb.Timeslice{Count: n}
	case strings.HasPrefix(name, "Errors/"):
		n := math.Round(calls * 0.03 * u)
		return nrdb.Timeslice{Count: n}
	case name == "OtherTransaction/all":
		calls = math.Round(calls * 0.3)
	case name == "WebFrontend/QueueTime":
		avg = 0.002 + 0.01*u
	case name == "Memory/Physical":
		mb := 256 + 1024*base + 32*u
		return nrdb.Timeslice{Count: 1, Total: mb, TotalExclusive: mb, Min: mb, Max: mb, SumOfSquares: mb * mb}
	case name == "CPU/User Time":
		// CPU seconds used in the minute, sampled once a second (so average(tsv) is the
		// busy fraction and 100 × sum / window the utilisation).
		frac := 0.05 + 0.5*base + 0.1*u
		return nrdb.Timeslice{Count: 60, Total: 60 * frac, TotalExclusive: 60 * frac, Min: frac * 0.5, Max: math.Min(1, frac*1.5),
			SumOfSquares: 60 * frac * frac}
	case name == "EndUser/RB" || strings.HasPrefix(name, "EndUser/RB/"):
		// A page's DOM content load (total) and its request queuing (totalExclusive):
		// parts of EndUser's front end time, so the docs' page rendering time
		// (EndUser's average_fe_response_time minus this average) stays positive.
		calls = math.Round(calls * 0.5)
		dom, queue := 0.2+0.4*base+0.1*v, 0.002+0.01*u
		return nrdb.Timeslice{Count: calls, Total: calls * dom, TotalExclusive: calls * queue, Min: dom * 0.3, Max: dom * 3,
			SumOfSquares: calls * dom * dom}
	case strings.HasPrefix(name, "EndUser"):
		calls = math.Round(calls * 0.5)
		avg = 1.5 + 2*base + 0.5*v // page load seconds
		total := calls * avg
		fe := total * (0.55 + 0.1*u) // front end
		app := total * 0.2           // application time (REST kept it in sumOfSquares)
		return nrdb.Timeslice{Count: calls, Total: total, TotalExclusive: fe, Min: avg * 0.3, Max: avg * 3, SumOfSquares: app}
	case strings.HasPrefix(name, "Datastore/") || strings.HasPrefix(name, "Database/") || name == "ActiveRecord/all":
		avg *= 0.3
	case strings.HasPrefix(name, "External/") || strings.HasPrefix(name, "Memcache/"):
		avg *= 0.2
		calls = math.Round(calls * 0.5)
	case strings.HasPrefix(name, "Controller/"):
		calls = math.Round(calls * (0.1 + 0.2*g.unit(appID, 0, name, 0)))
	}
	if calls == 0 {
		return nrdb.Timeslice{}
	}
	total := calls * avg
	minV, maxV := avg*0.2, avg*(2+3*v)
	// sumOfSquares of calls spread around avg: count*avg² plus a variance term.
	sd := avg * 0.5
	return nrdb.Timeslice{Count: calls, Total: total, TotalExclusive: total * (0.6 + 0.3*u), Min: minV, Max: maxV,
		SumOfSquares: calls * (avg*avg + sd*sd)}
}

// unit is a deterministic number in [0, 1).
func (g Generator) unit(appID, instanceID int64, name string, minute int64) float64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], g.Seed)
	h.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], uint64(appID))
	h.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], uint64(instanceID))
	h.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], uint64(minute))
	h.Write(b[:])
	h.Write([]byte(name))
	x := h.Sum64()
	// splitmix64 finaliser for a well-spread result.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / float64(1<<53)
}
