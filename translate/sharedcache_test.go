package translate

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state/statetest"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// The fleet's shared cache as the translator uses it: which caches are shared and how
// their values travel (sharedCodecs), cursors read across replicas, and the store
// (statetest.SharedCache) serving entries only while the fleet's record of the caller's key
// holds.

// Every shared value round-trips through its codec without loss (what B serves from
// the store is what A cached), and values without a shared form stay local.
func TestSharedCodecsRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 24, 22, 0, 0, 0, time.UTC)
	thr := 3.5
	show := &restv2.ApplicationShow{Application: restv2.Application{ID: 7, Name: "web \"x\" é", Language: "go", HealthStatus: "green",
		Reporting: true, LastReportedAt: &at, Summary: &restv2.ApplicationSummary{ResponseTime: 0.1 + 0.2, Throughput: 1e-9,
			ErrorRate: 1, ApdexTarget: 0.5, ApdexScore: 0.97, HostCount: 2, InstanceCount: 3},
		EndUser:  &restv2.EndUserSummary{ResponseTime: 1.25, Throughput: 3, ApdexTarget: 7},
		Settings: restv2.ApplicationSettings{AppApdexThreshold: 0.5, EndUserApdexThreshold: &thr, EnableRealUserMonitoring: true},
		Links:    &restv2.ApplicationLinks{ApplicationInstances: []int64{1, 2}, ApplicationHosts: []int64{3}}}}
	from := time.Date(2026, 11, 24, 21, 0, 0, 0, time.FixedZone("", -5*3600))
	md := &restv2.MetricData{From: from, To: from.Add(time.Hour), NotFound: []string{"x"}, Found: []string{"HttpDispatcher"},
		Metrics: []restv2.MetricSeries{{Name: "HttpDispatcher", Timeslices: []restv2.Timeslice{{From: from, To: from.Add(time.Minute),
			Values: []restv2.MetricValue{{Name: "call_count", Value: 12, Int: true}, {Name: "average_response_time", Value: 0.123456789}}}}}},
		Summarize: true}
	codecs := sharedCodecs()
	for _, tc := range []struct {
		cache string
		v     any
	}{{"entities", show}, {"metric_data", md}, {"accounts", []int64{1000001, 1000002}},
		{"cursors", "Mjo6ZW50aXR5U2VhcmNo\"+/="}, {"cursors", true}, {"name_matches", []int64{42, 7, 1 << 40}},
		{"name_matches", []int64{}}} {
		c := codecs[tc.cache]
		b, ok := c.Encode(tc.v)
		if !ok {
			t.Fatalf("%s: not encoded", tc.cache)
		}
		got, ok := c.Decode(b)
		if !ok {
			t.Fatalf("%s: not decoded: %s", tc.cache, b)
		}
		switch want := tc.v.(type) {
		case *restv2.ApplicationShow:
			g := got.(*restv2.ApplicationShow)
			if !reflect.DeepEqual(g.Application.Summary, want.Application.Summary) || !g.Application.LastReportedAt.Equal(at) ||
				restv2.FormatTime(*g.Application.LastReportedAt) != restv2.FormatTime(at) || !g.Shared() {
				t.Fatalf("show: %+v", g.Application)
			}
			g.Application.LastReportedAt = want.Application.LastReportedAt
			if !reflect.DeepEqual(g.Application, want.Application) {
				t.Fatalf("show:\n%+v\n%+v", g.Application, want.Application)
			}
		case *restv2.MetricData:
			g := got.(*restv2.MetricData)
			if g.From.Format(time.RFC3339Nano) != want.From.Format(time.RFC3339Nano) || !g.Shared() ||
				!reflect.DeepEqual(g.Metrics[0].Timeslices[0].Values, want.Metrics[0].Timeslices[0].Values) ||
				!reflect.DeepEqual(g.Found, want.Found) || !reflect.DeepEqual(g.NotFound, want.NotFound) || g.Summarize != want.Summarize {
				t.Fatalf("metric data: %+v", g)
			}
		default:
			if !reflect.DeepEqual(got, tc.v) {
				t.Fatalf("%s: %v, want %v", tc.cache, got, tc.v)
			}
		}
	}
	if _, ok := codecs["metric_data"].Encode(map[string][]metricdata.Row{}); ok {
		t.Fatal("raw series were given a shared form")
	}
	if _, ok := codecs["entities"].Encode(&restv2.ApplicationShow{Application: restv2.Application{Summary: &restv2.ApplicationSummary{ApdexScore: nan()}}}); ok {
		t.Fatal("a NaN was encoded")
	}
	for _, bad := range []any{1, []string{"x"}, nil} {
		if _, ok := codecs["cursors"].Encode(bad); ok {
			t.Fatalf("cursors encoded %#v", bad)
		}
	}
	for _, b := range []string{"1", "null", "[]", "{}", "not json"} {
		if v, ok := codecs["cursors"].Decode([]byte(b)); ok {
			t.Fatalf("cursors decoded %s as %#v", b, v)
		}
	}
	for _, name := range []string{"lists", "metric_names"} {
		if _, ok := codecs[name]; ok {
			t.Fatalf("%s is shared", name)
		}
	}
}

func nan() float64 { var z float64; return z / z }

// BenchmarkSharedShowDecode is the decoding half of a shared cache read of an
// application show (the other half is the store's round trip, fleet.BenchmarkGetCached).
//
//	go test ./translate -run '^$' -bench SharedShowDecode
func BenchmarkSharedShowDecode(b *testing.B) {
	at := time.Date(2026, 11, 24, 22, 0, 0, 0, time.UTC)
	show := &restv2.ApplicationShow{Application: restv2.Application{ID: 7, Name: "web", Language: "go", HealthStatus: "green",
		Reporting: true, LastReportedAt: &at, Summary: &restv2.ApplicationSummary{ResponseTime: 12.5, Throughput: 100},
		Links: &restv2.ApplicationLinks{ApplicationInstances: []int64{1, 2}, ApplicationHosts: []int64{3}}}}
	c := sharedCodecs()["entities"]
	enc, _ := c.Encode(show)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := c.Decode(enc); !ok {
			b.Fatal("decode")
		}
	}
}

// Cursors are shared through the fleet's store (the "cursors" codec): a page walked to
// through replica A is read by replica B without a hop. A cold page asks the store for
// its own cursor only: the scan for the nearest earlier cursor reads this replica's
// cache (GetLocal), so page 50 costs 2 store lookups (its cursor and the account's
// mark), not 50.
func TestSharedCursors(t *testing.T) {
	store := statetest.NewSharedCache()
	f := appsFake(50 * PageSize)
	replica := func() *Translator { return New(f, Options{SharedCache: store}) }
	a, b := replica(), replica()
	c := Caller{KeyHash: "kh", AccountID: 1}
	store.Gets = 0
	if _, _, err := a.ListApplications(context.Background(), c, AppListRequest{Page: 50}); err != nil {
		t.Fatal(err)
	}
	if hops := f.count("AppCursor"); hops != 49 {
		t.Fatalf("A's cold page 50: %d hops, want 49", hops)
	}
	// The lookups: page 50's cursor and the mark of a large account (manyApps); none
	// for pages 2 to 49.
	if store.Gets != 2 {
		t.Fatalf("A's cold page 50 made %d store lookups, want 2", store.Gets)
	}
	for _, page := range []int{50, 17} {
		l, _, err := b.ListApplications(context.Background(), c, AppListRequest{Page: page})
		if err != nil {
			t.Fatal(err)
		}
		if hops := f.count("AppCursor"); hops != 49 {
			t.Fatalf("B's page %d: %d more hops, want none", page, hops-49)
		}
		if want := int64((page-1)*PageSize + 1); len(l.Applications) != PageSize || l.Applications[0].ID != want {
			t.Fatalf("B's page %d starts at %d, want %d", page, l.Applications[0].ID, want)
		}
	}
	// Another key reads none of them.
	other := Caller{KeyHash: "other", AccountID: 1}
	if _, _, err := b.ListApplications(context.Background(), other, AppListRequest{Page: 3}); err != nil {
		t.Fatal(err)
	}
	if hops := f.count("AppCursor"); hops != 49+2 {
		t.Fatalf("another key's page 3: %d hops, want 2", hops-49)
	}
}

// Replicas of one fleet configured otherwise (a rollout of a new configuration) share
// the store but never each other's answers: each serves the metric data its own
// metric_raw reads and the application summary its own summary_transactions reads
// (readings.go), whichever replica cached the request first.
func TestSharedCacheKeepsEachReplicasReadings(t *testing.T) {
	from := time.Date(2016, 1, 28, 18, 3, 0, 0, time.UTC)
	to := from.Add(time.Minute)
	metrics := &opFake{answer: func(op string, vars map[string]any) (any, error) {
		row := map[string]any{"facet": "HttpDispatcher", "beginTimeSeconds": from.Unix(), "endTimeSeconds": to.Unix(),
			"c": 99770.0, "s": 36328.45, "ex": 0.0, "mn": 0.0035, "mx": 85.0123, "sq": 0.0}
		return map[string]any{"actor": map[string]any{"entity": map[string]any{"guid": vars["guid"], "accountId": 1},
			"account": map[string]any{"q0": map[string]any{"results": []any{row}}}}}, nil
	}}
	firstValue := func(tr *Translator) string {
		t.Helper()
		md, err := tr.MetricData(context.Background(), Caller{KeyHash: "kh", AccountID: 1}, MetricScope{AppID: 7},
			metricdata.Request{Names: []string{"HttpDispatcher"}, From: &from, To: &to, Raw: true})
		if err != nil || len(md.Metrics) != 1 || len(md.Metrics[0].Timeslices) == 0 {
			t.Fatalf("metric data: %v, %+v", err, md)
		}
		return md.Metrics[0].Timeslices[0].Values[0].Name
	}
	show := appShowFake(map[string]any{"webResponseTimeAverage": 0.25, "webThroughput": 5.0,
		"responseTimeAverage": 2.0, "throughput": 9.0}, nil)
	throughput := func(tr *Translator) float64 {
		t.Helper()
		doc, err := tr.ShowApplication(context.Background(), Caller{KeyHash: "kh", AccountID: 1}, 7)
		if err != nil || doc.Application.Summary == nil {
			t.Fatalf("show: %v, %+v", err, doc)
		}
		return doc.Application.Summary.Throughput
	}
	for _, tt := range []struct {
		name       string
		f          *opFake
		old, new   Options
		read       func(*Translator) string
		oldV, newV string
	}{
		{"metric_raw", metrics, Options{}, Options{MetricChoices: metricdata.Choices{RawFields: true}}, firstValue, "average_response_time", "count"},
		{"summary_transactions", show, Options{}, Options{SummaryAllTransactions: true},
			func(tr *Translator) string { return fmt.Sprint(throughput(tr)) }, "5", "9"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			store := statetest.NewSharedCache()
			replica := func(o Options) *Translator {
				o.SharedCache, o.Now = store, func() time.Time { return to.Add(time.Hour) }
				return New(tt.f, o)
			}
			old, updated := replica(tt.old), replica(tt.new)
			if got := tt.read(old); got != tt.oldV {
				t.Fatalf("old replica: %s, want %s", got, tt.oldV)
			}
			if got := tt.read(updated); got != tt.newV {
				t.Errorf("updated replica after the old one: %s, want %s", got, tt.newV)
			}
			// Each replica's answer is shared with its like.
			before := tt.f.count("")
			if got := tt.read(replica(tt.new)); got != tt.newV || tt.f.count("") != before {
				t.Errorf("a replica like the updated one: %s after %d round trips, want %s from the store", got, tt.f.count("")-before, tt.newV)
			}
		})
	}
}
