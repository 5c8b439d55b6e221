package harness

import (
	"math"
	"strconv"
)

// REST v2 showed its measured figures rounded: three significant digits, Apdex scores to
// two decimals, counts exact (translate/figures.go, from its published answers). The
// tests compute what the gateway should show from the simulator's sums and round it
// here, by exact decimal rounding (strconv), independently of translate's rounding.

// Figure is x to three significant digits.
func Figure(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', 2, 64), 64)
	return r
}

// ApdexFigure is an Apdex score to two decimals.
func ApdexFigure(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return r
}

// MetricFigure is metric data's value named value as REST showed it without raw=true:
// the counts (call_count, error_count, count and Apdex's s, t, f) exact, Apdex's score
// and value to two decimals, any other value to three significant digits.
func MetricFigure(value string, x float64) float64 {
	switch value {
	case "call_count", "error_count", "count", "launch_count", "s", "t", "f":
		return x
	case "score", "value":
		return ApdexFigure(x)
	}
	return Figure(x)
}
