package translate

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// Translating and rendering a 10-name × 180-slice metric document.
func BenchmarkMetricData10x180(b *testing.B) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	from := now.Add(-3 * time.Hour)
	w, err := metricdata.ResolveWindow(metricdata.Request{From: &from, To: &now}, now)
	if err != nil {
		b.Fatal(err)
	}
	series := map[string][]metricdata.Row{}
	var names []string
	for i := 0; i < 10; i++ {
		name := "Controller/bench/" + strconv.Itoa(i)
		names = append(names, name)
		for k := 0; k < 180; k++ {
			begin := w.Since.Add(time.Duration(k) * time.Minute)
			series[name] = append(series[name], metricdata.Row{Facet: json.RawMessage(strconv.Quote(name)), Begin: float64(begin.Unix()), End: float64(begin.Add(time.Minute).Unix()),
				C: 100 + float64(k), S: 30, Ex: 20, Mn: 0.01, Mx: 2, Sq: 40})
		}
	}
	buf := make([]byte, 0, 1<<20)
	b.ReportAllocs()
	for b.Loop() {
		doc := metricdata.NewDoc(names, metricdata.Request{}, w, series).Model()
		buf = restv2.JSON(buf[:0], doc)
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkMetricDocKey is metricDocKey on a cached answer's request (one name).
func BenchmarkMetricDocKey(b *testing.B) {
	c := Caller{KeyHash: "0123456789abcdef0123456789abcdef", AccountID: 1000001}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	from := now.Add(-30 * time.Minute)
	r := metricdata.Request{Names: []string{"HttpDispatcher"}, From: &from, To: &now}
	w, err := metricdata.ResolveWindow(r, now)
	if err != nil {
		b.Fatal(err)
	}
	reading := docReading(metricdata.Choices{}, DefaultMetricNamesWindow)
	b.ReportAllocs()
	for b.Loop() {
		metricDocKey(c, reading, MetricScope{AppID: 314221522}, dedupe(r.Names), r, w)
	}
}
