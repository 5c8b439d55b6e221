package e2e

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/v2bridge/v2bridge/tests/harness"
)

// Every value name of the migration page's tables is answered when asked of a name it
// belongs to (none dropped: each appears in the slice's values), and the Apdex table's
// EndUserApdex answers as EndUser/Apdex under the name asked.
func TestPublishedValueNamesAreAnswered(t *testing.T) {
	e := newEnv(t)
	window := "&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z&summarize=true"
	for _, tt := range []struct {
		name   string
		values []string
	}{
		{"EndUser", []string{"launch_count", "error_percentage", "average_sent_bytes", "average_received_bytes"}},
		{"HttpDispatcher", []string{"sessions_active", "total_visits", "visits_percentage"}},
		{"CPU/User Time", []string{"percent"}},
	} {
		q := url.Values{"names[]": {tt.name}, "values[]": tt.values}
		b, r := e.metricData(t, q.Encode()+window)
		if r.status != 200 || len(b.MetricData.Metrics) != 1 {
			t.Fatalf("%s: %d %s", tt.name, r.status, r.body)
		}
		got := b.MetricData.Metrics[0].Timeslices[0].Values
		for _, v := range tt.values {
			if _, ok := got[v]; !ok {
				t.Errorf("%s: %s dropped: %v", tt.name, v, got)
			}
		}
	}
	alias, r := e.metricData(t, "names[]=EndUserApdex&values[]=score&values[]=s"+window)
	stored, _ := e.metricData(t, "names[]=EndUser/Apdex&values[]=score&values[]=s"+window)
	if r.status != 200 || len(alias.MetricData.Metrics) != 1 || alias.MetricData.Metrics[0].Name != "EndUserApdex" {
		t.Fatalf("EndUserApdex: %d %s", r.status, r.body)
	}
	a, _ := json.Marshal(alias.MetricData.Metrics[0].Timeslices)
	s, _ := json.Marshal(stored.MetricData.Metrics[0].Timeslices)
	if string(a) != string(s) || len(alias.MetricData.Metrics[0].Timeslices[0].Values) != 2 {
		t.Errorf("EndUserApdex %s, EndUser/Apdex %s", a, s)
	}
}

// raw=true answers the values asked, unformatted (the API explorer's "Return
// unformatted raw values"): the same values as without it, not rounded to three
// significant digits.
func TestRawAnswersTheValuesAskedUnformatted(t *testing.T) {
	e := newEnv(t)
	q := "names[]=HttpDispatcher&values[]=average_call_time&values[]=call_count&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z&summarize=true"
	shown, r := e.metricData(t, q)
	raw, r2 := e.metricData(t, q+"&raw=true")
	if r.status != 200 || r2.status != 200 || len(raw.MetricData.Metrics) != 1 {
		t.Fatalf("%d %d %s", r.status, r2.status, r2.body)
	}
	got := raw.MetricData.Metrics[0].Timeslices[0].Values
	want := shown.MetricData.Metrics[0].Timeslices[0].Values
	if len(got) != 2 || got["call_count"] != want["call_count"] || harness.Figure(got["average_call_time"]) != want["average_call_time"] ||
		got["average_call_time"] == want["average_call_time"] {
		t.Errorf("raw %v, shown %v: want the same values, average_call_time unrounded", got, want)
	}
}
