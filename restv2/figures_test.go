package restv2

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestFigure: REST v2's published figures (Figure), each the value it was
// rounded from, and the edges. The text is what the renderers write
// (strconv 'f', -1: the shortest text of the float).
func TestFigure(t *testing.T) {
	tests := []struct {
		give float64
		want string
	}{
		{99770, "99800"}, // extract-metric-timeslice-data.mdx: calls_per_minute of call_count 99770 in a minute
		{2.0 / 3, "0.667"},
		{1.0 / 3, "0.333"},
		{4567.8, "4570"},
		{0.00161812, "0.00162"},
		{0.0016, "0.0016"},
		{364.2, "364"},
		{85012.5, "85000"},
		{3.5, "3.5"},
		{0.29849, "0.298"},
		{999.6, "1000"},
		{0.9996, "1"},
		{-65.94, "-65.9"},
		{1e-20 * 1.23456, "0.0000000000000000000123"},
		{1.23456e-30, "0.00000000000000000000000000000123"},
		{1.23456e30, "1230000000000000000000000000000"},
		{0, "0"},
		{7, "7"},
		{0.5, "0.5"},
	}
	for _, tt := range tests {
		if got := strconv.FormatFloat(Figure(tt.give), 'f', -1, 64); got != tt.want {
			t.Errorf("Figure(%v) = %s, want %s", tt.give, got, tt.want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := Figure(v); !(got == v || math.IsNaN(got) && math.IsNaN(v)) {
			t.Errorf("Figure(%v) = %v", v, got)
		}
	}
}

// TestFigureMatchesDecimalRounding: over values of every magnitude figure equals the
// exact decimal rounding of the binary value to three significant digits (strconv's
// 'e' with 2 decimals), but at halves, where the product may round either way.
func TestFigureMatchesDecimalRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		v := math.Pow(10, r.Float64()*60-30) * (r.Float64() + 0.1)
		if i%2 == 1 {
			v = -v
		}
		want, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 2, 64), 64)
		got := Figure(v)
		if got == want {
			continue
		}
		// a tie: the fourth significant digit and the rest are 5000…
		digits := strconv.FormatFloat(math.Abs(v), 'e', 12, 64)
		if digits[4:8] != "5000" && digits[4:8] != "4999" {
			t.Fatalf("Figure(%v) = %v, want %v", v, got, want)
		}
	}
}

// BenchmarkFigure: rounding NerdGraph's unrounded figures.
func BenchmarkFigure(b *testing.B) {
	values := []float64{0.9743589743589743, 304.1234567891, 4567.891234567, 0.0016181229773462784, 3.7312345678901,
		0.666666666666666, 12.345678901234, 99770.12345678}
	var sink float64
	for b.Loop() {
		for _, v := range values {
			sink += Figure(v)
		}
	}
	_ = sink
}
