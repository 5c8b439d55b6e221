package translate

import (
	"reflect"
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Every shared value round-trips through its codec without loss (what B serves from
// the store is what A cached), and values without a shared form stay local.
func TestSharedCodecsRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 24, 22, 0, 0, 0, time.UTC)
	thr := 3.5
	show := &v2.ApplicationShow{Application: v2.Application{ID: 7, Name: "web \"x\" é", Language: "go", HealthStatus: "green",
		Reporting: true, LastReportedAt: &at, Summary: &v2.ApplicationSummary{ResponseTime: 0.1 + 0.2, Throughput: 1e-9,
			ErrorRate: 1, ApdexTarget: 0.5, ApdexScore: 0.97, HostCount: 2, InstanceCount: 3},
		EndUser:  &v2.EndUserSummary{ResponseTime: 1.25, Throughput: 3, ApdexTarget: 7},
		Settings: v2.ApplicationSettings{AppApdexThreshold: 0.5, EndUserApdexThreshold: &thr, EnableRealUserMonitoring: true},
		Links:    &v2.ApplicationLinks{ApplicationInstances: []int64{1, 2}, ApplicationHosts: []int64{3}}}}
	from := time.Date(2026, 11, 24, 21, 0, 0, 0, time.FixedZone("", -5*3600))
	md := &v2.MetricData{From: from, To: from.Add(time.Hour), NotFound: []string{"x"}, Found: []string{"HttpDispatcher"},
		Metrics: []v2.MetricSeries{{Name: "HttpDispatcher", Timeslices: []v2.Timeslice{{From: from, To: from.Add(time.Minute),
			Values: []v2.MetricValue{{Name: "call_count", Value: 12, Int: true}, {Name: "average_response_time", Value: 0.123456789}}}}}},
		Summarize: true}
	codecs := sharedCodecs()
	for _, tc := range []struct {
		cache string
		v     any
	}{{"entities", show}, {"metric_data", md}, {"accounts", []int64{1000001, 1000002}}} {
		c := codecs[tc.cache]
		b, ok := c.encode(tc.v)
		if !ok {
			t.Fatalf("%s: not encoded", tc.cache)
		}
		got, ok := c.decode(b)
		if !ok {
			t.Fatalf("%s: not decoded: %s", tc.cache, b)
		}
		switch want := tc.v.(type) {
		case *v2.ApplicationShow:
			g := got.(*v2.ApplicationShow)
			if !reflect.DeepEqual(g.Application.Summary, want.Application.Summary) || !g.Application.LastReportedAt.Equal(at) ||
				v2.FormatTime(*g.Application.LastReportedAt) != v2.FormatTime(at) || !g.Shared() {
				t.Fatalf("show: %+v", g.Application)
			}
			g.Application.LastReportedAt = want.Application.LastReportedAt
			if !reflect.DeepEqual(g.Application, want.Application) {
				t.Fatalf("show:\n%+v\n%+v", g.Application, want.Application)
			}
		case *v2.MetricData:
			g := got.(*v2.MetricData)
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
	if _, ok := codecs["metric_data"].encode(map[string][]sliceRaw{}); ok {
		t.Fatal("raw series were given a shared form")
	}
	if _, ok := codecs["entities"].encode(&v2.ApplicationShow{Application: v2.Application{Summary: &v2.ApplicationSummary{ApdexScore: nan()}}}); ok {
		t.Fatal("a NaN was encoded")
	}
	for _, name := range []string{"cursors", "lists", "metric_names"} {
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
	show := &v2.ApplicationShow{Application: v2.Application{ID: 7, Name: "web", Language: "go", HealthStatus: "green",
		Reporting: true, LastReportedAt: &at, Summary: &v2.ApplicationSummary{ResponseTime: 12.5, Throughput: 100},
		Links: &v2.ApplicationLinks{ApplicationInstances: []int64{1, 2}, ApplicationHosts: []int64{3}}}}
	c := sharedCodecs()["entities"]
	enc, _ := c.encode(show)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := c.decode(enc); !ok {
			b.Fatal("decode")
		}
	}
}
