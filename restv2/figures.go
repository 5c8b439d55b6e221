package restv2

import (
	"math"
	"strconv"
)

// REST v2 answers the figures it measured rounded, not as computed. Its published
// answers show it:
//
//   - metric data: in one slice of docs-website
//     src/content/docs/apis/rest-api-v2/basic-functions/extract-metric-timeslice-data.mdx,
//     "call_count": 99770 and "calls_per_minute": 99800, a minute's calls per minute
//     rounded to three significant digits, beside "average_response_time": 364,
//     "total_call_time_per_minute": 36300, "standard_deviation": 1900,
//     "max_response_time": 85000, "average_value": 0.364; newrelic-client-go
//     pkg/apm/applications_test.go's testMetricDataJson (tests/testdata/restv2/metric_data.json):
//     0.0298, 0.298, 65.9, 0.0196, 0.0327, 67, ...;
//   - summaries: docs-website .../application-examples-v2/summary-data-examples-v2.mdx
//     ("response_time": 304, "throughput": 4570, "error_rate": 0.0016, end user 3.73
//     and 0.333; a key transaction's 74.1 and 98.3), newrelic-client-go's
//     pkg/apm tests (5.91, 400, 0.667, 3.8, 1660, 0.381), another Go REST v2 client's
//     testApplicationJSON (0.263, 12.3; tests/testdata/restv2/application_show.json), and an
//     application host's in ambitioninc/newrelic-api
//     newrelic_api/tests/application_hosts_tests.py (195, 22.2, 0.98;
//     tests/testdata/restv2/application_hosts_list.json).
//
// Every one of those 30-odd figures has at most three significant digits, and none of
// the counts (call_count 99770 and 724, host and instance counts) is rounded. Apdex
// scores have at most two decimals (0.97, 0.75, 0.78 in summaries, 0.85, 0.86, 0.9
// in metric data's XML, tests/testdata/restv2/metric_data_response.xml), as New Relic shows
// Apdex everywhere. raw=true is REST's "unformatted raw values" and is not rounded.
// The one recorded mobile_summary rounds the same way and leaves its rates unrounded
// (translate/mobile.go).

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Figure is v as REST v2 shows a measured figure: rounded to three significant
// digits, halves of the scaled value away from zero (a value within an ulp of a half
// may round either way; how REST rounded halves is not published). NaN, the
// infinities and 0 are returned as they are. A page rounds many of them, so the
// decimal exponent comes from the binary one and the powers of ten from a table.
func Figure(v float64) float64 {
	a := math.Abs(v)
	if a == 0 || math.IsNaN(a) || math.IsInf(a, 0) {
		return v
	}
	// e is the decimal exponent of a's first digit: 10^e <= a < 10^(e+1). a's binary
	// exponent b (2^b <= a < 2^(b+1)) gives e or e-1: floor(b·log10 2), by 78913/2^18.
	b := int(math.Float64bits(a)>>52&0x7ff) - 1023
	if b < -1022 { // subnormal
		return decimalFigure(v)
	}
	e := b * 78913 >> 18
	if e+1 >= 0 && e+1 < len(pow10) {
		if a >= pow10[e+1] {
			e++
		}
	} else if e+1 < 0 && -(e+1) < len(pow10) {
		if a*pow10[-(e+1)] >= 1 {
			e++
		}
	} else {
		return decimalFigure(v)
	}
	switch p := 2 - e; {
	case p >= 0 && p < len(pow10):
		return math.Round(v*pow10[p]) / pow10[p]
	case p < 0 && -p < len(pow10):
		return math.Round(v/pow10[-p]) * pow10[-p]
	}
	return decimalFigure(v)
}

// decimalFigure is Figure by exact decimal rounding of the binary value, for
// magnitudes beyond 1e±22 (strconv: slower, and exact at halves).
func decimalFigure(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 2, 64), 64)
	return r
}

// ApdexFigure is an Apdex score as REST v2 shows it: two decimals.
func ApdexFigure(v float64) float64 { return math.Round(v*100) / 100 }
