package restdouble

import (
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// Totaler sums an application's timeslices by metric name over [from, to) (whole
// minutes), over some of its instances (nil: all of them): the demo's generated metrics
// (sim.DemoTimeslices), the data the simulator's NRQL serves.
type Totaler interface {
	InstanceTotals(accountID int, appID int64, instances []int64, from, to time.Time, names ...string) (timeslice.Totals, bool)
}

// summaryWindow is the rolling window of a key transaction's summary ("a rolling ten
// minute average": newrelic/docs-website
// src/content/docs/apis/rest-api-v2/application-examples-v2/summary-data-examples-v2.mdx)
// and of a host's or an instance's (no published page gives theirs; ten minutes, as the
// translation declares it in application_hosts.list's fidelity note).
const summaryWindow = 10 * time.Minute

// reportLag is how far REST's newest figures trail the clock: its recorded metric data
// answers start their slices three minutes before the range asked (newrelic/docs-website
// src/content/docs/apis/rest-api-v2/basic-functions/extract-metric-timeslice-data.mdx),
// so its rolling summaries end there too.
const reportLag = 3 * time.Minute

// window is the [from, to) of a rolling summary at now: whole minutes, ending reportLag
// before now's minute.
func window(now time.Time) (from, to time.Time) {
	to = now.UTC().Truncate(time.Minute).Add(-reportLag)
	return to.Add(-summaryWindow), to
}

// figures are the sums behind a summary: calls and their time (seconds), errors and the
// calls they are a share of, and the Apdex counts (satisfied in count, tolerating in
// total, frustrated in totalExclusive, as an Apdex timeslice holds them).
type figures struct {
	calls, seconds, errors, ofCalls float64
	satisfied, tolerating           float64
	frustrated                      float64
}

// hostFigures sums the timeslices of some of an application's instances over the
// summary window: web transactions (HttpDispatcher), else non-web
// (OtherTransaction/all) for an application without web traffic, errors over both
// (REST's derived error rate: 100 × Errors/all over HttpDispatcher + OtherTransaction/all
// calls), and Apdex.
func (d *Double) hostFigures(accountID, appID int, instances []int64) (figures, bool) {
	if d.timeslices == nil {
		return figures{}, false
	}
	from, to := window(d.now())
	t, ok := d.timeslices.InstanceTotals(accountID, int64(appID), instances, from, to, "HttpDispatcher", "OtherTransaction/all", "Errors/all", "Apdex")
	if !ok {
		return figures{}, false
	}
	web, other, apdex := t["HttpDispatcher"], t["OtherTransaction/all"], t["Apdex"]
	f := figures{calls: web.Count, seconds: web.Total, errors: t["Errors/all"].Count, ofCalls: web.Count + other.Count,
		satisfied: apdex.Count, tolerating: apdex.Total, frustrated: apdex.TotalExclusive}
	if web.Count == 0 {
		f.calls, f.seconds = other.Count, other.Total
	}
	return f, true
}

// keyTxFigures sums a key transaction's own timeslices over the summary window: its
// metric, its error metric (Errors/<metric>) and, for a web transaction, its Apdex
// metric (Apdex/<name without WebTransaction/>).
func (d *Double) keyTxFigures(accountID, appID int, metric string) (figures, bool) {
	if d.timeslices == nil {
		return figures{}, false
	}
	from, to := window(d.now())
	names := []string{metric, "Errors/" + metric}
	apdexName := ""
	if rest, ok := strings.CutPrefix(metric, "WebTransaction/"); ok {
		apdexName = "Apdex/" + rest
		names = append(names, apdexName)
	}
	t, ok := d.timeslices.InstanceTotals(accountID, int64(appID), nil, from, to, names...)
	if !ok {
		return figures{}, false
	}
	calls, apdex := t[metric], t[apdexName]
	return figures{calls: calls.Count, seconds: calls.Total, errors: t["Errors/"+metric].Count, ofCalls: calls.Count,
		satisfied: apdex.Count, tolerating: apdex.Total, frustrated: apdex.TotalExclusive}, true
}

// summary is REST's application_summary of f: response time in milliseconds, calls a
// minute, errors in percent of calls, the Apdex score (S + T/2) / (S + T + F); three
// significant digits and Apdex to two decimals, as REST showed them.
func (f figures) summary() obj {
	o := obj{"response_time": 0.0, "throughput": 0.0, "error_rate": 0.0, "apdex_score": 0.0}
	if f.calls > 0 {
		o["response_time"] = round(f.seconds/f.calls*1000, 3)
		o["throughput"] = round(f.calls/summaryWindow.Minutes(), 3)
	}
	if f.ofCalls > 0 {
		o["error_rate"] = round(100*f.errors/f.ofCalls, 3)
	}
	if n := f.satisfied + f.tolerating + f.frustrated; n > 0 {
		o["apdex_score"] = apdex((f.satisfied + f.tolerating/2) / n)
	}
	return o
}
