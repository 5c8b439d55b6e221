package e2e

import (
	"encoding/json"
	"net/url"
	"testing"
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
