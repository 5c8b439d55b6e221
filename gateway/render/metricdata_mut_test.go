package render

// The direct metric data writers (metricdata.go), written against the survivors of the
// gremlins run at b689aed.
//
// Equivalent survivors (json.go, the fast scans of appendJSONString that only decide
// where the byte-by-byte loop starts; that loop copies every byte they accept, 0x20 to
// 0x7f but '"' and '\\', unchanged, so the output is the same, only slower):
//   - json.go:149:10 CONDITIONALS_BOUNDARY (`i+8 <= len(s)` → `<`): the last eight bytes
//     are scanned one by one instead of at once;
//   - json.go:152:25 CONDITIONALS_BOUNDARY (`s[i] >= 0x20` → `>`): a space ends the
//     scan, and the loop after it copies the space unchanged.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// mdVocabulary is the route's default value names (BenchmarkRenderMetricData's).
var mdVocabulary = []string{"average_response_time", "calls_per_minute", "call_count", "min_response_time", "max_response_time",
	"average_exclusive_time", "average_value", "total_call_time_per_minute", "requests_per_minute", "standard_deviation"}

// mdDoc is n metrics of slices timeslices, each of the ten default values.
func mdDoc(n, slices int) *v2.MetricData {
	r := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	md := &v2.MetricData{From: t0, To: t0.Add(3 * time.Hour), NotFound: []string{}}
	for i := range n {
		s := v2.MetricSeries{Name: fmt.Sprintf("WebTransaction/mut/%d", i)}
		for k := range slices {
			ts := v2.Timeslice{From: t0.Add(time.Duration(k) * time.Minute), To: t0.Add(time.Duration(k+1) * time.Minute)}
			for _, name := range mdVocabulary {
				ts.Values = append(ts.Values, v2.MetricValue{Name: name, Value: r.Float64() * 100})
			}
			s.Timeslices = append(s.Timeslices, ts)
		}
		md.Found = append(md.Found, s.Name)
		md.Metrics = append(md.Metrics, s)
	}
	return md
}

// TestMetricDataSourceMut: a metric data answer (not a nil one) is written by the
// direct writers; any other document by the generic encoders. Kills metricdata.go:76:8
// CONDITIONALS_NEGATION (`d != nil` → `==`: every answer sent to the generic encoders,
// a nil one to the direct writers).
func TestMetricDataSourceMut(t *testing.T) {
	md := mdDoc(1, 1)
	if src, ok := metricDataSource(md); !ok || src.MetricDataLen() != 1 {
		t.Errorf("metricDataSource(*v2.MetricData) = %v, %v; want the answer as a source", src, ok)
	}
	if src, ok := metricDataSource((*v2.MetricData)(nil)); ok || src != nil {
		t.Errorf("metricDataSource(nil *v2.MetricData) = %v, %v; want none", src, ok)
	}
	if _, ok := metricDataSource(generic{md}); ok {
		t.Error("metricDataSource(another document) = true")
	}
}

// TestMetricDataSizeNeverNegativeMut: answers with many short names and no values (every
// name not found; found names without series; series without timeslices) render as the
// generic encoders do. The size reserved for them is an estimate of at least 512 bytes
// plus a positive amount per name. Kills metricdata.go:215:15 (`len(s) + 32` → `-`),
// :218:15 (`len(s) + 48` → `-`) and :222:20 (`2*len(name) + 96` → `- 96`)
// ARITHMETIC_BASE: each makes the estimate negative, and slices.Grow panics.
func TestMetricDataSizeNeverNegativeMut(t *testing.T) {
	names := make([]string, 20)
	for i := range names {
		names[i] = fmt.Sprintf("n%02d", i)
	}
	series := make([]v2.MetricSeries, len(names))
	for i, n := range names {
		series[i] = v2.MetricSeries{Name: n, Timeslices: []v2.Timeslice{}}
	}
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	docs := map[string]*v2.MetricData{
		"not found":                  {From: t0, To: t0, NotFound: names, Found: []string{}, Metrics: []v2.MetricSeries{}},
		"found without series":       {From: t0, To: t0, NotFound: []string{}, Found: names, Metrics: []v2.MetricSeries{}},
		"series without timeslices":  {From: t0, To: t0, NotFound: []string{}, Found: []string{}, Metrics: series},
		"found, without timeslices":  {From: t0, To: t0, NotFound: []string{}, Found: names, Metrics: series},
		"half found, half not found": {From: t0, To: t0, NotFound: names[:10], Found: names[10:], Metrics: series[10:]},
	}
	for name, md := range docs {
		for _, f := range []struct {
			name   string
			render func([]byte, v2.Document) []byte
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

// TestMDWriterPoolBoundsMut: a writer is pooled again unless it holds more than 64 KiB
// of prepared names or more than 1024 names, numbers or values (an answer with an
// unusual vocabulary): one exactly at each bound comes back, one past it never. A pool
// may drop what it is given (at random under -race), so the kept case tries up to 50
// times with a new writer each time; the dropped case can never see its writer again.
// Kills metricdata.go:133:20, :133:44, :133:66, :133:88 CONDITIONALS_BOUNDARY (`>` →
// `>=`: a writer at the bound dropped) and CONDITIONALS_NEGATION (`>` → `<=`: a writer
// past the bound kept, one within it dropped).
func TestMDWriterPoolBoundsMut(t *testing.T) {
	writers := []struct {
		name string
		make func(over int) *mdWriter
	}{
		{"scratch", func(over int) *mdWriter { return &mdWriter{scratch: make([]byte, 0, 64<<10+over)} }},
		{"keys", func(over int) *mdWriter { return &mdWriter{keys: make([]mdKey, 0, 1024+over)} }},
		{"nums", func(over int) *mdWriter { return &mdWriter{nums: make([]mdNum, 0, 1024+over)} }},
		{"vals", func(over int) *mdWriter { return &mdWriter{vals: make([]v2.MetricValue, 0, 1024+over)} }},
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
