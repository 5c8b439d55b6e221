package translate

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim/nrdb"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// Hostile metric names stay single string literals: the built NRQL parses, keeps the
// application scope and lists exactly the names given.
func TestMetricNRQLQuoting(t *testing.T) {
	names := []string{`it's`, `back\slash`, `100%`, `a_b`, `a+b`, `日本/名前`, `x') OR appId IN ('1`, `\'`}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	w, err := metricdata.ResolveWindow(metricdata.Request{}, now)
	if err != nil {
		t.Fatal(err)
	}
	q, err := metricDataNRQL(MetricScope{AppID: 42}, 1, names, w, false)
	if err != nil {
		t.Fatal(err)
	}
	var p nrdb.Parser
	parsed, err := p.Parse(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	and := parsed.Clauses[0].Where.Or
	if len(and) != 1 || len(and[0].And) != 3 {
		t.Fatalf("WHERE changed shape: %s", q)
	}
	if c := and[0].And[1].Compare; c.IsNull == nil || c.IsNull.Not || c.Left.Left.Left.Attr.Name() != "scope" {
		t.Fatalf("second condition is not scope IS NULL: %s", q)
	}
	in := and[0].And[2].Compare.In
	if len(in) != len(names) {
		t.Fatalf("IN has %d values, want %d", len(in), len(names))
	}
	for i, v := range in {
		if *v.String != names[i] {
			t.Errorf("IN[%d] = %q, want %q", i, *v.String, names[i])
		}
	}
	if _, err := metricDataNRQL(MetricScope{AppID: 42}, 1, []string{"tab\tname"}, w, false); err == nil {
		t.Error("control character accepted")
	}
}

// Every timeslice sum the gateway asks for keeps to unscoped rows: scope IS NULL is a
// term of the WHERE clause's top-level AND.
func TestTimesliceSumsAreUnscoped(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	w, err := metricdata.ResolveWindow(metricdata.Request{}, now)
	if err != nil {
		t.Fatal(err)
	}
	build := map[string]func() (string, error){
		"metric data": func() (string, error) {
			return metricDataNRQL(MetricScope{AppID: 1}, 1, []string{"HttpDispatcher"}, w, false)
		},
		"instance metric data": func() (string, error) {
			return metricDataNRQL(MetricScope{AppID: 1, InstanceID: 7}, 1, []string{"HttpDispatcher"}, w, true)
		},
		"mobile metric data": func() (string, error) {
			return metricDataNRQL(MetricScope{AppID: 1, Mobile: true}, 1, []string{"Mobile/Crash/All"}, w, true)
		},
		"host stats":     func() (string, error) { return hostStatsNRQL(1, "host", now) },
		"instance stats": func() (string, error) { return hostStatsNRQL(1, "realAgentId, host", now) },
		"key transaction": func() (string, error) {
			return keyTxStatsNRQL([]keyTx{{appID: 1, metricName: "WebTransaction/Controller/a"}}, now)
		},
	}
	var p nrdb.Parser
	for name, f := range build {
		t.Run(name, func(t *testing.T) {
			q, err := f()
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := p.Parse(q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			found := false
			for _, c := range parsed.Clauses {
				if c.Where == nil || len(c.Where.Or) != 1 {
					continue
				}
				for _, term := range c.Where.Or[0].And {
					if cmp := term.Compare; !term.Not && cmp != nil && cmp.IsNull != nil && !cmp.IsNull.Not &&
						cmp.Left.Left.Left.Attr != nil && cmp.Left.Left.Left.Attr.Name() == "scope" {
						found = true
					}
				}
			}
			if !found {
				t.Fatalf("no top-level scope IS NULL: %s", q)
			}
			if strings.Contains(q, "realAgentId = 7") {
				t.Fatalf("realAgentId compared as a number: %s", q)
			}
		})
	}
}

// A host name longer than 96 bytes, or many short values[] (which the gateway passes as
// given), still give a metricDocKey naming them all.
func TestMetricDocKeyCapacity(t *testing.T) {
	w := metricdata.Window{Period: time.Minute}
	host := strings.Repeat("h", 200)
	values := make([]string, 60)
	for i := range values {
		values[i] = "v"
	}
	for _, tt := range []struct {
		name  string
		s     MetricScope
		r     metricdata.Request
		parts []string
	}{
		{"long host", MetricScope{AppID: 7, Host: host}, metricdata.Request{}, []string{"200:" + host, "1,1:n0,"}},
		{"many short values", MetricScope{AppID: 7}, metricdata.Request{Values: values}, []string{"60," + strings.Repeat("1:v", 60)}},
	} {
		key := metricDocKey(Caller{AccountID: 1}, "", tt.s, []string{"n"}, tt.r, w)
		for _, p := range tt.parts {
			if !strings.Contains(key, p) {
				t.Errorf("%s: key %q lacks %q", tt.name, key, p)
			}
		}
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
	r := metricdata.Request{Names: []string{"HttpDispatcher", "Apdex"}, From: &from, To: &now}
	w, err := metricdata.ResolveWindow(r, now)
	if err != nil {
		t.Fatal(err)
	}
	reading := docReading(metricdata.Choices{}, DefaultMetricNamesWindow)
	key := metricDocKey(c, reading, MetricScope{AppID: 314221522}, r.Names, r, w)
	if !strings.HasPrefix(key, c.cacheKey("metric-doc", "")) || !strings.HasSuffix(key, "2,14:HttpDispatcher5:Apdex0,") {
		t.Fatalf("key %q", key)
	}
	if n := testing.AllocsPerRun(100, func() { metricDocKey(c, reading, MetricScope{AppID: 314221522}, dedupe(r.Names), r, w) }); n != 1 {
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
