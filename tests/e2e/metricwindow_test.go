package e2e

import (
	"encoding/json"
	"math"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// at is the e2e clock plus d, in RFC 3339.
func at(d time.Duration) string { return clock.Add(d).Format(time.RFC3339) }

// sliceTimes are a metric's slices as from-to pairs.
func sliceTimes(b metricDataBody, metric int) [][2]string {
	var out [][2]string
	for _, s := range b.MetricData.Metrics[metric].Timeslices {
		out = append(out, [2]string{s.From, s.To})
	}
	return out
}

// Slices stay inside the range and before the newest ingested minute, and count only
// the data inside them: a period longer than the range gives one slice covering it
// (before: one slice 11:00-12:00 counting the whole hour); a range up to now ends at
// the newest ingested minute, three minutes back (before: a 60-minute slice whose
// per-minute values divided by minutes not yet there); from without to leaves out
// the minutes still arriving (before: slices to 12:00, the newest partial or empty).
// The simulator holds only what NRDB would at the clock (12:00): minute 11:58 partial,
// 11:59 not yet in.
func TestMetricSlicesInsideTheRange(t *testing.T) {
	e := newEnv(t)
	const ingested = -3 * time.Minute // the newest ingested minute ends at 11:57
	tests := []struct {
		name       string
		query      url.Values
		wantSlices [][2]string
		sums       [][2]time.Duration // the raw sums each slice must hold
	}{
		{"period past the range: one slice covering it",
			url.Values{"from": {at(-50 * time.Minute)}, "to": {at(-20 * time.Minute)}, "period": {"3600"}},
			[][2]string{{"2026-11-20T11:10:00+00:00", "2026-11-20T11:40:00+00:00"}}, [][2]time.Duration{{-50 * time.Minute, -20 * time.Minute}}},
		{"from now-12min with period 3600: one slice up to the newest ingested minute",
			url.Values{"from": {at(-12 * time.Minute)}, "period": {"3600"}},
			[][2]string{{"2026-11-20T11:48:00+00:00", "2026-11-20T11:57:00+00:00"}}, [][2]time.Duration{{-12 * time.Minute, ingested}}},
		{"from without to: no minute still arriving",
			url.Values{"from": {at(-6 * time.Minute)}},
			[][2]string{{"2026-11-20T11:54:00+00:00", "2026-11-20T11:55:00+00:00"}, {"2026-11-20T11:55:00+00:00", "2026-11-20T11:56:00+00:00"},
				{"2026-11-20T11:56:00+00:00", "2026-11-20T11:57:00+00:00"}},
			[][2]time.Duration{{-6 * time.Minute, -5 * time.Minute}, {-5 * time.Minute, -4 * time.Minute}, {-4 * time.Minute, ingested}}},
		{"a range up to now: coarser slices end at the newest ingested minute",
			url.Values{"from": {at(-40 * time.Minute)}, "to": {at(0)}, "period": {"900"}},
			[][2]string{{"2026-11-20T11:27:00+00:00", "2026-11-20T11:42:00+00:00"}, {"2026-11-20T11:42:00+00:00", "2026-11-20T11:57:00+00:00"}},
			[][2]time.Duration{{-33 * time.Minute, -18 * time.Minute}, {-18 * time.Minute, ingested}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.query
			q["names[]"] = []string{"HttpDispatcher"}
			q["values[]"] = []string{"call_count", "calls_per_minute"}
			b, r := e.metricData(t, q.Encode())
			if r.status != 200 || len(b.MetricData.Metrics) != 1 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			got := sliceTimes(b, 0)
			if len(got) != len(tt.wantSlices) {
				t.Fatalf("slices %v, want %v", got, tt.wantSlices)
			}
			for i, s := range b.MetricData.Metrics[0].Timeslices {
				if got[i] != tt.wantSlices[i] {
					t.Errorf("slice %d %v, want %v", i, got[i], tt.wantSlices[i])
				}
				from, to := clock.Add(tt.sums[i][0]), clock.Add(tt.sums[i][1])
				raw := rawSums(t, "HttpDispatcher", from, to)
				if s.Values["call_count"] != raw.Count {
					t.Errorf("slice %d call_count %v, want %v (the data of %s to %s)", i, s.Values["call_count"], raw.Count, from, to)
				}
				perMinute := raw.Count / to.Sub(from).Minutes()
				if x := s.Values["calls_per_minute"]; math.Abs(x-perMinute) > 0.005*perMinute {
					t.Errorf("slice %d calls_per_minute %v, want %v", i, x, perMinute)
				}
			}
		})
	}
}

// A summarized explicit range ends its slice at to and keeps the range's whole hours,
// as REST's recordings did: docs-website src/content/docs/apis/rest-api-v2/
// application-examples-v2/application-error-rate-example-v2.mdx (from 00:00 to 23:35,
// one slice 00:35 to 23:35) and intuit/thrive test/test_newrelic_manager.py (24 h 31
// min, one 24 h slice ending at to). Before, the slice ended five minutes before to,
// shown a second earlier (11:29:59).
func TestSummarizedRangeEndsAtTo(t *testing.T) {
	e := newEnv(t)
	from, to := clock.Add(-24*time.Hour), clock.Add(-25*time.Minute) // 23 h 35 min, up to 11:35
	b, r := e.metricData(t, url.Values{"names[]": {"HttpDispatcher"}, "values[]": {"call_count"}, "summarize": {"true"},
		"from": {from.Format(time.RFC3339)}, "to": {to.Format(time.RFC3339)}}.Encode())
	if r.status != 200 || len(b.MetricData.Metrics) != 1 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	want := [2]string{"2026-11-19T12:35:00+00:00", "2026-11-20T11:35:00+00:00"}
	if got := sliceTimes(b, 0); len(got) != 1 || got[0] != want {
		t.Fatalf("slices %v, want %v", got, want)
	}
	if got, raw := b.MetricData.Metrics[0].Timeslices[0].Values["call_count"], rawSums(t, "HttpDispatcher", from.Add(35*time.Minute), to); got != raw.Count {
		t.Errorf("call_count %v, want %v (the slice's 23 hours)", got, raw.Count)
	}
}

// rangeShape is one shape of range asked of a metric data route and the slices REST
// answers it with at the harness clock (12:00:00).
type rangeShape struct {
	name     string
	query    url.Values
	envelope [2]string // metric_data's from and to
	first    string    // the first slice's from
	step     time.Duration
	count    int
	lastTo   string // the last slice's to (a summarized slice ends here; a series' last slice must too)
}

// The slices of every shape of range: their count and each one's from and to, besides
// the envelope. Sources: the default range is the last 30 minutes and from alone ends
// at now (docs-website src/content/docs/apis/rest-api-v2/basic-functions/
// specify-time-range-v2.mdx; to alone is not documented: it keeps the default span,
// the 30 minutes before to); one-minute
// slices up to three hours, two-minute slices up to six, and period only coarsens
// (.../basic-functions/extract-metric-timeslice-data.mdx); summarize gives one slice over
// the range (.../basic-functions/calculate-average-metric-values-summarize.mdx,
// .../application-examples-v2/average-response-time-examples-v2.mdx); the default range's
// slices sit three minutes back, two and ending a second early when summarized, and a
// range up to now ends at that newest ingested minute (the recordings cited at
// translate/metricdata IngestLag: at 12:00 the newest is 11:57, 11:58 summarized). Not
// documented, so the gateway's rules: a given range's slices run back from its end in
// whole periods; the default range's start on the period's boundaries.
func TestMetricSlicesForEveryRangeShape(t *testing.T) {
	e := newEnv(t)
	q := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	const day = "2026-11-20T"
	ts := func(hm string) string { return day + hm + "+00:00" }
	shapes := []rangeShape{
		{"default: the last 30 minutes, three minutes back", q(),
			[2]string{ts("11:30:00"), ts("12:00:00")}, ts("11:27:00"), time.Minute, 30, ts("11:57:00")},
		{"default summarized: one slice two minutes back, ending a second early", q("summarize", "true"),
			[2]string{ts("11:30:00"), ts("12:00:00")}, ts("11:28:00"), 0, 1, ts("11:57:59")},
		{"default summarized with a period: the same one slice", q("summarize", "true", "period", "600"),
			[2]string{ts("11:30:00"), ts("12:00:00")}, ts("11:28:00"), 0, 1, ts("11:57:59")},
		{"default with a coarser period", q("period", "600"),
			[2]string{ts("11:30:00"), ts("12:00:00")}, ts("11:20:00"), 10 * time.Minute, 3, ts("11:50:00")},
		{"both ends, all ingested: one-minute slices", q("from", ts("11:00:00"), "to", ts("11:30:00")),
			[2]string{ts("11:00:00"), ts("11:30:00")}, ts("11:00:00"), time.Minute, 30, ts("11:30:00")},
		{"both ends over three hours: two-minute slices", q("from", ts("06:00:00"), "to", ts("11:00:00")),
			[2]string{ts("06:00:00"), ts("11:00:00")}, ts("06:00:00"), 2 * time.Minute, 150, ts("11:00:00")},
		{"both ends with a coarser period", q("from", ts("11:00:00"), "to", ts("11:30:00"), "period", "600"),
			[2]string{ts("11:00:00"), ts("11:30:00")}, ts("11:00:00"), 10 * time.Minute, 3, ts("11:30:00")},
		{"both ends summarized: one slice over the range", q("from", ts("11:00:00"), "to", ts("11:30:00"), "summarize", "true"),
			[2]string{ts("11:00:00"), ts("11:30:00")}, ts("11:00:00"), 0, 1, ts("11:30:00")},
		{"both ends summarized with a period: still one slice", q("from", ts("11:00:00"), "to", ts("11:30:00"), "period", "600", "summarize", "true"),
			[2]string{ts("11:00:00"), ts("11:30:00")}, ts("11:00:00"), 0, 1, ts("11:30:00")},
		{"from only: up to now, ending at the newest ingested minute", q("from", ts("11:40:00")),
			[2]string{ts("11:40:00"), ts("12:00:00")}, ts("11:40:00"), time.Minute, 17, ts("11:57:00")},
		{"from only with a period: whole periods back from the newest ingested minute", q("from", ts("11:00:00"), "period", "600"),
			[2]string{ts("11:00:00"), ts("12:00:00")}, ts("11:07:00"), 10 * time.Minute, 5, ts("11:57:00")},
		{"from only summarized: one slice to the newest ingested minute", q("from", ts("11:00:00"), "summarize", "true"),
			[2]string{ts("11:00:00"), ts("12:00:00")}, ts("11:00:00"), 0, 1, ts("11:58:00")},
		{"from only summarized with a period: the same one slice", q("from", ts("11:00:00"), "period", "600", "summarize", "true"),
			[2]string{ts("11:00:00"), ts("12:00:00")}, ts("11:00:00"), 0, 1, ts("11:58:00")},
		{"to only: the 30 minutes before it", q("to", ts("11:30:00")),
			[2]string{ts("11:00:00"), ts("11:30:00")}, ts("11:00:00"), time.Minute, 30, ts("11:30:00")},
		{"to only at now: the 30 minutes before it, up to the newest ingested minute", q("to", ts("12:00:00")),
			[2]string{ts("11:30:00"), ts("12:00:00")}, ts("11:30:00"), time.Minute, 27, ts("11:57:00")},
		{"to only with a period", q("to", ts("11:30:00"), "period", "600"),
			[2]string{ts("11:00:00"), ts("11:30:00")}, ts("11:00:00"), 10 * time.Minute, 3, ts("11:30:00")},
		{"to only summarized: one slice over the 30 minutes before it", q("to", ts("11:30:00"), "summarize", "true"),
			[2]string{ts("11:00:00"), ts("11:30:00")}, ts("11:00:00"), 0, 1, ts("11:30:00")},
	}
	inst := hostsOf(t, e, "/v2/applications/"+metricApp+"/instances.json").Hosts[0].ID
	routes := []struct{ path, name string }{
		{"/v2/applications/" + metricApp + "/metrics/data.json", "HttpDispatcher"},
		{"/v2/applications/" + metricApp + "/instances/" + strconv.FormatInt(inst, 10) + "/metrics/data.json", "HttpDispatcher"},
		{"/v2/mobile_applications/601483762/metrics/data.json", "Mobile/Crash/All"},
	}
	for _, rt := range routes {
		for _, s := range shapes {
			t.Run(rt.path+"/"+s.name, func(t *testing.T) {
				t.Parallel()
				query := url.Values{"names[]": {rt.name}, "values[]": {"call_count"}}
				for k, v := range s.query {
					query[k] = v
				}
				r := e.get(t, rt.path+"?"+query.Encode(), key1)
				var b metricDataBody
				if r.status != 200 || json.Unmarshal(r.body, &b) != nil || len(b.MetricData.Metrics) != 1 {
					t.Fatalf("%d %s", r.status, r.body)
				}
				if got := [2]string{b.MetricData.From, b.MetricData.To}; got != s.envelope {
					t.Errorf("envelope %v, want %v", got, s.envelope)
				}
				got := sliceTimes(b, 0)
				if len(got) != s.count {
					t.Fatalf("%d slices %v, want %d from %s to %s", len(got), got, s.count, s.first, s.lastTo)
				}
				want := wantSlices(t, s)
				for i := range got {
					if got[i] != want[i] {
						t.Errorf("slice %d %v, want %v", i, got[i], want[i])
					}
				}
			})
		}
	}
}

// wantSlices are shape s's slices: count contiguous steps from first, the last ending at
// lastTo (one slice from first to lastTo when step is 0).
func wantSlices(t *testing.T, s rangeShape) [][2]string {
	t.Helper()
	begin, err := time.Parse(time.RFC3339, s.first)
	if err != nil {
		t.Fatal(err)
	}
	if s.step == 0 {
		return [][2]string{{s.first, s.lastTo}}
	}
	const layout = "2006-01-02T15:04:05-07:00"
	out := make([][2]string, s.count)
	for i := range out {
		b := begin.Add(time.Duration(i) * s.step)
		out[i] = [2]string{b.Format(layout), b.Add(s.step).Format(layout)}
	}
	if out[len(out)-1][1] != s.lastTo {
		t.Fatalf("the table's slices end at %s, not at its lastTo %s", out[len(out)-1][1], s.lastTo)
	}
	return out
}
