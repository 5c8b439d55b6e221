package metricdata

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim/nrdb"
)

// The metric value formulas: every served value computed from one raw slice, each
// expected number worked out by hand from the published NRQL of New Relic's "Migrate
// metric timeslice queries to NRQL" tables (docMigrate; newrelic/docs-website
// src/content/docs/apis/rest-api-v2/migrate-to-nrql.mdx) over the same aggregates, and
// the vocabulary of each metric family. An operator or a unit factor changed in any
// formula changes its row.

// mutRaw has a distinct value per aggregate, so a formula reading the wrong one shows.
var mutRaw = raw{count: 10, total: 4, exclusive: 1.5, min: 0.1, max: 0.9, sumSquares: 0.5,
	stddev: 0.2, exclusiveRatio: 0.03, exclusiveMean: 0.15, pageErrors: 3, pageViews: 12}

// mutSeconds is the slice's length: 2 minutes.
const mutSeconds = 120.0

func TestMetricValueFormulas(t *testing.T) {
	// network = sum - sum(totalExclusive) - sum(sumOfSquares) = 4 - 1.5 - 0.5 = 2.
	want := map[string]float64{
		"average_response_time":      4.0 / 10 * 1000,
		"calls_per_minute":           10.0 / 2,
		"call_count":                 10,
		"min_response_time":          100,
		"max_response_time":          900,
		"average_exclusive_time":     30,
		"average_value":              0.4,
		"total_call_time_per_minute": 4.0 / 2,
		"requests_per_minute":        5,
		"standard_deviation":         200,
		"average_time":               400,
		"count":                      10,
		"used_bytes_by_host":         0.4 * 1024 * 1024,
		"used_mb_by_host":            0.4,
		"total_used_mb":              4.0 / 2, // per minute of the 2-minute slice
		"average_call_time":          400,
		"total_value":                4,
		"min_value":                  0.1,
		"max_value":                  0.9,
		"rate":                       4.0 / 120,
		"throughput":                 10.0 / 120,
		"as_percentage":              40,
		"errors_per_minute":          5,
		"error_count":                10,
		"total_time":                 4000,
		"percent":                    40,
		"percent(CPU/User Time)":     100 * 4.0 / 120,
		"time_percentage":            100 * 4.0 / 120,
		"utilization":                100 * 4.0 / 120,
		"sessions_active":            0.4,
		"total_visits":               4,
		"visits_percentage":          100 * 4.0 / 120,

		"average_fe_response_time":      1.5 / 10 * 1000,
		"average_be_response_time":      1000 * (4 - 1.5) / 10,
		"average_network_time":          2.0 / 10 * 1000,
		"total_network_time":            2,
		"network_time_percentage":       2.0 / 120,
		"total_fe_time":                 1.5,
		"fe_time_percentage":            100 * 1.5 / 120,
		"average_dom_content_load_time": 400,
		"average_queue_time":            150,
		"total_queue_time":              1500,
		"total_dom_content_time":        4000,
		"total_app_time":                0.5,
		"average_app_time":              0.05,
		"average_sent_bytes":            1500, // as published: sum(totalExclusive) * 1000
		"average_received_bytes":        1000 * 4.0 / 10,
		"launch_count":                  10,
		"error_percentage":              3.0 / 12, // EndUser/errors' count over Browser's, a fraction
	}
	check := func(table map[string]ValueSpec, want map[string]float64) {
		t.Helper()
		for name, spec := range table {
			w, ok := want[name]
			if !ok {
				t.Errorf("%s: no expected value", name)
				continue
			}
			got, finite := spec.compute(mutRaw, mutSeconds)
			if !finite || math.Abs(got-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("%s = %v (finite %v), want %v", name, got, finite, w)
			}
		}
		if len(table) != len(want) {
			t.Errorf("%d values, %d expected", len(table), len(want))
		}
	}
	check(metricValues, want)
	// Apdex timeslices: s = count 10, t = total 4, f = totalExclusive 1.5.
	check(apdexValues, map[string]float64{"s": 10, "t": 4, "f": 1.5, "count": 15.5,
		"score": (10 + 4.0/2) / 15.5, "value": (10 + 4.0/2) / 15.5, "threshold": 0.9, "threshold_min": 0.1})
	if spec := metricValues["average_network_time"]; spec.Factor != 1000 {
		t.Errorf("average_network_time factor %v, want 1000 (ms, not the published seconds)", spec.Factor)
	}
	for name, spec := range metricValues {
		if name != "average_network_time" && spec.Factor != 1 {
			t.Errorf("%s factor %v, want 1", name, spec.Factor)
		}
	}
}

// An empty slice gives 0, never NaN; an infinite aggregate is not a value.
func TestMetricValueEdges(t *testing.T) {
	empty := raw{}
	for _, name := range []string{"average_response_time", "calls_per_minute", "rate", "average_app_time", "time_percentage"} {
		spec := metricValues[name]
		if got, ok := spec.compute(empty, mutSeconds); got != 0 || !ok {
			t.Errorf("%s of an empty slice = %v, %v; want 0", name, got, ok)
		}
		if got, ok := spec.compute(mutRaw, 0); name != "average_response_time" && name != "average_app_time" && (got != 0 || !ok) {
			t.Errorf("%s of a 0 s slice = %v, %v; want 0", name, got, ok)
		}
	}
	score := apdexValues["score"]
	if got, ok := score.compute(empty, mutSeconds); got != 0 || !ok {
		t.Errorf("apdex score without samples = %v, %v", got, ok)
	}
	total := metricValues["total_value"]
	if _, ok := total.compute(raw{total: math.Inf(1)}, mutSeconds); ok {
		t.Error("an infinite total is a value")
	}
	if _, ok := total.compute(raw{total: math.NaN()}, mutSeconds); ok {
		t.Error("NaN is a value")
	}
	if got, ok := total.compute(raw{total: -3}, mutSeconds); got != -3 || !ok {
		t.Errorf("a negative total = %v, %v", got, ok)
	}
}

// classify, valueOf, resolveValues and rawValue: each family's vocabulary, CPU/User
// Time's own percent row, unknown values dropped.
func TestMetricValueVocabulary(t *testing.T) {
	tests := []struct {
		name       string
		wantFirst  string
		accepts    []string
		refuses    []string
		wantDefNum int
	}{
		{"Apdex", "s", []string{"score", "threshold_min"}, []string{"average_response_time"}, 8},
		{"Apdex/Controller/x", "s", nil, nil, 8},
		{"EndUser/Apdex", "s", nil, nil, 8},
		{"Memory/Physical", "used_bytes_by_host", []string{"total_value"}, []string{"percent", "s"}, 3},
		// get-average-cpu-usage-host-app.mdx asks CPU/User Time for percent: listed.
		{"CPU/User Time", "as_percentage", []string{"percent", "time_percentage"}, []string{"average_fe_response_time"}, 7},
		{"CPU/System Time", "as_percentage", []string{"percent"}, nil, 6},
		{"GC/PS Scavenge", "as_percentage", []string{"percent"}, nil, 6},
		{"Errors/all", "errors_per_minute", []string{"count", "sessions_active", "launch_count"}, []string{"percent", "error_percentage"}, 2},
		{"EndUser/RB", "average_dom_content_load_time", []string{"average_queue_time", "total_queue_time", "error_percentage"}, []string{"s"}, 3},
		{"EndUser/RB/x", "average_dom_content_load_time", nil, nil, 3},
		{"EndUser", "average_response_time", []string{"average_fe_response_time", "error_percentage", "average_sent_bytes", "average_received_bytes"}, nil, 12},
		{"Mobile/Crash/All", "average_response_time", []string{"launch_count", "average_sent_bytes", "average_received_bytes", "sessions_active", "total_visits", "visits_percentage"}, []string{"error_percentage"}, 9},
		{"EndUser/x", "average_response_time", nil, nil, 12},
		{"BrowserX", "average_response_time", nil, nil, 12},
		// No published table lists the queuing values for WebFrontend/QueueTime.
		{"WebFrontend/QueueTime", "average_response_time", []string{"average_response_time"}, []string{"average_queue_time", "total_queue_time"}, 9},
		{"HttpDispatcher", "average_response_time", []string{"total_time"}, []string{"average_queue_time", "percent", "utilization"}, 11},
		{"HttpDispatcherX", "average_response_time", []string{"total_call_time_per_minute", "average_call_time"}, nil, 9},
		{"XApdex", "average_response_time", nil, []string{"s"}, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := resolveValues(nil, tt.name, nil)
			if len(def) != tt.wantDefNum || def[0].name != tt.wantFirst {
				t.Fatalf("defaults: %d, first %q", len(def), def[0].name)
			}
			for _, v := range tt.accepts {
				if _, ok := Value(tt.name, v); !ok {
					t.Errorf("%s refused", v)
				}
			}
			for _, v := range tt.refuses {
				if _, ok := Value(tt.name, v); ok {
					t.Errorf("%s accepted", v)
				}
			}
			got := resolveValues([]namedValue{{name: "kept"}}, tt.name, append(slices.Clone(tt.accepts), "no_such_value"))
			if len(got) != 1+len(tt.accepts) || got[0].name != "kept" {
				t.Errorf("resolveValues kept %d", len(got))
			}
		})
	}
	cpu, _ := Value("CPU/User Time", "percent")
	if cpu.NRQL != nrqlPercentTime {
		t.Errorf("CPU/User Time percent is %q, want the table's own row", cpu.NRQL)
	}
	gc, _ := Value("GC/x", "percent")
	if gc.NRQL != "average("+tsv+") * 100" {
		t.Errorf("GC percent is %q", gc.NRQL)
	}
	if c, _ := Value("Apdex", "count"); c.NRQL != "apdex("+tsv+")" || !c.isInt {
		t.Errorf("Apdex count %+v", c)
	}
	served := ServedValues()
	if !slices.IsSorted(served) || slices.ContainsFunc(served, func(s string) bool { return strings.Contains(s, "(") }) ||
		len(served) != len(metricValues)-1+len(apdexValues)-1 {
		t.Errorf("served %d values: %v", len(served), served)
	}
	want := map[string]float64{"count": 10, "total_call_time": 4, "total_exclusive_time": 1.5, "min_call_time": 0.1,
		"max_call_time": 0.9, "sum_of_squares": 0.5}
	for _, n := range rawValues {
		if got, ok := rawValue(n, mutRaw); !ok || got != want[n] {
			t.Errorf("raw %s = %v, %v", n, got, ok)
		}
	}
	if _, ok := rawValue("average", mutRaw); ok {
		t.Error("an unknown raw value served")
	}
}

// TestValuesOfTheFirstName: values[] asked of several names are those the first name
// serves (firstNameValues), as docs-website's list-your-app-id-metric-timeslice-data-v2.mdx
// shows: EndUser and EndUser/Apdex asked for call_count, average_response_time and
// score answer EndUser's two and EndUser/Apdex "values": {}.
func TestValuesOfTheFirstName(t *testing.T) {
	row := []Row{{C: 724, S: 1527.64, Ex: 3, Mn: 0.5, Mx: 0.5}}
	series := map[string][]Row{"EndUser": row, "EndUser/Apdex": row, "HttpDispatcher": row}
	asked := []string{"call_count", "average_response_time", "score"}
	for _, c := range []struct {
		names  []string
		values []string
		want   [][]string
	}{
		{[]string{"EndUser", "EndUser/Apdex"}, asked, [][]string{{"call_count", "average_response_time"}, {}}},
		{[]string{"EndUser/Apdex", "EndUser"}, asked, [][]string{{"score"}, {}}},
		{[]string{"EndUser/Apdex"}, asked, [][]string{{"score"}}},
		{[]string{"EndUser", "HttpDispatcher"}, asked, [][]string{{"call_count", "average_response_time"}, {"call_count", "average_response_time"}}},
		// without values[], every name serves its own
		{[]string{"EndUser", "EndUser/Apdex"}, nil, [][]string{classify("EndUser").defaults, classApdex.defaults}},
	} {
		d := NewDoc(c.names, Request{Values: c.values, Summarize: true}, Window{}, series)
		for i, s := range d.series {
			got := []string{}
			for _, v := range s.values {
				got = append(got, v.name)
			}
			if !slices.Equal(got, c.want[i]) {
				t.Errorf("%v %v: %s serves %v, want %v", c.names, c.values, s.name, got, c.want[i])
			}
		}
	}
}

// Every row of the value tables names its source and holds NRQL that parses; a row
// departing from the published NRQL says why; every value a class lists has a row.
func TestValueTables(t *testing.T) {
	var p nrdb.Parser
	for table, rows := range map[string]map[string]ValueSpec{"metric": metricValues, "apdex": apdexValues} {
		for name, m := range rows {
			t.Run(table+"/"+name, func(t *testing.T) {
				if !strings.HasPrefix(m.Doc, docMigrate) || m.f == nil || m.Factor == 0 || (m.Factor != 1 || m.Published != "") != (m.Why != "") {
					t.Fatalf("%+v", m)
				}
				for _, e := range []string{m.NRQL, m.Scalar} {
					if e == "" {
						continue
					}
					q := "SELECT " + strings.ReplaceAll(e, TimeWindowSeconds, "60") + " FROM Metric"
					if _, err := p.Parse(q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
			})
		}
	}
	for _, c := range []metricClass{classApdex, classMemory, classCPU, classCPUUser, classErrors, classEndUser, classEndUserRB, classDefault} {
		for _, v := range append(slices.Clone(c.defaults), c.accepts...) {
			if _, ok := valueOf(c, "x", v); !ok {
				t.Errorf("class %v: %s has no row", c.defaults, v)
			}
		}
	}
}
