package restv2

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// generic hides a document's concrete type, so JSON and XML render it through the
// generic encoders ((*MetricData).EncodeV2): the reference the direct metric data
// writers must equal byte for byte.
type generic struct{ Document }

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

func randomMetricData(r *rand.Rand) *MetricData {
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
	md := &MetricData{From: t0, To: t0.Add(time.Hour), NotFound: []string{}, Found: []string{}, Metrics: []MetricSeries{},
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
		s := MetricSeries{Name: pick()}
		for k := range r.IntN(5) {
			ts := Timeslice{From: t0.Add(time.Duration(k) * time.Minute), To: t0.Add(time.Duration(k+1) * time.Minute)}
			for range r.IntN(8) {
				v := MetricValue{Name: pick(), Value: num(), Int: r.IntN(3) == 0}
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
			render func([]byte, Document) []byte
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
	md := &MetricData{NotFound: []string{}, Found: []string{}, Metrics: []MetricSeries{}}
	for _, render := range []func([]byte, Document) []byte{JSON, XML} {
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
	md := &MetricData{From: t0, To: t0.Add(3 * time.Hour), NotFound: []string{}}
	for i := range 10 {
		s := MetricSeries{Name: "WebTransaction/bench/" + string(rune('a'+i))}
		for k := range 180 {
			ts := Timeslice{From: t0.Add(time.Duration(k) * time.Minute), To: t0.Add(time.Duration(k+1) * time.Minute)}
			cpm := r.Float64() * 1000
			for j, n := range names {
				v := MetricValue{Name: n, Value: r.Float64() * 100}
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
		render func([]byte, Document) []byte
	}{{"json", JSON}, {"xml", XML}} {
		for _, c := range []struct {
			name string
			doc  Document
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

// mdVocabulary is the route's default value names (BenchmarkRenderMetricData's).
var mdVocabulary = []string{"average_response_time", "calls_per_minute", "call_count", "min_response_time", "max_response_time",
	"average_exclusive_time", "average_value", "total_call_time_per_minute", "requests_per_minute", "standard_deviation"}

// mdDoc is n metrics of slices timeslices, each of the ten default values.
func mdDoc(n, slices int) *MetricData {
	r := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	md := &MetricData{From: t0, To: t0.Add(3 * time.Hour), NotFound: []string{}}
	for i := range n {
		s := MetricSeries{Name: fmt.Sprintf("WebTransaction/mut/%d", i)}
		for k := range slices {
			ts := Timeslice{From: t0.Add(time.Duration(k) * time.Minute), To: t0.Add(time.Duration(k+1) * time.Minute)}
			for _, name := range mdVocabulary {
				ts.Values = append(ts.Values, MetricValue{Name: name, Value: r.Float64() * 100})
			}
			s.Timeslices = append(s.Timeslices, ts)
		}
		md.Found = append(md.Found, s.Name)
		md.Metrics = append(md.Metrics, s)
	}
	return md
}

// TestMetricDataSource: a metric data answer (not a nil one) is written by the direct
// writers; any other document by the generic encoders.
func TestMetricDataSource(t *testing.T) {
	md := mdDoc(1, 1)
	if src, ok := metricDataSource(md); !ok || src.MetricDataLen() != 1 {
		t.Errorf("metricDataSource(*MetricData) = %v, %v; want the answer as a source", src, ok)
	}
	if src, ok := metricDataSource((*MetricData)(nil)); ok || src != nil {
		t.Errorf("metricDataSource(nil *MetricData) = %v, %v; want none", src, ok)
	}
	if _, ok := metricDataSource(generic{md}); ok {
		t.Error("metricDataSource(another document) = true")
	}
}

// TestMetricDataSizeNeverNegative: answers with many short names and no values (every
// name not found; found names without series; series without timeslices) render as the
// generic encoders do. The size reserved for them is an estimate of at least 512 bytes plus
// a positive amount per name.
func TestMetricDataSizeNeverNegative(t *testing.T) {
	names := make([]string, 20)
	for i := range names {
		names[i] = fmt.Sprintf("n%02d", i)
	}
	series := make([]MetricSeries, len(names))
	for i, n := range names {
		series[i] = MetricSeries{Name: n, Timeslices: []Timeslice{}}
	}
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	docs := map[string]*MetricData{
		"not found":                  {From: t0, To: t0, NotFound: names, Found: []string{}, Metrics: []MetricSeries{}},
		"found without series":       {From: t0, To: t0, NotFound: []string{}, Found: names, Metrics: []MetricSeries{}},
		"series without timeslices":  {From: t0, To: t0, NotFound: []string{}, Found: []string{}, Metrics: series},
		"found, without timeslices":  {From: t0, To: t0, NotFound: []string{}, Found: names, Metrics: series},
		"half found, half not found": {From: t0, To: t0, NotFound: names[:10], Found: names[10:], Metrics: series[10:]},
	}
	for name, md := range docs {
		for _, f := range []struct {
			name   string
			render func([]byte, Document) []byte
		}{{"json", JSON}, {"xml", XML}} {
			var got []byte
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s, %s: panic %v", name, f.name, p)
					}
				}()
				got = f.render(nil, md)
			}()
			if want := f.render(nil, generic{md}); !bytes.Equal(got, want) {
				t.Errorf("%s, %s:\n got %q\nwant %q", name, f.name, got, want)
			}
		}
	}
}

// TestMDWriterPoolBounds: a writer is pooled again unless it holds more than 64 KiB of
// prepared names or more than 1024 names, numbers or values (an answer with an unusual
// vocabulary): one exactly at each bound comes back, one past it never. A pool may drop
// what it is given (at random under -race), so the kept case tries up to 50 times with a
// new writer each time; the dropped case can never see its writer again.
func TestMDWriterPoolBounds(t *testing.T) {
	writers := []struct {
		name string
		make func(over int) *mdWriter
	}{
		{"scratch", func(over int) *mdWriter { return &mdWriter{scratch: make([]byte, 0, 64<<10+over)} }},
		{"keys", func(over int) *mdWriter { return &mdWriter{keys: make([]mdKey, 0, 1024+over)} }},
		{"nums", func(over int) *mdWriter { return &mdWriter{nums: make([]mdNum, 0, 1024+over)} }},
		{"vals", func(over int) *mdWriter { return &mdWriter{vals: make([]MetricValue, 0, 1024+over)} }},
	}
	for _, w := range writers {
		for range 50 {
			big := w.make(1)
			putMDWriter(big)
			if got := mdWriters.Get().(*mdWriter); got == big {
				t.Fatalf("a writer with %s past the bound came back from the pool", w.name)
			}
		}
		kept := false
		for range 50 {
			edge := w.make(0)
			putMDWriter(edge)
			if mdWriters.Get().(*mdWriter) == edge {
				kept = true
				break
			}
		}
		if !kept {
			t.Errorf("a writer with %s exactly at the bound never came back from the pool", w.name)
		}
	}
}
