package metricdata

import (
	"slices"
	"testing"
	"time"
)

// QueryNames reads each name as NRDB stores it (the Apdex table's EndUserApdex as
// EndUser/Apdex, getting-apdex-data-apps-or-browsers-v2.mdx) and, when error_percentage
// is served, the two metrics its published formula divides (migrate-to-nrql.mdx,
// "EndUser & Mobile metrics").
func TestQueryNamesReadStoredAndDividedMetrics(t *testing.T) {
	for _, tt := range []struct {
		names []string
		r     Request
		ch    Choices
		want  []string
	}{
		{[]string{"HttpDispatcher"}, Request{}, Choices{}, []string{"HttpDispatcher"}},
		{[]string{"EndUserApdex"}, Request{}, Choices{}, []string{"EndUser/Apdex"}},
		{[]string{"EndUserApdex", "EndUser/Apdex"}, Request{}, Choices{}, []string{"EndUser/Apdex"}},
		{[]string{"EndUser"}, Request{Values: []string{"error_percentage"}}, Choices{}, []string{"EndUser", "EndUser/errors", "Browser"}},
		{[]string{"Browser", "EndUser"}, Request{Values: []string{"call_count", "error_percentage"}}, Choices{}, []string{"Browser", "EndUser", "EndUser/errors"}},
		// raw=true serves the values asked, unless the operator chose the timeslice fields.
		{[]string{"EndUser"}, Request{Values: []string{"error_percentage"}, Raw: true}, Choices{}, []string{"EndUser", "EndUser/errors", "Browser"}},
		{[]string{"EndUser"}, Request{Values: []string{"error_percentage"}, Raw: true}, Choices{RawFields: true}, []string{"EndUser"}},
		// the first name's vocabulary decides (HttpDispatcher has none).
		{[]string{"HttpDispatcher", "EndUser"}, Request{Values: []string{"error_percentage"}}, Choices{}, []string{"HttpDispatcher", "EndUser"}},
	} {
		if got := QueryNames(tt.names, tt.r, tt.ch); !slices.Equal(got, tt.want) {
			t.Errorf("QueryNames(%v, %+v) = %v, want %v", tt.names, tt.r, got, tt.want)
		}
	}
}

// error_percentage of each slice is EndUser/errors' count over Browser's in the same
// slice (0 where a slice has no page views); EndUserApdex answers EndUser/Apdex's rows
// under the name asked, with the Apdex values.
func TestDocServesErrorPercentageAndEndUserApdex(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	at := func(min int) float64 { return float64(t0.Add(time.Duration(min) * time.Minute).Unix()) }
	row := func(min int, c float64) Row { return Row{Begin: at(min), End: at(min + 1), C: c, S: c} }
	series := map[string][]Row{
		"EndUser":        {row(0, 50), row(1, 40), row(2, 30)},
		"EndUser/errors": {row(0, 5), row(2, 6)},
		"Browser":        {row(0, 100), row(1, 80)},
		"EndUser/Apdex":  {{Begin: at(0), End: at(1), C: 8, S: 2, Ex: 0}},
	}
	w := Window{Since: t0, Until: t0.Add(3 * time.Minute), Period: time.Minute}
	d := NewDoc([]string{"EndUser"}, Request{Values: []string{"error_percentage", "call_count"}}, w, series)
	md := d.Model()
	if len(md.Metrics) != 1 || len(md.Metrics[0].Timeslices) != 3 {
		t.Fatalf("model %+v", md)
	}
	for i, want := range []float64{0.05, 0, 0} {
		vals := md.Metrics[0].Timeslices[i].Values
		if len(vals) != 2 || vals[0].Name != "error_percentage" || vals[0].Value != want {
			t.Errorf("slice %d: %+v, want error_percentage %v", i, vals, want)
		}
	}
	sum := NewDoc([]string{"EndUser"}, Request{Values: []string{"error_percentage"}, Summarize: true}, w,
		map[string][]Row{"EndUser": {row(0, 120)}, "EndUser/errors": {row(0, 11)}, "Browser": {row(0, 180)}}).Model()
	if v := sum.Metrics[0].Timeslices[0].Values; len(v) != 1 || v[0].Value != 0.0611 {
		t.Errorf("summarized error_percentage %+v, want 11/180 to three digits", v)
	}

	apdex := NewDoc([]string{"EndUserApdex"}, Request{Values: []string{"score", "s"}}, w, series).Model()
	if !slices.Equal(apdex.Found, []string{"EndUserApdex"}) || len(apdex.Metrics) != 1 || apdex.Metrics[0].Name != "EndUserApdex" {
		t.Fatalf("EndUserApdex: found %v, not found %v", apdex.Found, apdex.NotFound)
	}
	if v := apdex.Metrics[0].Timeslices[0].Values; len(v) != 2 || v[0].Name != "score" || v[0].Value != 0.9 || v[1].Value != 8 {
		t.Errorf("EndUserApdex values %+v, want score 0.9 (9/10), s 8", v)
	}
}
