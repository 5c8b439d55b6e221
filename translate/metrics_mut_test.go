package translate

import (
	"slices"
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

// metricDocKey is the cached metric answer's whole per-request key work: one
// allocation, the key itself, in c.cacheKey's layout (so dropKey's prefix finds it);
// and dedupe copies nothing when the names are already distinct and non-empty, as the
// gateway passes them. Allocation counts do not depend on the machine's load.
func TestMetricDocKeyAllocations(t *testing.T) {
	c := Caller{KeyHash: "0123456789abcdef0123456789abcdef", AccountID: 1000001}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	from := now.Add(-30 * time.Minute)
	r := MetricDataRequest{Names: []string{"HttpDispatcher", "Apdex"}, From: &from, To: &now}
	w, err := resolveWindow(r, now)
	if err != nil {
		t.Fatal(err)
	}
	key := metricDocKey(c, MetricScope{AppID: 314221522}, r.Names, r, w)
	if !strings.HasPrefix(key, c.cacheKey("metric-doc", "")) || !strings.HasSuffix(key, "2,14:HttpDispatcher5:Apdex0,") {
		t.Fatalf("key %q", key)
	}
	if n := testing.AllocsPerRun(100, func() { metricDocKey(c, MetricScope{AppID: 314221522}, dedupe(r.Names), r, w) }); n != 1 {
		t.Errorf("%v allocations a key, want 1", n)
	}
	for _, tt := range []struct{ in, want []string }{
		{[]string{"a", "b"}, []string{"a", "b"}},
		{[]string{"a", "", "b", "a"}, []string{"a", "b"}},
		{[]string{""}, []string{}},
		{nil, nil},
	} {
		if got := dedupe(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("dedupe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// BenchmarkMetricDocKey is metricDocKey on a cached answer's request (one name).
func BenchmarkMetricDocKey(b *testing.B) {
	c := Caller{KeyHash: "0123456789abcdef0123456789abcdef", AccountID: 1000001}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	from := now.Add(-30 * time.Minute)
	r := MetricDataRequest{Names: []string{"HttpDispatcher"}, From: &from, To: &now}
	w, err := resolveWindow(r, now)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		metricDocKey(c, MetricScope{AppID: 314221522}, dedupe(r.Names), r, w)
	}
}
