package render

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// appendFloat writes exactly what strconv's shortest 'f' formatting writes: integral
// values (its fast path) and everything else, at and around 2^53 and with signs.
func TestAppendFloatMatchesStrconv(t *testing.T) {
	values := []float64{0, 1, -1, 42, -42, 0.5, 1.5, -2.25, 123.456, 1e-7, 1e21, -1e21, 1e15, 1e15 + 1,
		maxExactInt - 1, maxExactInt, maxExactInt + 2, -maxExactInt + 1, -maxExactInt, -maxExactInt - 2,
		math.MaxInt64, math.MinInt64, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
		1763640000000, 0.1 + 0.2, 99.99999999999999, 100.00000000000001}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		values = append(values, math.Round(r.NormFloat64()*1e6), r.NormFloat64()*1e3, float64(r.Int64N(1<<60)-(1<<59)),
			math.Float64frombits(r.Uint64()))
	}
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue // the encoders write null before formatting
		}
		want := strconv.AppendFloat(nil, v, 'f', -1, 64)
		if got := appendFloat(nil, v); string(got) != string(want) {
			t.Fatalf("appendFloat(%v) = %s, want %s", v, got, want)
		}
	}
}

// appendTime writes exactly what AppendFormat with REST v2's layout writes, in UTC,
// whatever the time's zone, and falls back for years past four digits.
func TestAppendTimeMatchesLayout(t *testing.T) {
	zone := time.FixedZone("x", -7*3600-30*60)
	times := []time.Time{
		time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 999999999, zone),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 1, 0, 0, 0, 0, time.UTC),
		{},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		times = append(times, time.Unix(r.Int64N(1<<36)-(1<<35), 0).In(zone))
	}
	for _, tm := range times {
		want := tm.UTC().AppendFormat(nil, v2.TimeLayout)
		if got := appendTime(nil, tm); string(got) != string(want) {
			t.Fatalf("appendTime(%v) = %s, want %s", tm, got, want)
		}
	}
}
