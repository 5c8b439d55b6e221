package metricdata

import "testing"

// A chunk is grouped when each name's rows are one run (an empty chunk is), rows without
// a name order first, and a row continues a run of its own name, or a nameless row one
// of nameless rows.
func TestMetricRowOrder(t *testing.T) {
	row := func(facet any) Row { return Row{Facet: facet} }
	for _, tt := range []struct {
		name string
		rows []Row
		want bool
	}{
		{"empty", nil, true},
		{"one run each", []Row{row("a"), row("a"), row(nil), row("b")}, true},
		{"a name in two runs", []Row{row("a"), row("b"), row("a")}, false},
		{"nameless rows apart", []Row{row(nil), row("a"), row(nil)}, true},
	} {
		if got := grouped(tt.rows); got != tt.want {
			t.Errorf("grouped(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct {
		a, b any
		want int
	}{{nil, "a", -1}, {"a", nil, 1}, {"a", "b", -1}, {"b", "a", 1}, {"a", "a", 0}, {nil, 3.0, 0}} {
		if got := compareRows(row(tt.a), row(tt.b)); got != tt.want {
			t.Errorf("compareRows(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	for _, tt := range []struct {
		facet any
		name  string
		ok    bool
		want  bool
	}{{"a", "a", true, true}, {"b", "a", true, false}, {nil, "a", true, false}, {nil, "", false, true}, {"a", "", false, false}} {
		r := row(tt.facet)
		if got := facetIs(&r, tt.name, tt.ok); got != tt.want {
			t.Errorf("facetIs(%v, %q, %v) = %v, want %v", tt.facet, tt.name, tt.ok, got, tt.want)
		}
	}
	if name, ok, end := runAt([]Row{row("a"), row("a"), row("b")}, 0); name != "a" || !ok || end != 2 {
		t.Errorf("runAt = %q, %v, %d; want a, true, 2", name, ok, end)
	}
}
