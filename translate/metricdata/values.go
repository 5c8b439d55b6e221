package metricdata

import (
	"math"
	"slices"
	"strings"

	"github.com/v2bridge/v2bridge/restv2"
)

// raw is what one chunk's NRQL returns for a metric in one REST slice (unscoped rows
// only): count(tsv), sum(tsv), sum(tsv['totalExclusive']), min(tsv), max(tsv),
// sum(tsv['sumOfSquares']), and the three aggregates that cannot be derived from those
// sums — stddev(tsv), average(tsv['totalExclusive'] / tsv['count']) (a mean of per-row
// ratios) and average(tsv['totalExclusive']) (a mean over rows). tsv is
// newrelic.timeslice.value. Every REST value is computed from these in Go, each equal
// to its published NRQL (metricValues); one SELECT serves every value of every name.
// The derivations that are not the selected aggregate itself are equalities New
// Relic documents: average(tsv) = sum(tsv) / count(tsv) (the migration page gives
// EndUser average_response_time as sum/count × 1000 and the same value elsewhere as
// average × 1000, both "the same result as ... the REST API v2"); rate(x, 1 unit) = x
// per unit of the bucket, or of the range without TIMESERIES ("a single rate value
// averaged over time", https://docs.newrelic.com/docs/nrql/using-nrql/rate-function/);
// $TIME_WINDOW_IN_SECONDS is the slice's length. Means over rows (ratios, a field's
// average) and stddev are selected, never derived.
type raw struct {
	count, total, exclusive, min, max, sumSquares float64
	stddev                                        float64 // stddev(tsv)
	exclusiveRatio                                float64 // average(tsv['totalExclusive'] / tsv['count'])
	exclusiveMean                                 float64 // average(tsv['totalExclusive'])
	// pageErrors and pageViews are count(tsv) of EndUser/errors and of Browser in the
	// same slice (error_percentage's two filters; 0 unless it is asked).
	pageErrors, pageViews float64
}

// Sources of the value table.
const (
	// docMigrate is New Relic's "Migrate metric timeslice queries to NRQL" (value →
	// NRQL tables; newrelic/docs-website
	// src/content/docs/apis/rest-api-v2/migrate-to-nrql.mdx).
	docMigrate = "https://docs.newrelic.com/docs/apis/rest-api-v2/migrate-to-nrql/"
	// docMigrateEndUser is its "EndUser & Mobile metrics" table.
	docMigrateEndUser = docMigrate + ` (table "EndUser & Mobile metrics")`
	// docMigrateApdex is its "Apdex metrics" table.
	docMigrateApdex = docMigrate + ` (table "Apdex metrics")`

	tsv = "newrelic.timeslice.value"
	// TimeWindowSeconds is the published formulas' placeholder for the slice's length
	// in seconds ("replace it with the time window you want to query").
	TimeWindowSeconds = "$TIME_WINDOW_IN_SECONDS"
)

// ValueSpec is one REST v2 value name: New Relic's published NRQL for it, the page
// that publishes it, and the computation from raw that equals it.
type ValueSpec struct {
	// NRQL is the published function, verbatim but for whitespace.
	NRQL string
	// Scalar is the published function as one number where NRQL returns several
	// fields (apdex() returns score, s, t, f and count); empty when NRQL is a number.
	Scalar string
	// Doc is the page (and table) NRQL comes from.
	Doc string
	// Factor is what the REST value is times the published NRQL's result: 1 except
	// where the published formula contradicts REST v2's own definition (Why says which).
	Factor float64
	// Published is the table's NRQL where NRQL departs from it other than by Factor
	// (empty: NRQL is the table's); Why says why, for either departure.
	Published string
	Why       string
	calc
}

// calc is how a value is computed from a slice's timeslice sums and shown: all a
// resolved value (namedValue) carries of its ValueSpec.
type calc struct {
	f     func(r raw, seconds float64) float64
	isInt bool
	// score is an Apdex score, which REST shows to two decimals (restv2.Figure).
	score bool
}

// shown is x as REST v2 shows the value without raw=true (restv2.Figure): a count as it
// is, an Apdex score to two decimals, any other value to three significant digits.
func (m *calc) shown(x float64) float64 {
	switch {
	case m.isInt:
		return x
	case m.score:
		return restv2.ApdexFigure(x)
	}
	return restv2.Figure(x)
}

func per(x, seconds, unit float64) float64 { return ratio(x, seconds/unit) }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func mean(r raw) float64 { return ratio(r.total, r.count) }

// network is total - front end - application time (EndUser timeslices keep page load
// in total, front end in totalExclusive and application time in sumOfSquares).
func network(r raw) float64 { return r.total - r.exclusive - r.sumSquares }

func pub(nrql, doc string, f func(r raw, seconds float64) float64) ValueSpec {
	return ValueSpec{NRQL: nrql, Doc: doc, Factor: 1, calc: calc{f: f}}
}

func pubInt(nrql, doc string, f func(r raw, seconds float64) float64) ValueSpec {
	m := pub(nrql, doc, f)
	m.isInt = true
	return m
}

func pubScore(nrql, doc string, f func(r raw, seconds float64) float64) ValueSpec {
	m := pub(nrql, doc, f)
	m.score = true
	return m
}

// Published formulas several values share.
const (
	nrqlCount       = "count(" + tsv + ")"
	nrqlAverageMs   = "average(" + tsv + ") * 1000"
	nrqlPerMinute   = "rate(count(" + tsv + "), 1 minute)"
	nrqlPercentTime = "100 * sum(" + tsv + ") / " + TimeWindowSeconds
	nrqlNetwork     = "(sum(" + tsv + ") - sum(" + tsv + "['totalExclusive']) - sum(" + tsv + "['sumOfSquares']))"
)

// Computations several values share (read only).
var (
	fCount     = func(r raw, _ float64) float64 { return r.count }
	fAverageMs = func(r raw, _ float64) float64 { return mean(r) * 1000 }
	fPerMinute = func(r raw, s float64) float64 { return per(r.count, s, 60) }
	fPctTime   = func(r raw, s float64) float64 { return 100 * ratio(r.total, s) }
)

// metricValues is every REST v2 value name the gateway serves (but Apdex metrics',
// apdexValues) → its published NRQL and computation. Units are REST's: ms for call
// times, per minute for *_per_minute, seconds for average_value.
var metricValues = map[string]ValueSpec{
	"average_response_time":      pub(nrqlAverageMs, docMigrate, fAverageMs),
	"calls_per_minute":           pub(nrqlPerMinute, docMigrate, fPerMinute),
	"call_count":                 pubInt(nrqlCount, docMigrate, fCount),
	"min_response_time":          pub("min("+tsv+") * 1000", docMigrate, func(r raw, _ float64) float64 { return r.min * 1000 }),
	"max_response_time":          pub("max("+tsv+") * 1000", docMigrate, func(r raw, _ float64) float64 { return r.max * 1000 }),
	"average_exclusive_time":     pub("average("+tsv+"['totalExclusive'] / "+tsv+"['count']) * 1000", docMigrate, func(r raw, _ float64) float64 { return r.exclusiveRatio * 1000 }),
	"average_value":              pub("average("+tsv+")", docMigrate, func(r raw, _ float64) float64 { return mean(r) }),
	"total_call_time_per_minute": pub("rate(sum("+tsv+"), 1 minute)", docMigrate, func(r raw, s float64) float64 { return per(r.total, s, 60) }),
	"requests_per_minute":        pub(nrqlPerMinute, docMigrate, fPerMinute),
	"standard_deviation":         pub("stddev("+tsv+") * 1000", docMigrate, func(r raw, _ float64) float64 { return r.stddev * 1000 }),
	"average_time":               pub(nrqlAverageMs, docMigrate, fAverageMs),
	"count":                      pubInt(nrqlCount, docMigrate, fCount),
	"used_bytes_by_host":         pub("average("+tsv+") * 1024 * 1024", docMigrate, func(r raw, _ float64) float64 { return mean(r) * 1024 * 1024 }),
	"used_mb_by_host":            pub("average("+tsv+")", docMigrate, func(r raw, _ float64) float64 { return mean(r) }),
	// The table's sum(tsv) adds every host's row of every minute: on a one-minute slice
	// that is the application's memory in use, on a longer one a multiple of it. REST's
	// own page calls the summarized figure "the average Memory usage for your
	// application" (docs-website src/content/docs/apis/rest-api-v2/application-examples-v2/
	// get-host-memory-used-application.mdx), so the sum is taken per minute: equal to
	// the table's on one-minute slices, the memory in use on any slice and summarized.
	"total_used_mb": {NRQL: "rate(sum(" + tsv + "), 1 minute)", Doc: docMigrate, Factor: 1, Published: "sum(" + tsv + ")",
		Why:  "sum(tsv) grows with the slice's minutes; REST's page gives the figure as the application's average memory usage",
		calc: calc{f: func(r raw, s float64) float64 { return per(r.total, s, 60) }}},
	"average_call_time": pub(nrqlAverageMs, docMigrate, fAverageMs),
	"total_value":       pub("sum("+tsv+")", docMigrate, func(r raw, _ float64) float64 { return r.total }),
	"min_value":         pub("min("+tsv+")", docMigrate, func(r raw, _ float64) float64 { return r.min }),
	"max_value":         pub("max("+tsv+")", docMigrate, func(r raw, _ float64) float64 { return r.max }),
	"rate":              pub("rate(sum("+tsv+"), 1 second)", docMigrate, func(r raw, s float64) float64 { return per(r.total, s, 1) }),
	"throughput":        pub("rate(count("+tsv+"), 1 second)", docMigrate, func(r raw, s float64) float64 { return per(r.count, s, 1) }),
	"as_percentage":     pub("average("+tsv+") * 100", docMigrate, func(r raw, _ float64) float64 { return mean(r) * 100 }),
	"errors_per_minute": pub(nrqlPerMinute, docMigrate, fPerMinute),
	"error_count":       pubInt(nrqlCount, docMigrate, fCount),
	"total_time":        pub("sum("+tsv+") * 1000", docMigrate, func(r raw, _ float64) float64 { return r.total * 1000 }),
	"sessions_active":   pub("average("+tsv+")", docMigrate, func(r raw, _ float64) float64 { return mean(r) }),
	"total_visits":      pub("sum("+tsv+")", docMigrate, func(r raw, _ float64) float64 { return r.total }),
	"visits_percentage": pub(nrqlPercentTime, docMigrate, fPctTime),
	"percent":           pub("average("+tsv+") * 100", docMigrate, func(r raw, _ float64) float64 { return mean(r) * 100 }),
	// The table's own row for CPU/User Time's percent.
	"percent(CPU/User Time)": pub(nrqlPercentTime, docMigrate, fPctTime),
	"time_percentage":        pub(nrqlPercentTime, docMigrate, fPctTime),
	"utilization":            pub(nrqlPercentTime, docMigrate, fPctTime),

	// EndUser (browser) timeslices.
	"average_fe_response_time": pub("sum("+tsv+"['totalExclusive']) / count("+tsv+") * 1000", docMigrateEndUser,
		func(r raw, _ float64) float64 { return ratio(r.exclusive, r.count) * 1000 }),
	"average_be_response_time": pub("1000 * (sum("+tsv+") - sum("+tsv+"['totalExclusive'])) / count("+tsv+")", docMigrateEndUser,
		func(r raw, _ float64) float64 { return 1000 * ratio(r.total-r.exclusive, r.count) }),
	"average_network_time": {NRQL: nrqlNetwork + " / count(" + tsv + ")", Doc: docMigrateEndUser, Factor: 1000,
		Why: "the published formula gives seconds; REST v2 gives average_network_time in milliseconds " +
			"(REST v2 specification, metric data objects: \"Units: average_network_time, average_fe_response_time, " +
			"average_dom_content_load_time and average_queue_time are in milliseconds\"), like the table's own " +
			"average_fe_response_time and average_be_response_time (× 1000)",
		calc: calc{f: func(r raw, _ float64) float64 { return ratio(network(r), r.count) * 1000 }}},
	"total_network_time":            pub(nrqlNetwork, docMigrateEndUser, func(r raw, _ float64) float64 { return network(r) }),
	"network_time_percentage":       pub(nrqlNetwork+" / "+TimeWindowSeconds, docMigrateEndUser, func(r raw, s float64) float64 { return ratio(network(r), s) }),
	"total_fe_time":                 pub("sum("+tsv+"['totalExclusive'])", docMigrateEndUser, func(r raw, _ float64) float64 { return r.exclusive }),
	"fe_time_percentage":            pub("100 * sum("+tsv+"['totalExclusive']) / "+TimeWindowSeconds, docMigrateEndUser, func(r raw, s float64) float64 { return 100 * ratio(r.exclusive, s) }),
	"average_dom_content_load_time": pub(nrqlAverageMs, docMigrateEndUser, fAverageMs),
	"average_queue_time":            pub("average("+tsv+"['totalExclusive']) * 1000", docMigrateEndUser, func(r raw, _ float64) float64 { return r.exclusiveMean * 1000 }),
	"total_queue_time":              pub("sum("+tsv+"['totalExclusive']) * 1000", docMigrateEndUser, func(r raw, _ float64) float64 { return r.exclusive * 1000 }),
	"total_dom_content_time":        pub("sum("+tsv+") * 1000", docMigrateEndUser, func(r raw, _ float64) float64 { return r.total * 1000 }),
	"total_app_time":                pub("sum("+tsv+"['sumOfSquares'])", docMigrateEndUser, func(r raw, _ float64) float64 { return r.sumSquares }),
	"average_app_time":              pub("sum("+tsv+"['sumOfSquares']) / count("+tsv+")", docMigrateEndUser, func(r raw, _ float64) float64 { return ratio(r.sumSquares, r.count) }),
	// As published: a sum of the slice, not divided by its count like
	// average_received_bytes (no recorded answer shows which REST gave).
	"average_sent_bytes":     pub("sum("+tsv+"['totalExclusive']) * 1000", docMigrateEndUser, func(r raw, _ float64) float64 { return r.exclusive * 1000 }),
	"average_received_bytes": pub("1000 * sum("+tsv+") / count("+tsv+")", docMigrateEndUser, func(r raw, _ float64) float64 { return 1000 * ratio(r.total, r.count) }),
	"launch_count":           pubInt(nrqlCount, docMigrateEndUser, fCount),
	// The published formula names its metrics: EndUser/errors' count over Browser's in
	// the slice, whichever name asks (a fraction, as published). The document reads
	// both names with the others (ErrorPercentageNames), in the same round trip.
	"error_percentage": pub(nrqlErrorPercentage, docMigrateEndUser, func(r raw, _ float64) float64 { return ratio(r.pageErrors, r.pageViews) }),
}

// The metrics error_percentage divides, and its published formula.
const (
	PageErrorsMetric    = "EndUser/errors"
	PageViewsMetric     = "Browser"
	nrqlErrorPercentage = "(filter(count(" + tsv + "), WHERE metricTimesliceName = '" + PageErrorsMetric + "') / " +
		"filter(count(" + tsv + "), WHERE metricTimesliceName = '" + PageViewsMetric + "'))"
)

// apdexValues are the values of Apdex metrics, whose timeslices hold s, t, f,
// apdex_t, apdex_t, 0 in count, total, totalExclusive, min, max, sumOfSquares (the
// published table's s = count, t = sum, f = sum(['totalExclusive'])).
var apdexValues = map[string]ValueSpec{
	"s": pubInt(nrqlCount, docMigrateApdex, fCount),
	"t": pubInt("sum("+tsv+")", docMigrateApdex, func(r raw, _ float64) float64 { return r.total }),
	"f": pubInt("sum("+tsv+"['totalExclusive'])", docMigrateApdex, func(r raw, _ float64) float64 { return r.exclusive }),
	// apdex()'s count field: s + t + f, by the same table's alternatives for s, t and f.
	"count": {NRQL: "apdex(" + tsv + ")", Scalar: "count(" + tsv + ") + sum(" + tsv + ") + sum(" + tsv + "['totalExclusive'])",
		Doc: docMigrateApdex, Factor: 1, calc: calc{isInt: true, f: func(r raw, _ float64) float64 { return r.count + r.total + r.exclusive }}},
	"score":         pubScore("apdex("+tsv+")", docMigrateApdex, apdexScore),
	"value":         pubScore("apdex("+tsv+")", docMigrateApdex, apdexScore),
	"threshold":     pub("max("+tsv+")", docMigrateApdex, func(r raw, _ float64) float64 { return r.max }),
	"threshold_min": pub("min("+tsv+")", docMigrateApdex, func(r raw, _ float64) float64 { return r.min }),
}

// apdexScore is apdex()'s score: (satisfied + tolerating / 2) / all samples (the
// Apdex formula, https://docs.newrelic.com/docs/apm/new-relic-apm/apdex/apdex-measuring-user-satisfaction/).
// It is computed from s, t and f rather than read from apdex(), whose multi-field
// result shape in NerdGraph is unverified.
func apdexScore(r raw, _ float64) float64 {
	return ratio(r.count+r.total/2, r.count+r.total+r.exclusive)
}

// Value is the published NRQL of a REST value for a metric name (as served:
// the Apdex table for Apdex names, CPU/User Time's own percent row); ok is false for a
// value the name does not serve.
func Value(name, value string) (ValueSpec, bool) {
	c := classify(name)
	if !c.allows(value) {
		return ValueSpec{}, false
	}
	m, ok := valueOf(c, name, value)
	return m, ok
}

// ServedValues lists every REST v2 value name the gateway serves (both tables,
// sorted; the Apdex table's count is listed once, under "count").
func ServedValues() []string {
	var out []string
	for _, t := range []map[string]ValueSpec{metricValues, apdexValues} {
		for k := range t {
			if !strings.Contains(k, "(") && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

func valueOf(c metricClass, name, value string) (ValueSpec, bool) {
	if c.apdex {
		m, ok := apdexValues[value]
		return m, ok
	}
	if value == "percent" && name == "CPU/User Time" {
		value = "percent(CPU/User Time)"
	}
	m, ok := metricValues[value]
	return m, ok
}

// metricClass is the value vocabulary of a family of metric names: the values listed by
// GET .../metrics (and served when values[] is omitted), and the ones accepted.
type metricClass struct {
	defaults []string
	accepts  []string
	apdex    bool // values from apdexValues
}

// The call-time family's values as REST listed them: docs-website
// .../application-examples-v2/list-your-app-id-metric-timeslice-data-v2.mdx lists
// ActiveRecord/Account/create's nine, and ambitioninc/newrelic-api's recorded
// Agent/MetricsReported/count lists the same nine
// (newrelic_api/tests/application_instances_tests.py @ 18ff4409). HttpDispatcher
// served two more: docs-website .../basic-functions/extract-metric-timeslice-data.mdx
// answers it, without values[], with these nine, total_call_time_per_minute after
// average_value, and average_call_time last.
var (
	timesliceValues = []string{"average_response_time", "calls_per_minute", "call_count", "min_response_time",
		"max_response_time", "average_exclusive_time", "average_value", "requests_per_minute", "standard_deviation"}
	dispatcherValues = []string{"average_response_time", "calls_per_minute", "call_count", "min_response_time",
		"max_response_time", "average_exclusive_time", "average_value", "total_call_time_per_minute",
		"requests_per_minute", "standard_deviation", "average_call_time"}
	// Every non-Apdex name also serves the published tables' values whose metric names
	// no page gives (sessions_active, total_visits, visits_percentage and the EndUser &
	// Mobile table's byte and launch values): asked of a name, they are computed.
	genericValues = append(slices.Clone(timesliceValues), "total_call_time_per_minute", "average_call_time", "average_time", "count",
		"total_value", "min_value", "max_value", "rate", "throughput", "total_time", "as_percentage",
		"sessions_active", "total_visits", "visits_percentage", "launch_count", "average_sent_bytes", "average_received_bytes")
	endUserValues = append(slices.Clone(genericValues), "error_percentage")
	classApdex    = metricClass{defaults: []string{"s", "t", "f", "count", "score", "value", "threshold", "threshold_min"}, apdex: true}
	classMemory   = metricClass{defaults: []string{"used_bytes_by_host", "used_mb_by_host", "total_used_mb"}, accepts: genericValues}
	classCPU      = metricClass{defaults: []string{"as_percentage", "average_time", "calls_per_minute", "max_value", "total_call_time_per_minute", "utilization"}, accepts: append(slices.Clone(genericValues), "percent", "time_percentage")}
	// CPU/User Time lists percent too: docs-website
	// .../application-examples-v2/get-average-cpu-usage-host-app.mdx asks it of that name
	// (values[]=percent), served by the table's own percent(CPU/User Time) row.
	classCPUUser = metricClass{defaults: append(slices.Clone(classCPU.defaults), "percent"), accepts: classCPU.accepts}
	classErrors  = metricClass{defaults: []string{"errors_per_minute", "error_count"}, accepts: genericValues}
	classEndUser = metricClass{defaults: []string{"average_response_time", "average_fe_response_time", "average_be_response_time",
		"average_network_time", "total_network_time", "network_time_percentage", "total_fe_time", "fe_time_percentage",
		"total_app_time", "average_app_time", "call_count", "calls_per_minute"}, accepts: endUserValues}
	// EndUser/RB also serves the request queuing time: docs-website
	// .../browser-examples-v2/obtaining-browser-end-user-page-load-time-data-v2.mdx asks
	// names[]=EndUser/RB&values[]=average_queue_time ("returned in milliseconds").
	classEndUserRB = metricClass{defaults: []string{"average_dom_content_load_time", "total_dom_content_time", "call_count"},
		accepts: append(slices.Clone(endUserValues), "average_queue_time", "total_queue_time")}
	classDispatcher = metricClass{defaults: dispatcherValues, accepts: genericValues}
	classDefault    = metricClass{defaults: timesliceValues, accepts: genericValues}
)

// Defaults are the values GET .../metrics lists for a metric name (and served when
// values[] is omitted).
func Defaults(name string) []string { return classify(name).defaults }

// classify picks a metric name's value vocabulary.
func classify(name string) metricClass {
	switch {
	case name == "Apdex" || strings.HasPrefix(name, "Apdex/") || strings.Contains(name, "/Apdex"):
		return classApdex
	case strings.HasPrefix(name, "Memory/"):
		return classMemory
	case name == "CPU/User Time":
		return classCPUUser
	case strings.HasPrefix(name, "CPU/") || strings.HasPrefix(name, "GC/"):
		return classCPU
	case strings.HasPrefix(name, "Errors/"):
		return classErrors
	case name == "EndUser/RB" || strings.HasPrefix(name, "EndUser/RB/"):
		return classEndUserRB
	case name == "EndUser" || strings.HasPrefix(name, "EndUser/") || strings.HasPrefix(name, "Browser"):
		return classEndUser
	case name == "HttpDispatcher":
		return classDispatcher
	}
	return classDefault
}

func (c metricClass) allows(value string) bool {
	return slices.Contains(c.defaults, value) || slices.Contains(c.accepts, value)
}

// firstNameValues narrows a request's values[] to those its first metric name serves,
// in the order asked. REST answered "values from multiple metrics that don't share all
// requested value fields" for one metric name only: in docs-website
// src/content/docs/apis/rest-api-v2/application-examples-v2/list-your-app-id-metric-timeslice-data-v2.mdx,
// names[]=EndUser&names[]=EndUser/Apdex with values call_count, average_response_time
// and score answers EndUser's call_count and average_response_time and EndUser/Apdex
// with "values": {} (score is not an EndUser value, and EndUser/Apdex has neither of
// the others). Each name then serves those of the narrowed values it has.
func firstNameValues(first string, values []string) []string {
	served := resolveAsked(nil, first, values)
	out := make([]string, len(served))
	for i, v := range served {
		out[i] = v.name
	}
	return out
}

// namedValue is a REST value resolved for one metric name: its name and computation
// (a document keeps one per value of each name).
type namedValue struct {
	name string
	calc
}

// resolveValues appends to out the served values among those asked for a name, or
// the name's own values when none are asked (unknown or unsupported ones are dropped,
// as REST did).
func resolveValues(out []namedValue, name string, values []string) []namedValue {
	if len(values) == 0 {
		values = classify(name).defaults
	}
	return resolveAsked(out, name, values)
}

// resolveAsked appends to out the values among those asked that the name serves;
// none asked is none served.
func resolveAsked(out []namedValue, name string, values []string) []namedValue {
	c := classify(name)
	if out == nil {
		out = make([]namedValue, 0, len(values))
	}
	for _, v := range values {
		if !c.allows(v) {
			continue
		}
		if m, ok := valueOf(c, name, v); ok {
			out = append(out, namedValue{name: v, calc: m.calc})
		}
	}
	return out
}

// compute returns the value for a slice of the given length; ok is false when it is
// not a finite number.
func (m *calc) compute(r raw, seconds float64) (float64, bool) {
	x := m.f(r, seconds)
	return x, !math.IsNaN(x) && !math.IsInf(x, 0)
}

// rawValues are the raw=true values. They are in no published table: REST v2 says only
// "unformatted raw values", and these names (undocumented upstream) are the raw
// timeslice's own fields — count, total, totalExclusive, min, max, sumOfSquares —
// summed over the slice's unscoped rows (low confidence).
var rawValues = []string{"count", "total_call_time", "total_exclusive_time", "min_call_time", "max_call_time", "sum_of_squares"}

func rawValue(name string, r raw) (float64, bool) {
	switch name {
	case "count":
		return r.count, true
	case "total_call_time":
		return r.total, true
	case "total_exclusive_time":
		return r.exclusive, true
	case "min_call_time":
		return r.min, true
	case "max_call_time":
		return r.max, true
	case "sum_of_squares":
		return r.sumSquares, true
	}
	return 0, false
}
