package e2e

import (
	"math"
	"net/url"
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
