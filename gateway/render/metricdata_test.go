package render

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// generic hides a document's concrete type, so JSON and XML render it through the
// generic encoders ((*v2.MetricData).EncodeV2): the reference the direct metric data
// writers must equal byte for byte.
type generic struct{ v2.Document }

// mdEdgeNames are metric and value names that exercise escaping and XML name
// sanitising.
var mdEdgeNames = []string{"HttpDispatcher", "CPU/User Time", `a"b\c`, "a<b>&c\r\n\t", "café 日本 🚀",
	"bad\xffutf8", "\u2028\u2029", "ctl\x01\x1f", "", "1st", "percent(CPU/User Time)", "ns:name"}

// mdEdgeFloats are values whose rendering has a special case: zeros, integral floats
// around 2^53, the extremes, NaN and the infinities (null in JSON, an empty element
// in XML), and fractions needing 17 digits.
var mdEdgeFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-7, 5e-324, 2.2250738585072014e-308,
	1.7976931348623157e308, -1.7976931348623157e308, 1 << 53, 1<<53 - 1, 1<<53 + 2, -(1 << 53), 1e21, 1e22, 123456789.125,
	0.30000000000000004, 2.0 / 3, math.NaN(), math.Inf(1), math.Inf(-1), 304, 1e15 + 0.5}

func randomMetricData(r *rand.Rand) *v2.MetricData {
	pick := func() string { return mdEdgeNames[r.IntN(len(mdEdgeNames))] }
	num := func() float64 {
		switch r.IntN(4) {
		case 0:
			return mdEdgeFloats[r.IntN(len(mdEdgeFloats))]
		case 1:
			return float64(r.IntN(100000))
		case 2:
			return r.Float64() * math.Pow(10, float64(r.IntN(40)-20))
		}
		return math.Float64frombits(r.Uint64())
	}
	t0 := time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(1e6)) * time.Second)
	md := &v2.MetricData{From: t0, To: t0.Add(time.Hour), NotFound: []string{}, Found: []string{}, Metrics: []v2.MetricSeries{},
		Summarize: r.IntN(2) == 0}
	if r.IntN(8) == 0 {
		md.From = time.Date(10000+r.IntN(5), 1, 1, 0, 0, 0, 0, time.UTC) // AppendFormat's years
	}
	for range r.IntN(3) {
		md.NotFound = append(md.NotFound, pick())
	}
	for range r.IntN(3) {
		md.Found = append(md.Found, pick())
	}
	for range r.IntN(4) {
		s := v2.MetricSeries{Name: pick()}
		for k := range r.IntN(5) {
			ts := v2.Timeslice{From: t0.Add(time.Duration(k) * time.Minute), To: t0.Add(time.Duration(k+1) * time.Minute)}
			for range r.IntN(8) {
				v := v2.MetricValue{Name: pick(), Value: num(), Int: r.IntN(3) == 0}
				if r.IntN(4) == 0 && len(ts.Values) > 0 { // a value equal to an earlier one
					v.Value = ts.Values[r.IntN(len(ts.Values))].Value
				}
				ts.Values = append(ts.Values, v)
			}
			s.Timeslices = append(s.Timeslices, ts)
		}
		md.Metrics = append(md.Metrics, s)
	}
	return md
}

// TestMetricDataRenderMatches: the direct metric data writers produce exactly the
// generic encoders' bytes, in both formats, on 5,000 random documents (names needing
// escapes, empty lists, NaN, infinities, -0, extreme and integral floats, repeated
// values in a slice) and into a non-empty destination.
func TestMetricDataRenderMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 2026))
	for i := range 5000 {
		md := randomMetricData(r)
		prefix := []byte("prefix")
		for _, f := range []struct {
			name   string
			render func([]byte, v2.Document) []byte
		}{{"json", JSON}, {"xml", XML}} {
			want := f.render(bytes.Clone(prefix), generic{md})
			got := f.render(bytes.Clone(prefix), md)
			if !bytes.Equal(got, want) {
				t.Fatalf("document %d, %s:\n got %q\nwant %q", i, f.name, got, want)
			}
		}
	}
}

// TestMetricDataRenderEmpty: an empty answer (nothing found) in both formats.
func TestMetricDataRenderEmpty(t *testing.T) {
	md := &v2.MetricData{NotFound: []string{}, Found: []string{}, Metrics: []v2.MetricSeries{}}
	for _, render := range []func([]byte, v2.Document) []byte{JSON, XML} {
		if got, want := render(nil, md), render(nil, generic{md}); !bytes.Equal(got, want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	}
}

// BenchmarkRenderMetricData renders 10 names × 180 slices of 10 values (about the
// route's default vocabulary) directly and through the generic encoders.
func BenchmarkRenderMetricData(b *testing.B) {
	names := []string{"average_response_time", "calls_per_minute", "call_count", "min_response_time", "max_response_time",
		"average_exclusive_time", "average_value", "total_call_time_per_minute", "requests_per_minute", "standard_deviation"}
	r := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	md := &v2.MetricData{From: t0, To: t0.Add(3 * time.Hour), NotFound: []string{}}
	for i := range 10 {
		s := v2.MetricSeries{Name: "WebTransaction/bench/" + string(rune('a'+i))}
		for k := range 180 {
			ts := v2.Timeslice{From: t0.Add(time.Duration(k) * time.Minute), To: t0.Add(time.Duration(k+1) * time.Minute)}
			cpm := r.Float64() * 1000
			for j, n := range names {
				v := v2.MetricValue{Name: n, Value: r.Float64() * 100}
				switch j {
				case 1, 8:
					v.Value = cpm
				case 2:
					v.Value, v.Int = float64(r.IntN(10000)), true
				}
				ts.Values = append(ts.Values, v)
			}
			s.Timeslices = append(s.Timeslices, ts)
		}
		md.Found = append(md.Found, s.Name)
		md.Metrics = append(md.Metrics, s)
	}
	for _, f := range []struct {
		name   string
		render func([]byte, v2.Document) []byte
	}{{"json", JSON}, {"xml", XML}} {
		for _, c := range []struct {
			name string
			doc  v2.Document
		}{{"direct", md}, {"generic", generic{md}}} {
			b.Run(f.name+"/"+c.name, func(b *testing.B) {
				buf := GetBuffer()
				defer PutBuffer(buf)
				b.ReportAllocs()
				for b.Loop() {
					*buf = f.render((*buf)[:0], c.doc)
				}
				b.SetBytes(int64(len(*buf)))
			})
		}
	}
}
