package translate

import (
	"math"
	"slices"
	"strings"
)

// raw is the sum of a metric's timeslices in one REST slice, as the NRQL returns it:
// count(tsv), sum(tsv), sum(tsv['totalExclusive']), min(tsv), max(tsv),
// sum(tsv['sumOfSquares']). Every REST value is derived from these in Go; the results
// equal New Relic's published NRQL formulas (MAPPING.md §2.8) — average(tsv) is
// sum/count, rate(count(tsv), 1 minute) is count per minute of the slice, stddev comes
// from the sum of squares — and one SELECT serves every value of every name.
type raw struct {
	count, total, exclusive, min, max, sumSquares float64
}

// valueFunc computes one REST value from a slice's raw sums and its length in seconds.
type valueFunc struct {
	f     func(r raw, seconds float64) (float64, bool)
	isInt bool
}

func per(r float64, seconds float64) float64 { return r / (seconds / 60) }

func avg(r raw) (float64, bool) {
	if r.count == 0 {
		return 0, true
	}
	return r.total / r.count, true
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// metricValues is REST's value vocabulary → computation (units as REST: ms for times of
// calls, per minute for rates, seconds for average_value).
var metricValues = map[string]valueFunc{
	"call_count":                 {f: func(r raw, _ float64) (float64, bool) { return r.count, true }, isInt: true},
	"count":                      {f: func(r raw, _ float64) (float64, bool) { return r.count, true }, isInt: true},
	"error_count":                {f: func(r raw, _ float64) (float64, bool) { return r.count, true }, isInt: true},
	"average_response_time":      {f: func(r raw, _ float64) (float64, bool) { a, _ := avg(r); return a * 1000, true }},
	"average_call_time":          {f: func(r raw, _ float64) (float64, bool) { a, _ := avg(r); return a * 1000, true }},
	"average_time":               {f: func(r raw, _ float64) (float64, bool) { a, _ := avg(r); return a * 1000, true }},
	"calls_per_minute":           {f: func(r raw, s float64) (float64, bool) { return per(r.count, s), true }},
	"requests_per_minute":        {f: func(r raw, s float64) (float64, bool) { return per(r.count, s), true }},
	"errors_per_minute":          {f: func(r raw, s float64) (float64, bool) { return per(r.count, s), true }},
	"min_response_time":          {f: func(r raw, _ float64) (float64, bool) { return r.min * 1000, true }},
	"max_response_time":          {f: func(r raw, _ float64) (float64, bool) { return r.max * 1000, true }},
	"average_exclusive_time":     {f: func(r raw, _ float64) (float64, bool) { return ratio(r.exclusive, r.count) * 1000, true }},
	"average_value":              {f: func(r raw, _ float64) (float64, bool) { return avg(r) }},
	"total_call_time_per_minute": {f: func(r raw, s float64) (float64, bool) { return per(r.total, s), true }},
	"standard_deviation": {f: func(r raw, _ float64) (float64, bool) {
		if r.count == 0 {
			return 0, true
		}
		m := r.total / r.count
		return math.Sqrt(math.Max(0, r.sumSquares/r.count-m*m)) * 1000, true
	}},
	"total_value":        {f: func(r raw, _ float64) (float64, bool) { return r.total, true }},
	"min_value":          {f: func(r raw, _ float64) (float64, bool) { return r.min, true }},
	"max_value":          {f: func(r raw, _ float64) (float64, bool) { return r.max, true }},
	"rate":               {f: func(r raw, s float64) (float64, bool) { return ratio(r.total, s), true }},
	"throughput":         {f: func(r raw, s float64) (float64, bool) { return ratio(r.count, s), true }},
	"total_time":         {f: func(r raw, _ float64) (float64, bool) { return r.total * 1000, true }},
	"as_percentage":      {f: func(r raw, _ float64) (float64, bool) { a, _ := avg(r); return a * 100, true }},
	"utilization":        {f: func(r raw, s float64) (float64, bool) { return 100 * ratio(r.total, s), true }},
	"time_percentage":    {f: func(r raw, s float64) (float64, bool) { return 100 * ratio(r.total, s), true }},
	"percent":            {f: func(r raw, s float64) (float64, bool) { return 100 * ratio(r.total, s), true }},
	"used_mb_by_host":    {f: func(r raw, _ float64) (float64, bool) { return avg(r) }},
	"used_bytes_by_host": {f: func(r raw, _ float64) (float64, bool) { a, _ := avg(r); return a * 1024 * 1024, true }},
	"total_used_mb":      {f: func(r raw, s float64) (float64, bool) { return per(r.total, s), true }},
	// Apdex timeslices hold s, t, f, apdex_t, apdex_t, 0.
	"s":             {f: func(r raw, _ float64) (float64, bool) { return r.count, true }, isInt: true},
	"t":             {f: func(r raw, _ float64) (float64, bool) { return r.total, true }, isInt: true},
	"f":             {f: func(r raw, _ float64) (float64, bool) { return r.exclusive, true }, isInt: true},
	"apdex_count":   {f: func(r raw, _ float64) (float64, bool) { return r.count + r.total + r.exclusive, true }, isInt: true},
	"score":         {f: apdexScore},
	"value":         {f: apdexScore},
	"threshold":     {f: func(r raw, _ float64) (float64, bool) { return r.max, true }},
	"threshold_min": {f: func(r raw, _ float64) (float64, bool) { return r.min, true }},
	// EndUser (browser) timeslices: total = page load, exclusive = front end,
	// sumOfSquares = application time (New Relic's NRQL migration table).
	"average_fe_response_time": {f: func(r raw, _ float64) (float64, bool) { return ratio(r.exclusive, r.count) * 1000, true }},
	"average_be_response_time": {f: func(r raw, _ float64) (float64, bool) {
		return ratio(r.total-r.exclusive, r.count) * 1000, true
	}},
	"average_network_time": {f: func(r raw, _ float64) (float64, bool) {
		return ratio(r.total-r.exclusive-r.sumSquares, r.count) * 1000, true
	}},
	"total_network_time": {f: func(r raw, _ float64) (float64, bool) { return r.total - r.exclusive - r.sumSquares, true }},
	"network_time_percentage": {f: func(r raw, s float64) (float64, bool) {
		return 100 * ratio(r.total-r.exclusive-r.sumSquares, s), true
	}},
	"total_fe_time":                 {f: func(r raw, _ float64) (float64, bool) { return r.exclusive, true }},
	"fe_time_percentage":            {f: func(r raw, s float64) (float64, bool) { return 100 * ratio(r.exclusive, s), true }},
	"total_app_time":                {f: func(r raw, _ float64) (float64, bool) { return r.sumSquares, true }},
	"average_app_time":              {f: func(r raw, _ float64) (float64, bool) { return ratio(r.sumSquares, r.count), true }},
	"average_queue_time":            {f: func(r raw, _ float64) (float64, bool) { return ratio(r.exclusive, r.count) * 1000, true }},
	"total_queue_time":              {f: func(r raw, _ float64) (float64, bool) { return r.exclusive * 1000, true }},
	"average_dom_content_load_time": {f: func(r raw, _ float64) (float64, bool) { a, _ := avg(r); return a * 1000, true }},
	"total_dom_content_time":        {f: func(r raw, _ float64) (float64, bool) { return r.total * 1000, true }},
}

func apdexScore(r raw, _ float64) (float64, bool) {
	n := r.count + r.total + r.exclusive
	if n == 0 {
		return 0, true
	}
	return (r.count + r.total/2) / n, true
}

// metricClass is the value vocabulary of a family of metric names: the values listed by
// GET .../metrics (and served when values[] is omitted), and the ones accepted.
type metricClass struct {
	defaults []string
	accepts  []string
}

var (
	timesliceValues = []string{"average_response_time", "calls_per_minute", "call_count", "min_response_time",
		"max_response_time", "average_exclusive_time", "average_value", "total_call_time_per_minute",
		"requests_per_minute", "standard_deviation"}
	genericValues = append(slices.Clone(timesliceValues), "average_call_time", "average_time", "count",
		"total_value", "min_value", "max_value", "rate", "throughput", "total_time", "as_percentage")
	classApdex   = metricClass{defaults: []string{"s", "t", "f", "count", "score", "value", "threshold", "threshold_min"}}
	classMemory  = metricClass{defaults: []string{"used_bytes_by_host", "used_mb_by_host", "total_used_mb"}, accepts: genericValues}
	classCPU     = metricClass{defaults: []string{"as_percentage", "average_time", "calls_per_minute", "max_value", "total_call_time_per_minute", "utilization"}, accepts: append(slices.Clone(genericValues), "percent", "time_percentage")}
	classErrors  = metricClass{defaults: []string{"errors_per_minute", "error_count"}, accepts: genericValues}
	classEndUser = metricClass{defaults: []string{"average_response_time", "average_fe_response_time", "average_be_response_time",
		"average_network_time", "total_network_time", "network_time_percentage", "total_fe_time", "fe_time_percentage",
		"total_app_time", "average_app_time", "call_count", "calls_per_minute"}, accepts: genericValues}
	classEndUserRB = metricClass{defaults: []string{"average_dom_content_load_time", "total_dom_content_time", "call_count"}, accepts: genericValues}
	classQueue     = metricClass{defaults: timesliceValues, accepts: append(slices.Clone(genericValues), "average_queue_time", "total_queue_time")}
	classDefault   = metricClass{defaults: timesliceValues, accepts: genericValues}
)

// classify picks a metric name's value vocabulary (MAPPING.md §2.7).
func classify(name string) metricClass {
	switch {
	case name == "Apdex" || strings.HasPrefix(name, "Apdex/") || strings.Contains(name, "/Apdex"):
		return classApdex
	case strings.HasPrefix(name, "Memory/"):
		return classMemory
	case strings.HasPrefix(name, "CPU/") || strings.HasPrefix(name, "GC/"):
		return classCPU
	case strings.HasPrefix(name, "Errors/"):
		return classErrors
	case name == "EndUser/RB" || strings.HasPrefix(name, "EndUser/RB/"):
		return classEndUserRB
	case name == "EndUser" || strings.HasPrefix(name, "EndUser/") || strings.HasPrefix(name, "Browser"):
		return classEndUser
	case name == "WebFrontend/QueueTime":
		return classQueue
	}
	return classDefault
}

func (c metricClass) allows(value string) bool {
	return slices.Contains(c.defaults, value) || slices.Contains(c.accepts, value)
}

// computeValue returns the REST value named v for a name of class c.
func computeValue(c metricClass, v string, r raw, seconds float64) (float64, bool, bool) {
	if !c.allows(v) {
		return 0, false, false
	}
	key := v
	if c.defaults[0] == "s" && v == "count" { // Apdex count = s + t + f
		key = "apdex_count"
	}
	fn, ok := metricValues[key]
	if !ok {
		return 0, false, false
	}
	x, ok := fn.f(r, seconds)
	if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false, false
	}
	return x, fn.isInt, true
}

// rawValues are the raw=true values (REST's "unformatted raw values"; names undocumented).
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
