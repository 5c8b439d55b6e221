package e2e

import (
	"context"
	"encoding/json"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/nrdb"
	"github.com/v2bridge/v2bridge/sim/timeslice"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

const metricApp = "314221522" // a reporting PHP app of account 1 with two instances

type metricDataBody struct {
	MetricData struct {
		From, To string
		NotFound []string `json:"metrics_not_found"`
		Found    []string `json:"metrics_found"`
		Metrics  []struct {
			Name       string
			Timeslices []struct {
				From, To string
				Values   map[string]float64
			}
		}
	} `json:"metric_data"`
}

func (e *env) metricData(t *testing.T, query string) (metricDataBody, response) {
	t.Helper()
	r := e.get(t, "/v2/applications/"+metricApp+"/metrics/data.json?"+query, key1)
	var b metricDataBody
	if r.status == 200 {
		if err := json.Unmarshal(r.body, &b); err != nil {
			t.Fatal(err)
		}
	}
	return b, r
}

// summaries asks each name for the values of its own family, one request a name (as a
// REST client had to: values[] asked of several names are served only as far as the
// first name has them, translate/metricdata firstNameValues), summarized over [from, to), and
// returns each name's values.
func (e *env) summaries(t *testing.T, names, values []string, from, to time.Time) map[string]map[string]float64 {
	t.Helper()
	got := map[string]map[string]float64{}
	for _, n := range names {
		b, r := e.metricData(t, url.Values{"names[]": {n}, "values[]": values,
			"from": {from.Format(time.RFC3339)}, "to": {to.Format(time.RFC3339)}, "summarize": {"true"}}.Encode())
		if r.status != 200 {
			t.Fatalf("%s: %d %s", n, r.status, r.body)
		}
		for _, m := range b.MetricData.Metrics {
			got[m.Name] = m.Timeslices[0].Values
		}
	}
	return got
}

// rawSums adds up the simulator's raw timeslices of a metric over [from, to) as NRDB
// holds them at the clock: an instance's minute once it arrived (timeslice Arrival).
func rawSums(t *testing.T, name string, from, to time.Time) nrdb.Timeslice {
	t.Helper()
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	gen := timeslice.Generator{Seed: sim.DemoSeed}
	var sum nrdb.Timeslice
	for _, acct := range data.Accounts {
		for _, a := range acct.APMApplications {
			if strconv.Itoa(a.ID) != metricApp {
				continue
			}
			for _, in := range a.Instances {
				for m := from; m.Before(to); m = m.Add(time.Minute) {
					if m.Add(time.Minute + gen.Arrival(in.ID)).After(clock) {
						continue
					}
					ts := gen.Timeslice(int64(a.ID), in.ID, name, m, a.ApdexTarget)
					sum.Count += ts.Count
					sum.Total += ts.Total
					sum.TotalExclusive += ts.TotalExclusive
					sum.SumOfSquares += ts.SumOfSquares
				}
			}
		}
	}
	return sum
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// nearFigures is near for a value derived from values REST showed to three
// significant digits (translate/figures.go): each is off by at most half a unit of its
// third digit, 0.5 %, so what is derived from them may be off by about as much of the
// magnitude of its parts (scale).
func nearFigures(t *testing.T, what string, got, want, scale float64) {
	t.Helper()
	if math.Abs(got-want) > 0.011*math.Abs(scale) {
		t.Errorf("%s = %v, want %v (within 1.1 %% of %v)", what, got, want, scale)
	}
}

// The seed's derived values computed from gateway answers equal the same values
// computed from the simulator's raw timeslices.
func TestMetricDerivedValues(t *testing.T) {
	e := newEnv(t)
	from, to := clock.Add(-65*time.Minute), clock.Add(-5*time.Minute) // every minute ingested
	names := []string{"HttpDispatcher", "OtherTransaction/all", "Errors/all", "WebFrontend/QueueTime",
		"Datastore/MySQL/allWeb", "EndUser", "EndUser/RB"}
	got := e.summaries(t, names, []string{"call_count", "error_count", "average_call_time", "average_response_time",
		"average_fe_response_time", "average_dom_content_load_time", "total_app_time"}, from, to)
	raw := map[string]nrdb.Timeslice{}
	for _, n := range names {
		raw[n] = rawSums(t, n, from, to)
	}
	http, other, errs := raw["HttpDispatcher"], raw["OtherTransaction/all"], raw["Errors/all"]
	// call_count and error_count are counts, shown exact
	near(t, "error rate", 100*got["Errors/all"]["error_count"]/(got["HttpDispatcher"]["call_count"]+got["OtherTransaction/all"]["call_count"]),
		100*errs.Count/(http.Count+other.Count))
	queue := raw["WebFrontend/QueueTime"]
	response := http.Total/http.Count*1000 + queue.Count*(queue.Total/queue.Count*1000)/http.Count
	nearFigures(t, "response time",
		got["HttpDispatcher"]["average_call_time"]+got["WebFrontend/QueueTime"]["call_count"]*got["WebFrontend/QueueTime"]["average_response_time"]/got["HttpDispatcher"]["call_count"],
		response, response)
	db := raw["Datastore/MySQL/allWeb"]
	nearFigures(t, "datastore time",
		got["Datastore/MySQL/allWeb"]["average_response_time"]*got["Datastore/MySQL/allWeb"]["call_count"]/got["HttpDispatcher"]["call_count"],
		db.Total/db.Count*1000*db.Count/http.Count, db.Total/db.Count*1000*db.Count/http.Count)
	eu, rb := raw["EndUser"], raw["EndUser/RB"]
	fe, dom := eu.TotalExclusive/eu.Count*1000, rb.Total/rb.Count*1000
	nearFigures(t, "page rendering",
		got["EndUser"]["average_fe_response_time"]-got["EndUser/RB"]["average_dom_content_load_time"], fe-dom, fe+dom)
	// the DOM's time is part of the front end's (the simulator's data keeps it so)
	if fe-dom <= 0 {
		t.Errorf("page rendering %v ms: the simulator's DOM content load exceeds the front end time", fe-dom)
	}
	// EndUser/RB serves the request queuing time, in ms (docs-website
	// obtaining-browser-end-user-page-load-time-data-v2.mdx; its published formula, a
	// mean over the timeslice rows, is checked with the queue metric's in tests/spec)
	if q, ok := e.summaries(t, []string{"EndUser/RB"}, []string{"average_queue_time"}, from, to)["EndUser/RB"]["average_queue_time"]; !ok || q <= 0 {
		t.Errorf("EndUser/RB average_queue_time = %v (served: %v), want a time", q, ok)
	}
	nearFigures(t, "web application time", got["EndUser"]["total_app_time"]/got["EndUser"]["call_count"], eu.SumOfSquares/eu.Count, eu.SumOfSquares/eu.Count)
}

// 121 names take one round trip; the 120 without data are looked up in the names
// route's cached answer (read here first), no further round trip.
func TestMetricDataOneRoundTripFor120Names(t *testing.T) {
	e := newEnv(t)
	e.get(t, "/v2/applications.json", key1)                       // resolve the account first
	e.get(t, "/v2/applications/"+metricApp+"/metrics.json", key1) // the names, cached
	q := url.Values{}
	for i := 0; i < 120; i++ {
		q.Add("names[]", "Custom/metric/"+strconv.Itoa(i))
	}
	q.Add("names[]", "HttpDispatcher")
	b, r := e.metricData(t, q.Encode())
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "1" {
		t.Fatalf("upstream calls = %s, want 1", got)
	}
	if len(b.MetricData.NotFound) != 120 || len(b.MetricData.Found) != 1 {
		t.Fatalf("found %v, not found %d", b.MetricData.Found, len(b.MetricData.NotFound))
	}
	// The same query again within a minute is answered from cache.
	_, r = e.metricData(t, q.Encode())
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "0" {
		t.Fatalf("repeated query upstream calls = %s, want 0", got)
	}
}

func TestMetricDataGolden(t *testing.T) {
	e := newEnv(t)
	tests := []struct{ name, query string }{
		{"one_name", "names[]=HttpDispatcher&from=2026-11-20T11:50:00Z&to=2026-11-20T11:55:00Z"},
		{"several_values", "names[]=HttpDispatcher&names[]=Errors/all&values[]=call_count&values[]=error_count&values[]=average_response_time&from=2026-11-20T11:50:00Z&to=2026-11-20T11:53:00Z"},
		{"summarize", "names[]=HttpDispatcher&names[]=Memory/Physical&summarize=true&from=2026-11-20T11:00:00Z&to=2026-11-20T12:00:00Z"},
		{"apdex", "names[]=Apdex&names[]=EndUser/Apdex&from=2026-11-20T11:52:00Z&to=2026-11-20T11:55:00Z"},
		{"not_found", "names[]=Foo&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"},
		{"offset", "names[]=CPU/User%20Time&from=2026-11-20T17:20:00%2B06:00&to=2026-11-20+17:25:00+06:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []string{"json", "xml"} {
				r := e.get(t, "/v2/applications/"+metricApp+"/metrics/data."+format+"?"+tt.query, key1)
				if r.status != 200 {
					t.Fatalf("%d %s", r.status, r.body)
				}
				if format == "xml" {
					wellFormed(t, r.body)
				}
				golden(t, "metric_data_"+tt.name+"."+format, r.body)
			}
		})
	}
}

func TestMetricDataErrors(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name, query string
		status      int
		title       string
	}{
		{"59 seconds", "names[]=HttpDispatcher&from=2026-11-20T11:00:00Z&to=2026-11-20T11:00:59Z", 422, "at least 60 seconds"},
		{"from after to", "names[]=HttpDispatcher&from=2026-11-20T11:10:00Z&to=2026-11-20T11:00:00Z", 422, "before"},
		{"unparseable from", "names[]=HttpDispatcher&from=yesterday", 400, "from"},
		{"no names", "values[]=call_count", 422, "names[]"},
		{"bad period", "names[]=HttpDispatcher&period=abc", 400, "period"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.get(t, "/v2/applications/"+metricApp+"/metrics/data.json?"+tt.query, key1)
			b := decode(t, r)
			if r.status != tt.status || b.Error == nil || !strings.Contains(b.Error.Title, tt.title) {
				t.Fatalf("%d %s", r.status, r.body)
			}
		})
	}
	r := e.get(t, "/v2/applications/1/metrics/data.json?names[]=HttpDispatcher", key1)
	if r.status != 404 {
		t.Fatalf("unknown app: %d %s", r.status, r.body)
	}
}

func TestMetricNames(t *testing.T) {
	e := newEnv(t)
	r := e.get(t, "/v2/applications/"+metricApp+"/metrics.json?name=Apdex", key1)
	var b struct {
		Metrics []struct {
			Name   string
			Values []string
		}
	}
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if len(b.Metrics) != 4 || b.Metrics[0].Name != "Apdex" || b.Metrics[0].Values[0] != "s" || b.Metrics[1].Name != "Apdex/Controller/orders/show" {
		t.Fatalf("%s", r.body)
	}
	golden(t, "metric_names_apdex.json", r.body)
	r = e.get(t, "/v2/applications/"+metricApp+"/metrics.xml", key1)
	wellFormed(t, r.body)
	golden(t, "metric_names.xml", r.body)
}

// The application summary agrees with the metric data of its window.
func TestApplicationSummaryAgreesWithMetricData(t *testing.T) {
	e := newEnv(t)
	var show struct {
		Application struct {
			Summary struct {
				ResponseTime float64 `json:"response_time"`
				Throughput   float64
				ErrorRate    float64 `json:"error_rate"`
				ApdexScore   float64 `json:"apdex_score"`
			} `json:"application_summary"`
		}
	}
	r := e.get(t, "/v2/applications/"+metricApp+".json", key1)
	if err := json.Unmarshal(r.body, &show); err != nil {
		t.Fatal(err)
	}
	// The summary's window ends now, past the newest ingested minute the metric data
	// route ends at: the same sums come from the simulator's raw timeslices NRDB holds
	// now (its newest minutes partial).
	from := clock.Add(-sim.SummaryWindow)
	http, other, errs, apdex := rawSums(t, "HttpDispatcher", from, clock), rawSums(t, "OtherTransaction/all", from, clock),
		rawSums(t, "Errors/all", from, clock), rawSums(t, "Apdex", from, clock)
	s := show.Application.Summary
	// REST's figures: three significant digits, Apdex two decimals
	near(t, "throughput", s.Throughput, harness.Figure(http.Count/sim.SummaryWindow.Minutes()))
	near(t, "response time", s.ResponseTime, harness.Figure(1000*http.Total/http.Count))
	near(t, "error rate", s.ErrorRate, harness.Figure(100*errs.Count/(http.Count+other.Count)))
	near(t, "apdex score", s.ApdexScore, math.Round(100*(apdex.Count+apdex.Total/2)/(apdex.Count+apdex.Total+apdex.TotalExclusive))/100)
}

// A cached answer is shared and its rendered bytes remembered: repeats are identical in
// both formats, while other values[], another from (the same whole minutes) or another
// caller get their own answers — never a neighbour's bytes.
func TestMetricDataCacheServesExactAnswers(t *testing.T) {
	e := newEnv(t)
	e.get(t, "/v2/applications.json", key1)
	base := "/v2/applications/" + metricApp + "/metrics/data"
	q := "?names[]=HttpDispatcher&from=2026-11-20T11:30:00Z&to=2026-11-20T11:40:00Z"
	tests := []struct {
		name, path, key string
		calls           string
	}{
		{"first json", base + ".json" + q, key1, "1"},
		{"first xml (same data)", base + ".xml" + q, key1, "0"},
		{"other values", base + ".json" + q + "&values[]=call_count", key1, "0"},
		{"from a few seconds earlier (the same whole minutes)", base + ".json" + strings.Replace(q, "11:30:00", "11:29:40", 1), key1, "0"},
	}
	first := map[string]string{}
	for _, tt := range tests {
		r := e.get(t, tt.path, tt.key)
		if r.status != 200 || r.header.Get("X-V2bridge-Upstream-Calls") != tt.calls {
			t.Fatalf("%s: %d, %s upstream calls, want %s", tt.name, r.status, r.header.Get("X-V2bridge-Upstream-Calls"), tt.calls)
		}
		again := e.get(t, tt.path, tt.key)
		if string(again.body) != string(r.body) || again.header.Get("X-V2bridge-Upstream-Calls") != "0" {
			t.Fatalf("%s: the repeat differs or called NerdGraph", tt.name)
		}
		for other, body := range first {
			if body == string(r.body) {
				t.Fatalf("%s answered with the bytes of %s", tt.name, other)
			}
		}
		first[tt.name] = string(r.body)
	}
	if !strings.Contains(first["from a few seconds earlier (the same whole minutes)"], `"from":"2026-11-20T11:29:40+00:00"`) {
		t.Errorf("from is not echoed: %.200s", first["from a few seconds earlier (the same whole minutes)"])
	}
	// Another tenant asking the same question gets its own lookup, not the cache.
	if r := e.get(t, base+".json"+q, key2); r.status != 404 {
		t.Fatalf("another account's application: %d %s", r.status, r.body)
	}
}

// scopedName is a demo metric NRDB also holds scoped to each transaction.
const scopedName = "Datastore/statement/MySQL/users/select"

// publishedValue runs New Relic's published NRQL for a value of a metric (the string of
// the gateway's value table, restricted to unscoped rows and the application) with the
// simulator's NRQL engine over the demo data, which holds scoped copies of segment
// metrics. One number per slice of period seconds in [from, to), or one for the range
// when period is 0.
func publishedValue(t *testing.T, runner *nrdb.Runner, scope, name string, spec metricdata.ValueSpec, from, to time.Time, period int) []float64 {
	t.Helper()
	expr := spec.NRQL
	if spec.Scalar != "" {
		expr = spec.Scalar
	}
	window := int(to.Sub(from).Seconds())
	if period > 0 {
		window = period
	}
	expr = strings.ReplaceAll(expr, metricdata.TimeWindowSeconds, strconv.Itoa(window))
	// A formula that names its metrics (error_percentage's filters) reads them itself.
	names := " AND metricTimesliceName = '" + name + "'"
	if strings.Contains(expr, "metricTimesliceName") {
		names = ""
	}
	q := "SELECT " + expr + " AS 'v' FROM Metric WHERE " + scope + " AND scope IS NULL" + names +
		" SINCE " + strconv.FormatInt(from.UnixMilli(), 10) + " UNTIL " + strconv.FormatInt(to.UnixMilli(), 10)
	if period > 0 {
		q += " TIMESERIES " + strconv.Itoa(period) + " seconds"
	}
	rows, _, _, err := runner.RunNRQL(context.Background(), []int{1000001}, q, clock)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	out := make([]float64, len(rows))
	for i, row := range rows {
		out[i], _ = row["v"].(float64) // null (no rows) is 0, as the gateway renders it
	}
	return out
}

// Every REST v2 value name the gateway serves equals New Relic's published NRQL for it
// (metricdata.Value: the migration page's tables), per 1-minute slice and
// summarized, through the real metric data route; the demo data hold scoped copies of
// the segment metric, which the published NRQL's unscoped restriction leaves out. It
// fails when the gateway's scope filter is dropped (the rows of scopedName) or a
// formula departs from the published one (the row of that value).
func TestMetricValuesFollowPublishedNRQL(t *testing.T) {
	e := newEnv(t)
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	runner := sim.DemoMetrics(data, func() time.Time { return clock })
	// The demo really holds scoped copies of scopedName, and the unscoped restriction
	// changes its sums.
	all := publishedValue(t, runner, "appId = "+metricApp+" AND 1 = 1", scopedName,
		metricdata.ValueSpec{NRQL: "count(newrelic.timeslice.value)"}, clock.Add(-time.Hour), clock, 0)
	if rows, _, _, err := runner.RunNRQL(context.Background(), []int{1000001}, "SELECT count(newrelic.timeslice.value) AS 'v' FROM Metric WHERE appId = "+
		metricApp+" AND metricTimesliceName = '"+scopedName+"' SINCE 1 hour ago", clock); err != nil || rows[0]["v"].(float64) <= 2*all[0] {
		t.Fatalf("the demo holds no scoped copies of %s: %v %v (unscoped %v)", scopedName, rows, err, all)
	}

	tests := []struct{ value, name string }{
		{"average_response_time", scopedName}, {"calls_per_minute", scopedName}, {"call_count", scopedName},
		{"min_response_time", scopedName}, {"max_response_time", scopedName}, {"average_exclusive_time", scopedName},
		{"average_value", scopedName}, {"total_call_time_per_minute", scopedName}, {"requests_per_minute", scopedName},
		{"standard_deviation", scopedName}, {"average_call_time", scopedName}, {"average_time", scopedName},
		{"count", scopedName}, {"total_value", scopedName}, {"min_value", scopedName}, {"max_value", scopedName},
		{"rate", scopedName}, {"throughput", scopedName}, {"total_time", scopedName}, {"as_percentage", scopedName},
		{"errors_per_minute", "Errors/all"}, {"error_count", "Errors/all"},
		{"used_bytes_by_host", "Memory/Physical"}, {"used_mb_by_host", "Memory/Physical"}, {"total_used_mb", "Memory/Physical"},
		{"percent", "CPU/User Time"}, {"time_percentage", "CPU/User Time"}, {"utilization", "CPU/User Time"},
		{"average_response_time", "EndUser"}, {"average_fe_response_time", "EndUser"}, {"average_be_response_time", "EndUser"},
		{"average_network_time", "EndUser"}, {"total_network_time", "EndUser"}, {"network_time_percentage", "EndUser"},
		{"total_fe_time", "EndUser"}, {"fe_time_percentage", "EndUser"}, {"total_app_time", "EndUser"}, {"average_app_time", "EndUser"},
		{"average_dom_content_load_time", "EndUser/RB"}, {"total_dom_content_time", "EndUser/RB"},
		{"average_queue_time", "EndUser/RB"}, {"total_queue_time", "EndUser/RB"},
		{"sessions_active", scopedName}, {"total_visits", scopedName}, {"visits_percentage", scopedName},
		{"launch_count", "EndUser"}, {"average_sent_bytes", "EndUser"}, {"average_received_bytes", "EndUser"},
		{"error_percentage", "EndUser"},
		{"s", "Apdex"}, {"t", "Apdex"}, {"f", "Apdex"}, {"count", "Apdex"}, {"score", "Apdex"}, {"value", "Apdex"},
		{"threshold", "Apdex"}, {"threshold_min", "Apdex"},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.value] = true
	}
	for _, v := range metricdata.ServedValues() {
		if !covered[v] {
			t.Errorf("served value %s has no row", v)
		}
	}
	windows := []struct {
		name      string
		from, to  time.Time
		period    int
		summarize bool
	}{
		// Ranges whose every minute is ingested (the gateway ends a range at its newest
		// ingested minute).
		{"1-minute slices", clock.Add(-35 * time.Minute), clock.Add(-5 * time.Minute), 60, false},
		{"summarized hour", clock.Add(-65 * time.Minute), clock.Add(-5 * time.Minute), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.value+" of "+tt.name, func(t *testing.T) {
			spec, ok := metricdata.Value(tt.name, tt.value)
			if !ok {
				t.Fatalf("%s does not serve %s", tt.name, tt.value)
			}
			if spec.Doc == "" || (spec.Factor != 1 && spec.Why == "") {
				t.Fatalf("%s: no source, or a departure without its reason: %+v", tt.value, spec)
			}
			for _, w := range windows {
				want := publishedValue(t, runner, "appId = "+metricApp, tt.name, spec, w.from, w.to, w.period)
				q := url.Values{"names[]": {tt.name}, "values[]": {tt.value}, "from": {w.from.Format(time.RFC3339)},
					"to": {w.to.Format(time.RFC3339)}, "summarize": {strconv.FormatBool(w.summarize)}}
				b, r := e.metricData(t, q.Encode())
				if r.status != 200 || len(b.MetricData.Metrics) != 1 {
					t.Fatalf("%s: %d %s", w.name, r.status, r.body)
				}
				got := b.MetricData.Metrics[0].Timeslices
				if len(got) != len(want) {
					t.Fatalf("%s: %d slices, published NRQL %d", w.name, len(got), len(want))
				}
				for i, sl := range got {
					g, ok := sl.Values[tt.value]
					if !ok {
						t.Fatalf("%s slice %d: no %s in %v", w.name, i, tt.value, sl.Values)
					}
					if x := harness.MetricFigure(tt.value, want[i]*spec.Factor); math.Abs(g-x) > 1e-9*math.Max(1, math.Abs(x)) {
						t.Fatalf("%s slice %s: gateway %v, published NRQL %v (%s)", w.name, sl.From, g, x, spec.NRQL)
					}
				}
			}
		})
	}
}

// Instance scope: the instance's metric data equal the published NRQL scoped with
// realAgentId = '<id>' (the migration page's quoted form), unscoped rows only.
func TestInstanceMetricDataFollowsPublishedNRQL(t *testing.T) {
	e := newEnv(t)
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	runner := sim.DemoMetrics(data, func() time.Time { return clock })
	const instance = "1663741264"
	from, to := clock.Add(-65*time.Minute), clock.Add(-5*time.Minute) // every minute ingested
	for _, value := range []string{"call_count", "average_exclusive_time", "standard_deviation"} {
		spec, _ := metricdata.Value(scopedName, value)
		want := publishedValue(t, runner, "appId = "+metricApp+" AND realAgentId = '"+instance+"'", scopedName, spec, from, to, 0)
		r := e.get(t, "/v2/applications/"+metricApp+"/instances/"+instance+"/metrics/data.json?"+url.Values{
			"names[]": {scopedName}, "values[]": {value}, "summarize": {"true"},
			"from": {from.Format(time.RFC3339)}, "to": {to.Format(time.RFC3339)}}.Encode(), key1)
		var b metricDataBody
		if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 || len(b.MetricData.Metrics) != 1 {
			t.Fatalf("%s: %d %s", value, r.status, r.body)
		}
		if g, x := b.MetricData.Metrics[0].Timeslices[0].Values[value], harness.MetricFigure(value, want[0]); want[0] == 0 || math.Abs(g-x) > 1e-9*x {
			t.Errorf("%s: gateway %v, published NRQL %v shown as REST showed it %v", value, g, want[0], x)
		}
	}
}
