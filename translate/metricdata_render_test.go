package translate

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// TestMetricDocKeyDistinguishes: the metric document's cache key changes with each
// thing the document depends on, and only with those (the same request, rebuilt, has
// the same key); length prefixes keep names that join alike apart.
func TestMetricDocKeyDistinguishes(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	from := now.Add(-time.Hour)
	base := func() (Caller, MetricScope, []string, metricdata.Request) {
		return Caller{KeyHash: "k1", AccountID: 1}, MetricScope{AppID: 7}, []string{"A", "B"},
			metricdata.Request{From: &from, To: &now, Values: []string{"call_count"}}
	}
	reading := docReading(metricdata.Choices{}, DefaultMetricNamesWindow)
	keyWith := func(reading string, c Caller, s MetricScope, names []string, r metricdata.Request) string {
		w, err := metricdata.ResolveWindow(r, now)
		if err != nil {
			t.Fatal(err)
		}
		return metricDocKey(c, reading, s, names, r, w)
	}
	key := func(c Caller, s MetricScope, names []string, r metricdata.Request) string {
		return keyWith(reading, c, s, names, r)
	}
	want := key(base())
	if again := key(base()); again != want {
		t.Fatalf("the same request: %q then %q", want, again)
	}
	later := from.Add(time.Second)
	for _, tt := range []struct {
		name   string
		change func(*Caller, *MetricScope, *[]string, *metricdata.Request)
	}{
		{"key", func(c *Caller, _ *MetricScope, _ *[]string, _ *metricdata.Request) { c.KeyHash = "k2" }},
		{"account", func(c *Caller, _ *MetricScope, _ *[]string, _ *metricdata.Request) { c.AccountID = 2 }},
		{"application", func(_ *Caller, s *MetricScope, _ *[]string, _ *metricdata.Request) { s.AppID = 8 }},
		{"mobile", func(_ *Caller, s *MetricScope, _ *[]string, _ *metricdata.Request) { s.Mobile = true }},
		{"host", func(_ *Caller, s *MetricScope, _ *[]string, _ *metricdata.Request) { s.Host = "h" }},
		{"instance", func(_ *Caller, s *MetricScope, _ *[]string, _ *metricdata.Request) { s.InstanceID = 3 }},
		{"names order", func(_ *Caller, _ *MetricScope, n *[]string, _ *metricdata.Request) { *n = []string{"B", "A"} }},
		{"names joined alike", func(_ *Caller, _ *MetricScope, n *[]string, _ *metricdata.Request) { *n = []string{"A1:B"} }},
		{"one name fewer", func(_ *Caller, _ *MetricScope, n *[]string, _ *metricdata.Request) { *n = []string{"A"} }},
		{"values", func(_ *Caller, _ *MetricScope, _ *[]string, r *metricdata.Request) { r.Values = nil }},
		{"values joined alike", func(_ *Caller, _ *MetricScope, _ *[]string, r *metricdata.Request) {
			r.Values = []string{"call", "count"}
		}},
		{"raw", func(_ *Caller, _ *MetricScope, _ *[]string, r *metricdata.Request) { r.Raw = true }},
		{"summarize", func(_ *Caller, _ *MetricScope, _ *[]string, r *metricdata.Request) { r.Summarize = true }},
		{"period", func(_ *Caller, _ *MetricScope, _ *[]string, r *metricdata.Request) { r.Period = 600 }},
		{"from within the slice", func(_ *Caller, _ *MetricScope, _ *[]string, r *metricdata.Request) { r.From = &later }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, s, n, r := base()
			tt.change(&c, &s, &n, &r)
			if got := key(c, s, n, r); got == want {
				t.Fatalf("same key %q", got)
			}
		})
	}
	// The operator's readings (readings.go): each choice and the names window.
	for name, other := range map[string]string{
		"metric_raw: fields":   docReading(metricdata.Choices{RawFields: true}, DefaultMetricNamesWindow),
		"queue_time: per_view": docReading(metricdata.Choices{QueuePerView: true}, DefaultMetricNamesWindow),
		"names window":         docReading(metricdata.Choices{}, 2*DefaultMetricNamesWindow),
	} {
		c, s, n, r := base()
		if got := keyWith(other, c, s, n, r); got == want {
			t.Errorf("%s: same key %q", name, got)
		}
	}
}

// TestFetchMetricDataGroupsRows: the answer's rows become each name's slices in begin
// order without a copy per row: names interleaved and out of order within a chunk
// (sorted by name), a chunk grouped by name with a run in reverse time order, null
// rows and a numeric facet (no metric), and a name answered in two chunks (merged).
func TestFetchMetricDataGroupsRows(t *testing.T) {
	row := func(facet any, begin int) map[string]any {
		return map[string]any{"facet": facet, "beginTimeSeconds": begin, "endTimeSeconds": begin + 60, "c": float64(begin)}
	}
	f := &opFake{answer: func(string, map[string]any) (any, error) {
		return map[string]any{"actor": map[string]any{
			"entity": map[string]any{"guid": "g", "accountId": 1},
			"account": map[string]any{
				"q0": map[string]any{"results": []any{row("B", 180), row("A", 120), row(nil, 0), row("B", 60), row("A", 60), row(7, 0), row("B", 120)}},
				"q1": map[string]any{"results": []any{row("C", 120), row("C", 60), row(nil, 0), row("A", 0)}},
			}}}, nil
	}}
	tr := New(f, Options{})
	got, err := tr.fetchMetricData(context.Background(), Caller{AccountID: 1}, MetricScope{AppID: 7}, []string{"q0", "q1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	summary := map[string][]int{}
	for name, rows := range got {
		for _, r := range rows {
			if string(r.Facet) != strconv.Quote(name) || r.C != r.Begin {
				t.Fatalf("%s: row %+v", name, r)
			}
			summary[name] = append(summary[name], int(r.Begin))
		}
	}
	want := map[string][]int{"A": {0, 60, 120}, "B": {60, 120, 180}, "C": {60, 120}}
	if fmt.Sprint(summary) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", summary, want)
	}
}

// TestMetricDocSharedConcurrently: a cached metricdata.Doc serves concurrent requests that
// render it in both formats and ask for its model (run under -race); every rendering
// is the first one's.
func TestMetricDocSharedConcurrently(t *testing.T) {
	tr, _ := mdTranslator()
	c := Caller{KeyHash: "k", AccountID: 1}
	req := metricdata.Request{Names: []string{"A", "B", "None"}, Values: []string{"call_count", "average_response_time"}}
	first, err := tr.MetricDocument(context.Background(), c, MetricScope{AppID: 7}, req)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, wantXML := restv2.JSON(nil, first), restv2.XML(nil, first)
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc, err := tr.MetricDocument(context.Background(), c, MetricScope{AppID: 7}, req)
			if err != nil {
				errs <- err.Error()
				return
			}
			if doc != first {
				errs <- "not the cached document"
			}
			if !bytes.Equal(restv2.JSON(nil, doc), wantJSON) || !bytes.Equal(restv2.XML(nil, doc), wantXML) {
				errs <- "a different rendering"
			}
			if md := doc.(*metricdata.Doc).Model(); len(md.Metrics) != 2 {
				errs <- fmt.Sprintf("model of %d metrics", len(md.Metrics))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// ctxFake records the timeslice row counts each request's context carries.
type ctxFake struct {
	opFake
	rows [][]int
}

func (f *ctxFake) MakeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) error {
	f.mu.Lock()
	f.rows = append(f.rows, ng.TimesliceRows(ctx))
	f.mu.Unlock()
	return f.opFake.MakeRequest(ctx, req, resp)
}

// TestMetricDataCountsRows: a metric data request tells its one MetricData call how
// many rows each chunk answers at most (names × slices; one slice summarized), so the
// client allocates them once (graphql.WithTimesliceRows).
func TestMetricDataCountsRows(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	from := now.Add(-30 * time.Minute)
	names := make([]string, 120)
	for i := range names {
		names[i] = fmt.Sprintf("Custom/m%d", i)
	}
	for _, tt := range []struct {
		req  metricdata.Request
		want []int
	}{
		{metricdata.Request{Names: names[:3], From: &from, To: &now}, []int{90}},                       // 30 slices of a minute
		{metricdata.Request{Names: names[:3], From: &from, To: &now, Period: 600}, []int{9}},           // 3 slices of 10 minutes
		{metricdata.Request{Names: names, From: &from, To: &now}, []int{1500, 1500, 600}},              // chunks of 50
		{metricdata.Request{Names: names[:60], From: &from, To: &now, Summarize: true}, []int{50, 10}}, // a row per name
	} {
		f := &ctxFake{opFake: opFake{answer: func(string, map[string]any) (any, error) {
			return map[string]any{"actor": map[string]any{"entity": map[string]any{"guid": "g", "accountId": 1},
				"account": map[string]any{"q0": map[string]any{"results": []any{}}}}}, nil
		}}}
		// Asked when the range is ingested; its names have no data, so the names are
		// read after (no rows).
		tr := New(f, Options{Now: func() time.Time { return now.Add(5 * time.Minute) }, MetricDataTTL: -1})
		if _, err := tr.MetricDocument(context.Background(), Caller{AccountID: 1}, MetricScope{AppID: 7}, tt.req); err != nil {
			t.Fatal(err)
		}
		if len(f.rows) != 2 || fmt.Sprint(f.rows[0]) != fmt.Sprint(tt.want) || len(f.rows[1]) != 0 {
			t.Errorf("%d names, period %d, summarize %v: counts %v, want one call with %v", len(tt.req.Names), tt.req.Period, tt.req.Summarize, f.rows, tt.want)
		}
	}
}
