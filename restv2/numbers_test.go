package restv2

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// appendFloat writes exactly what strconv's shortest 'f' formatting writes: integral
// values and short decimals (its fast paths) and everything else, at and around 2^53
// and 10^15 and with signs.
func TestAppendFloatMatchesStrconv(t *testing.T) {
	values := []float64{0, 1, -1, 42, -42, 0.5, 1.5, -2.25, 123.456, 1e-7, 1e21, -1e21, 1e15, 1e15 + 1,
		maxExactInt - 1, maxExactInt, maxExactInt + 2, -maxExactInt + 1, -maxExactInt, -maxExactInt - 2,
		math.MaxInt64, math.MinInt64, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
		1763640000000, 0.1 + 0.2, 99.99999999999999, 100.00000000000001}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		values = append(values, math.Round(r.NormFloat64()*1e6), r.NormFloat64()*1e3, float64(r.Int64N(1<<60)-(1<<59)),
			math.Float64frombits(r.Uint64()))
		// short decimals (appendShortDecimal): of 1 to 17 digits and 1 to 12 decimals,
		// read from their text as NerdGraph's and REST's figures are
		digits, decimals := r.IntN(17)+1, r.IntN(12)+1
		text := strconv.FormatInt(r.Int64N(int64(math.Pow10(digits))), 10)
		for len(text) <= decimals {
			text = "0" + text
		}
		text = text[:len(text)-decimals] + "." + text[len(text)-decimals:]
		if r.IntN(2) == 0 {
			text = "-" + text
		}
		short, _ := strconv.ParseFloat(text, 64)
		values = append(values, short)
	}
	values = append(values, 0.667, 0.00162, 4.57, 1e-9, 1.5e-9, 999999999999999.9, 99999999999999.99, 0.1, 0.3, 1-1e-15, -0.005)
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 && math.Signbit(v) {
			continue // the encoders write null, and 0 for -0, before formatting
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
		want := tm.UTC().AppendFormat(nil, TimeLayout)
		if got := appendTime(nil, tm); string(got) != string(want) {
			t.Fatalf("appendTime(%v) = %s, want %s", tm, got, want)
		}
	}
}

// BenchmarkAppendFloat: REST's figures (three significant digits, translate/figures.go)
// and NerdGraph's unrounded ones, through appendFloat and strconv.
func BenchmarkAppendFloat(b *testing.B) {
	sets := []struct {
		name   string
		values []float64
	}{
		{"figures", []float64{0.667, 304.5, 4.57, 0.00162, 3.73, 0.97, 12.3, 0.333}},
		{"unrounded", []float64{0.9743589743589743, 304.1234567891, 4567.891234567, 0.0016181229773462784, 3.7312345678901,
			0.666666666666666, 12.345678901234, 99770.12345678}},
	}
	for _, set := range sets {
		b.Run(set.name+"/appendFloat", func(b *testing.B) {
			buf := make([]byte, 0, 32)
			for b.Loop() {
				for _, v := range set.values {
					buf = appendFloat(buf[:0], v)
				}
			}
		})
		b.Run(set.name+"/strconv", func(b *testing.B) {
			buf := make([]byte, 0, 32)
			for b.Loop() {
				for _, v := range set.values {
					buf = strconv.AppendFloat(buf[:0], v, 'f', -1, 64)
				}
			}
		})
	}
}
