package e2e

import (
	"encoding/json"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// The demo's unkind applications (configs/demo-data.yaml, relative to the clock):
// Billing (EU) reports, but its WebFrontend/QueueTime stopped two hours ago and it sent
// nothing from 11:40 to 11:45; Tab Separated (nbsp) stopped five hours ago and
// Coupons.API.staging three days ago (their one agent instance has the application's id).
const (
	reportingWithStops = "749200066"
	stoppedHoursAgo    = "882017731"
	stoppedDaysAgo     = "566998069"
)

// appData is GET .../applications/{app}/metrics/data.json?query.
func (e *env) appData(t *testing.T, app string, q url.Values) metricDataBody {
	t.Helper()
	r := e.get(t, "/v2/applications/"+app+"/metrics/data.json?"+q.Encode(), key1)
	var b metricDataBody
	if r.status != 200 || json.Unmarshal(r.body, &b) != nil {
		t.Fatalf("%s %s: %d %s", app, q.Encode(), r.status, r.body)
	}
	return b
}

// appNames is the names route's list for app.
func (e *env) appNames(t *testing.T, app string) []string {
	t.Helper()
	r := e.get(t, "/v2/applications/"+app+"/metrics.json", key1)
	var b struct{ Metrics []struct{ Name string } }
	if r.status != 200 || json.Unmarshal(r.body, &b) != nil {
		t.Fatalf("names of %s: %d %s", app, r.status, r.body)
	}
	var out []string
	for _, m := range b.Metrics {
		out = append(out, m.Name)
	}
	return out
}

// stoppedCount is the call count the generator gave a stopped application's instance in
// [from, to).
func stoppedCount(app int64, name string, apdexT float64, from, to time.Time) float64 {
	gen := timeslice.Generator{Seed: sim.DemoSeed}
	n := 0.0
	for m := from; m.Before(to); m = m.Add(time.Minute) {
		n += gen.Timeslice(app, app, name, m, apdexT).Count
	}
	return n
}

// A metric name the application reported once, with no data in the range, is found
// with zero values in every slice; only a name never reported is not found: "Metric
// values that have existed in the past, but are no longer collected, will return a
// zero value" (docs-website src/content/docs/apis/rest-api-v2/basic-functions/
// extract-metric-timeslice-data.mdx), "the WebFrontend/QueueTime metric will have a
// zero value" (.../application-examples-v2/average-response-time-examples-v2.mdx), and
// "If your app has never reported a queuing time, the metric WebFrontend/QueueTime will
// not exist" (the same page). Before, a stopped name was not found.
func TestStoppedMetricFoundWithZeros(t *testing.T) {
	e := newEnv(t)
	const queue = "WebFrontend/QueueTime"
	if names := e.appNames(t, reportingWithStops); !slices.Contains(names, queue) {
		t.Fatalf("the names route does not list %s, which stopped two hours ago: %v", queue, names)
	}
	for _, summarize := range []string{"false", "true"} {
		b := e.appData(t, reportingWithStops, url.Values{"names[]": {queue, "HttpDispatcher", "Never/Reported"},
			"values[]": {"call_count", "average_response_time"}, "summarize": {summarize}})
		md := b.MetricData
		if !slices.Equal(md.Found, []string{queue, "HttpDispatcher"}) || !slices.Equal(md.NotFound, []string{"Never/Reported"}) {
			t.Fatalf("summarize %s: found %v, not found %v", summarize, md.Found, md.NotFound)
		}
		stopped, live := md.Metrics[0].Timeslices, md.Metrics[1].Timeslices
		if want := map[string]int{"false": 30, "true": 1}[summarize]; len(stopped) != want || len(live) != want {
			t.Fatalf("summarize %s: %d and %d slices, want %d", summarize, len(stopped), len(live), want)
		}
		for i, s := range stopped {
			if s.From != live[i].From || s.To != live[i].To || s.Values["call_count"] != 0 || s.Values["average_response_time"] != 0 || len(s.Values) != 2 {
				t.Errorf("summarize %s: slice %s-%s %v, want %s-%s of zeros", summarize, s.From, s.To, s.Values, live[i].From, live[i].To)
			}
		}
	}
	// Before it stopped, it has data.
	b := e.appData(t, reportingWithStops, url.Values{"names[]": {queue}, "values[]": {"call_count"}, "summarize": {"true"},
		"from": {at(-3 * time.Hour)}, "to": {at(-2 * time.Hour)}})
	if len(b.MetricData.Metrics) != 1 || b.MetricData.Metrics[0].Timeslices[0].Values["call_count"] == 0 {
		t.Errorf("the hour before the stop: %+v", b.MetricData)
	}
}

// Applications that stopped reporting keep their data up to the stop. One that stopped
// five hours ago is still in the names route's window (a day): its names are found with
// zero values now, and with its data before the stop. One that stopped three days ago
// is outside that window: not found now, found with its data three days back.
func TestStoppedApplicationsAnswerTheirData(t *testing.T) {
	e := newEnv(t)
	if names := e.appNames(t, stoppedHoursAgo); !slices.Contains(names, "HttpDispatcher") {
		t.Fatalf("the names of an application stopped five hours ago: %v", names)
	}
	now := e.appData(t, stoppedHoursAgo, url.Values{"names[]": {"HttpDispatcher"}, "values[]": {"call_count"}})
	if !slices.Equal(now.MetricData.Found, []string{"HttpDispatcher"}) || len(now.MetricData.Metrics[0].Timeslices) != 30 {
		t.Fatalf("an application stopped five hours ago, the last 30 minutes: %+v", now.MetricData)
	}
	for _, s := range now.MetricData.Metrics[0].Timeslices {
		if s.Values["call_count"] != 0 {
			t.Errorf("slice %s: %v after the stop", s.From, s.Values)
		}
	}
	stop := clock.Add(-5 * time.Hour)
	around := e.appData(t, stoppedHoursAgo, url.Values{"names[]": {"HttpDispatcher"}, "values[]": {"call_count"},
		"from": {stop.Add(-3 * time.Minute).Format(time.RFC3339)}, "to": {stop.Add(3 * time.Minute).Format(time.RFC3339)}})
	if len(around.MetricData.Metrics) != 1 || len(around.MetricData.Metrics[0].Timeslices) != 6 {
		t.Fatalf("three minutes either side of the stop: %+v", around.MetricData)
	}
	for i, s := range around.MetricData.Metrics[0].Timeslices {
		from := stop.Add(time.Duration(i-3) * time.Minute)
		want := 0.0
		if from.Before(stop) {
			want = stoppedCount(882017731, "HttpDispatcher", 0.5, from, from.Add(time.Minute))
		}
		if s.Values["call_count"] != want || i < 3 && want == 0 {
			t.Errorf("slice %s around the stop: call_count %v, want %v", s.From, s.Values["call_count"], want)
		}
	}

	if names := e.appNames(t, stoppedDaysAgo); len(names) != 0 {
		t.Errorf("the names route's day holds names of an application stopped three days ago: %v", names)
	}
	gone := e.appData(t, stoppedDaysAgo, url.Values{"names[]": {"HttpDispatcher"}})
	if len(gone.MetricData.Found) != 0 || !slices.Equal(gone.MetricData.NotFound, []string{"HttpDispatcher"}) {
		t.Errorf("three days after the stop: %+v", gone.MetricData)
	}
	back := e.appData(t, stoppedDaysAgo, url.Values{"names[]": {"HttpDispatcher"}, "values[]": {"call_count"}, "summarize": {"true"},
		"from": {at(-73 * time.Hour)}, "to": {at(-72 * time.Hour)}})
	want := stoppedCount(566998069, "HttpDispatcher", 2.0, clock.Add(-73*time.Hour), clock.Add(-72*time.Hour))
	if len(back.MetricData.Metrics) != 1 || back.MetricData.Metrics[0].Timeslices[0].Values["call_count"] != want || want == 0 {
		t.Errorf("the hour before a stop three days ago: %+v, want call_count %v", back.MetricData, want)
	}
}

// A gap in an application's reporting answers zero slices where it has no data: the
// demo's Billing (EU) sent nothing from 11:40 to 11:45.
func TestReportingGapAnswersZeroSlices(t *testing.T) {
	e := newEnv(t)
	b := e.appData(t, reportingWithStops, url.Values{"names[]": {"HttpDispatcher"}, "values[]": {"call_count"}})
	ts := b.MetricData.Metrics[0].Timeslices
	if len(ts) != 30 {
		t.Fatalf("%d slices", len(ts))
	}
	gap := 0
	for _, s := range ts {
		in := s.From >= "2026-11-20T11:40:00+00:00" && s.From < "2026-11-20T11:45:00+00:00"
		if in {
			gap++
		}
		if (s.Values["call_count"] == 0) != in {
			t.Errorf("slice %s: call_count %v (in the gap: %v)", s.From, s.Values["call_count"], in)
		}
	}
	if gap != 5 {
		t.Errorf("%d slices in the gap, want 5", gap)
	}
}
