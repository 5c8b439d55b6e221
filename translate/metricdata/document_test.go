package metricdata

import (
	"encoding/json"
	"testing"
)

// A chunk is grouped (runsOf, which counts its runs too) when each name's rows are one
// run (an empty chunk is), rows without a name order first, and a row continues a run
// of its own name, or a nameless row one of nameless rows.
func TestMetricRowOrder(t *testing.T) {
	row := func(facet string) Row { return Row{Facet: json.RawMessage(facet)} }
	for _, tt := range []struct {
		name string
		rows []Row
		runs int
		want bool
	}{
		{"empty", nil, 0, true},
		{"one run each", []Row{row(`"a"`), row(`"a"`), row(`null`), row(`"b"`)}, 3, true},
		{"a name in two runs", []Row{row(`"a"`), row(`"b"`), row(`"a"`)}, 3, false},
		{"a name written two ways in two runs", []Row{row(`"a"`), row(`"b"`), row(`"\u0061"`), row(`"c"`)}, 4, false},
		{"nameless rows apart", []Row{row(`null`), row(`"a"`), row(``)}, 3, true},
	} {
		if runs, got := runsOf(tt.rows); got != tt.want || runs != tt.runs {
			t.Errorf("runsOf(%s) = %d, %v; want %d, %v", tt.name, runs, got, tt.runs, tt.want)
		}
	}
	for _, tt := range []struct {
		a, b string
		want int
	}{{`null`, `"a"`, -1}, {`"a"`, ``, 1}, {`"a"`, `"b"`, -1}, {`"b"`, `"a"`, 1}, {`"a"`, `"a"`, 0},
		{`"\u0061"`, `"a"`, 0}, {`"a!"`, `"a"`, 1}, {`null`, `3.0`, 0}, {`"a"`, `["a"]`, 1}} {
		if got := compareRows(row(tt.a), row(tt.b)); got != tt.want {
			t.Errorf("compareRows(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	for _, tt := range []struct {
		facet, before string
		want          bool
	}{{`"a"`, `"a"`, true}, {`"b"`, `"a"`, false}, {`null`, `"a"`, false}, {`null`, ``, true},
		{`7`, `null`, true}, {`"a"`, `null`, false}, {`"\u0061"`, `"a"`, true}, {`"a\"b"`, `"a\u0022b"`, true}} {
		r := row(tt.facet)
		name, ok := metricName(json.RawMessage(tt.before))
		if got := facetIs(&r, json.RawMessage(tt.before), name, ok); got != tt.want {
			t.Errorf("facetIs(%s after %s) = %v, want %v", tt.facet, tt.before, got, tt.want)
		}
	}
	for _, tt := range []struct {
		facet, name string
		ok          bool
	}{{`"HttpDispatcher"`, "HttpDispatcher", true}, {`"Web\/a\u00e9"`, "Web/aé", true}, {`""`, "", true},
		{`"` + "\xff" + `"`, "\ufffd", true}, {`null`, "", false}, {``, "", false}, {`12`, "", false}, {`["a"]`, "", false}} {
		name, ok := metricName(json.RawMessage(tt.facet))
		if string(name) != tt.name || ok != tt.ok {
			t.Errorf("metricName(%s) = %q, %v; want %q, %v", tt.facet, name, ok, tt.name, tt.ok)
		}
	}
	if name, ok, end := runAt([]Row{row(`"a"`), row(`"\u0061"`), row(`"b"`)}, 0); string(name) != "a" || !ok || end != 2 {
		t.Errorf("runAt = %q, %v, %d; want a, true, 2", name, ok, end)
	}
}
