package metricdata

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// genericDoc hides *restv2.MetricData's concrete type, so restv2.JSON and restv2.XML take
// the generic encoders ((*restv2.MetricData).EncodeV2) instead of the direct metric data
// writers (restv2/metricdata.go).
type genericDoc struct{ restv2.Document }

// TestMetricDataRenderDirectMatchesGeneric builds metric data documents as the route
// does (NewDoc) for a name of every value family, asking for every value name
// the tables know, raw and summarized too, over random raw sums (zeros that make
// ratios NaN and drop the value, large and small magnitudes, integral and
// 17-digit values), and requires the direct writers' bytes to equal the generic
// encoders' (EncodeV2 of the model) in JSON and XML, whether written from the series
// (Doc, without building the model) or from the model (*restv2.MetricData).
func TestMetricDataRenderDirectMatchesGeneric(t *testing.T) {
	names := []string{"HttpDispatcher", "Apdex", "Apdex/Controller/x", "Memory/Physical", "CPU/User Time", "GC/PS Scavenge",
		"Errors/all", "EndUser", "EndUser/RB", "Browser/x", "WebFrontend/QueueTime", "Datastore/all", "missing<&>"}
	values := append(ServedValues(), "percent", "no_such_value")
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	from := now.Add(-3 * time.Hour)
	w, err := ResolveWindow(Request{From: &from, To: &now}, now)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(18, 11))
	num := func() float64 {
		switch r.IntN(6) {
		case 0:
			return 0
		case 1:
			return float64(r.IntN(1000))
		case 2:
			return r.Float64() * math.Pow(10, float64(r.IntN(30)-15))
		case 3:
			return []float64{1e-7, 1.7976931348623157e307, 5e-324, 0.1, 1 << 53, 1e21}[r.IntN(6)]
		}
		return r.Float64() * 100
	}
	for i := range 300 {
		series := map[string][]Row{}
		for _, n := range names[:len(names)-1] {
			for k := range 1 + r.IntN(4) {
				begin := w.Since.Add(time.Duration(k) * time.Minute)
				series[n] = append(series[n], Row{Facet: json.RawMessage(strconv.Quote(n)), Begin: float64(begin.Unix()), End: float64(begin.Add(time.Minute).Unix()),
					C: num(), S: num(), Ex: num(), Mn: num(), Mx: num(), Sq: num(), Sd: num(), Exr: num(), Exm: num()})
			}
		}
		req := Request{Names: names, Raw: i%5 == 1, Summarize: i%3 == 2}
		switch i % 4 {
		case 0:
			req.Values = values
		case 1:
			req.Values = slices.Clone(values)
			slices.Reverse(req.Values)
		}
		for _, f := range []struct {
			name   string
			render func([]byte, restv2.Document) []byte
		}{{"json", restv2.JSON}, {"xml", restv2.XML}} {
			doc := NewDoc(names, req, w, series)
			got := f.render(nil, doc)
			if doc.model != nil {
				t.Fatal("rendering a Doc built its model")
			}
			if want := f.render(nil, genericDoc{doc}); !bytes.Equal(got, want) {
				t.Fatalf("document %d (%s), from the series:\n got %q\nwant %q", i, f.name, got, want)
			}
			if model := f.render(nil, doc.Model()); !bytes.Equal(model, got) {
				t.Fatalf("document %d (%s), from the model:\n got %q\nwant %q", i, f.name, model, got)
			}
		}
	}
}

// TestMetricDataRenderEveryValueName: every value name served is served by one of the
// names the comparison above renders (raw=true's names are rendered there too).
func TestMetricDataRenderEveryValueName(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range []string{"HttpDispatcher", "Apdex", "Memory/Physical", "CPU/User Time", "Errors/all", "EndUser",
		"EndUser/RB", "WebFrontend/QueueTime"} {
		for _, v := range resolveValues(nil, name, ServedValues()) {
			seen[v.name] = true
		}
	}
	for _, v := range ServedValues() {
		if !seen[v] {
			t.Errorf("value %s is served by no name of the render comparison", v)
		}
	}
}
