package translate

import (
	"strings"
	"testing"
	"time"
)

// metrics.go:291 and :296 ARITHMETIC_BASE (`96 + len(s.Host)`, `len(x) + 4`: the
// capacity of metricDocKey's buffer): a host name longer than 96 bytes, or many short
// values[] (which the gateway passes as given), still give a key naming them all (a
// negative capacity would panic in make).
func TestMetricDocKeyCapacityMut(t *testing.T) {
	w := metricWindow{period: time.Minute}
	host := strings.Repeat("h", 200)
	values := make([]string, 60)
	for i := range values {
		values[i] = "v"
	}
	for _, tt := range []struct {
		name  string
		s     MetricScope
		r     MetricDataRequest
		parts []string
	}{
		{"long host", MetricScope{AppID: 7, Host: host}, MetricDataRequest{}, []string{"200:" + host, "1,1:n0,"}},
		{"many short values", MetricScope{AppID: 7}, MetricDataRequest{Values: values}, []string{"60," + strings.Repeat("1:v", 60)}},
	} {
		key := metricDocKey(Caller{AccountID: 1}, tt.s, []string{"n"}, tt.r, w)
		for _, p := range tt.parts {
			if !strings.Contains(key, p) {
				t.Errorf("%s: key %q lacks %q", tt.name, key, p)
			}
		}
	}
}

// metrics.go:411 CONDITIONALS_NEGATION (`i < len(rows)` in grouped), :434
// INVERT_NEGATIVES and ARITHMETIC_BASE (`return -1` in compareRows), :446
// CONDITIONALS_NEGATION (`isName == ok` in facetIs): a chunk is grouped when each name's
// rows are one run (an empty chunk is), rows without a name order first, and a row
// continues a run of its own name, or a nameless row one of nameless rows.
func TestMetricRowOrderMut(t *testing.T) {
	row := func(facet any) sliceRaw { return sliceRaw{Facet: facet} }
	for _, tt := range []struct {
		name string
		rows []sliceRaw
		want bool
	}{
		{"empty", nil, true},
		{"one run each", []sliceRaw{row("a"), row("a"), row(nil), row("b")}, true},
		{"a name in two runs", []sliceRaw{row("a"), row("b"), row("a")}, false},
		{"nameless rows apart", []sliceRaw{row(nil), row("a"), row(nil)}, true},
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
	if name, ok, end := runAt([]sliceRaw{row("a"), row("a"), row("b")}, 0); name != "a" || !ok || end != 2 {
		t.Errorf("runAt = %q, %v, %d; want a, true, 2", name, ok, end)
	}
}
