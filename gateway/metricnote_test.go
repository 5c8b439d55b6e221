package gateway

import (
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// The metric data note holds: every value computed otherwise than the published table
// (a factor or another formula) is named in it with what it is, and every value name of
// the published tables is served (none dropped without a trace).
func TestMetricDataNoteMatchesTheValueTable(t *testing.T) {
	note := noteApplicationsMetricData
	for _, v := range metricdata.ServedValues() {
		for _, name := range []string{"HttpDispatcher", "EndUser", "EndUser/RB", "Memory/Physical", "CPU/User Time", "Apdex"} {
			spec, ok := metricdata.Value(name, v)
			if ok && (spec.Factor != 1 || spec.Published != "") && !strings.Contains(note, v) {
				t.Errorf("%s departs from the published table (%s) and the note does not name it", v, spec.Why)
			}
		}
	}
	for want, says := range map[string]string{
		"total_used_mb":      "total_used_mb is the table's sum taken per minute",
		"error_percentage":   "error_percentage are fractions",
		"average_sent_bytes": "average_sent_bytes a sum",
		"raw":                "`raw=true` answers the values asked unformatted",
	} {
		if !strings.Contains(note, says) {
			t.Errorf("the note does not say %q (%s)", says, want)
		}
	}
	published := []string{"average_response_time", "calls_per_minute", "call_count", "min_response_time",
		"max_response_time", "average_exclusive_time", "average_value", "total_call_time_per_minute",
		"requests_per_minute", "standard_deviation", "average_time", "count", "used_bytes_by_host", "used_mb_by_host",
		"total_used_mb", "average_call_time", "total_value", "min_value", "max_value", "rate", "throughput",
		"as_percentage", "errors_per_minute", "error_count", "total_time", "sessions_active", "total_visits", "percent",
		"time_percentage", "utilization", "visits_percentage", "score", "s", "t", "f", "value", "threshold",
		"threshold_min", "error_percentage", "average_fe_response_time", "average_be_response_time",
		"average_network_time", "total_network_time", "network_time_percentage", "total_fe_time", "fe_time_percentage",
		"average_dom_content_load_time", "average_queue_time", "total_queue_time", "total_dom_content_time",
		"total_app_time", "average_app_time", "average_sent_bytes", "average_received_bytes", "launch_count"}
	served := metricdata.ServedValues()
	for _, v := range published {
		found := false
		for _, s := range served {
			found = found || s == v
		}
		if !found {
			t.Errorf("published value %s is not served", v)
		}
	}
}
