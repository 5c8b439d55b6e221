package metricdata

import (
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// raw=true answers the values asked as computed (unformatted: not rounded to three
// significant digits), or the timeslice's own fields when the operator chose
// metric_raw: fields; queue_time: per_view computes EndUser/RB average_queue_time per
// page view instead of the migration table's mean over rows.
func TestMetricChoices(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	w := Window{Since: t0, Until: t0.Add(time.Minute), Period: time.Minute}
	// Two rows summed into one slice: 3 views over 2 rows, queue 0.0123456 s in all.
	row := Row{Begin: float64(t0.Unix()), End: float64(t0.Add(time.Minute).Unix()), C: 3, S: 1.23456, Ex: 0.0123456, Exm: 0.0061728}
	series := map[string][]Row{"HttpDispatcher": {row}, "EndUser/RB": {row}}
	values := func(names []string, r Request, ch Choices) []restv2.MetricValue {
		t.Helper()
		md := NewKnownDocWith(names, r, w, series, nil, ch).Model()
		if len(md.Metrics) != 1 {
			t.Fatalf("%+v", md)
		}
		return md.Metrics[0].Timeslices[0].Values
	}
	asked := Request{Values: []string{"average_call_time"}}
	if v := values([]string{"HttpDispatcher"}, asked, Choices{}); len(v) != 1 || v[0].Value != 412 {
		t.Errorf("shown: %+v, want 412 (three significant digits)", v)
	}
	asked.Raw = true
	total, count := row.S, row.C
	if v := values([]string{"HttpDispatcher"}, asked, Choices{}); len(v) != 1 || v[0].Name != "average_call_time" || v[0].Value != total/count*1000 {
		t.Errorf("raw: %+v, want average_call_time unrounded", v)
	}
	v := values([]string{"HttpDispatcher"}, asked, Choices{RawFields: true})
	if len(v) != len(rawValues) || v[0].Name != "count" || v[1].Name != "total_call_time" || v[1].Value != 1.23456 {
		t.Errorf("raw fields: %+v", v)
	}
	queue := Request{Values: []string{"average_queue_time"}}
	if v := values([]string{"EndUser/RB"}, queue, Choices{}); len(v) != 1 || v[0].Value != 6.17 {
		t.Errorf("published queue time %+v, want average(totalExclusive) × 1000 = 6.17", v)
	}
	if v := values([]string{"EndUser/RB"}, queue, Choices{QueuePerView: true}); len(v) != 1 || v[0].Value != 4.12 {
		t.Errorf("per view queue time %+v, want 12.3456 ms over 3 views = 4.12", v)
	}
}
