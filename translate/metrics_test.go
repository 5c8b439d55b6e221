package translate

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/graphql/sim/nrdb"
)

func TestResolveWindow(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 30, 0, time.UTC)
	at := func(s string) *time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	tests := []struct {
		name          string
		give          MetricDataRequest
		wantPeriod    time.Duration
		wantSince     string
		wantUntil     string
		wantErrStatus int
	}{
		{name: "default 30 minutes", give: MetricDataRequest{}, wantPeriod: time.Minute,
			wantSince: "2026-11-20T11:30:00Z", wantUntil: "2026-11-20T12:00:00Z"},
		{name: "5 hours", give: MetricDataRequest{From: at("2026-11-20T07:00:00Z"), To: at("2026-11-20T12:00:00Z")}, wantPeriod: 2 * time.Minute,
			wantSince: "2026-11-20T07:00:00Z", wantUntil: "2026-11-20T12:00:00Z"},
		{name: "period only coarsens", give: MetricDataRequest{From: at("2026-11-20T11:00:00Z"), To: at("2026-11-20T12:00:00Z"), Period: 10},
			wantPeriod: time.Minute, wantSince: "2026-11-20T11:00:00Z", wantUntil: "2026-11-20T12:00:00Z"},
		{name: "coarser period aligns", give: MetricDataRequest{From: at("2026-11-20T11:07:00Z"), To: at("2026-11-20T11:58:00Z"), Period: 900},
			wantPeriod: 15 * time.Minute, wantSince: "2026-11-20T11:00:00Z", wantUntil: "2026-11-20T11:45:00Z"},
		{name: "two days", give: MetricDataRequest{From: at("2026-11-18T12:00:00Z"), To: at("2026-11-20T12:00:00Z")}, wantPeriod: 30 * time.Minute,
			wantSince: "2026-11-18T12:00:00Z", wantUntil: "2026-11-20T12:00:00Z"},
		{name: "old short range: 10 points", give: MetricDataRequest{From: at("2026-10-01T00:00:00Z"), To: at("2026-10-01T01:00:00Z")}, wantPeriod: 6 * time.Minute,
			wantSince: "2026-10-01T00:00:00Z", wantUntil: "2026-10-01T01:00:00Z"},
		{name: "70 days", give: MetricDataRequest{From: at("2026-09-11T00:00:00Z"), To: at("2026-11-20T00:00:00Z")}, wantPeriod: 72 * time.Hour,
			wantSince: "2026-09-10T00:00:00Z", wantUntil: "2026-11-18T00:00:00Z"},
		{name: "59 seconds", give: MetricDataRequest{From: at("2026-11-20T11:00:00Z"), To: at("2026-11-20T11:00:59Z")}, wantErrStatus: 422},
		{name: "reversed", give: MetricDataRequest{From: at("2026-11-20T11:10:00Z"), To: at("2026-11-20T11:00:00Z")}, wantErrStatus: 422},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := resolveWindow(tt.give, now)
			if tt.wantErrStatus != 0 {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.period != tt.wantPeriod || w.since.Format(time.RFC3339) != tt.wantSince || w.until.Format(time.RFC3339) != tt.wantUntil {
				t.Fatalf("period %v since %s until %s", w.period, w.since.Format(time.RFC3339), w.until.Format(time.RFC3339))
			}
		})
	}
}

// Hostile metric names stay single string literals: the built NRQL parses, keeps the
// application scope and lists exactly the names given.
func TestMetricNRQLQuoting(t *testing.T) {
	names := []string{`it's`, `back\slash`, `100%`, `a_b`, `a+b`, `日本/名前`, `x') OR appId IN ('1`, `\'`}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	w, err := resolveWindow(MetricDataRequest{}, now)
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

// Every row of the value tables names its source and holds NRQL that parses; a row
// departing from the published NRQL says why; every value a class lists has a row.
func TestValueTables(t *testing.T) {
	var p nrdb.Parser
	for table, rows := range map[string]map[string]ValueSpec{"metric": metricValues, "apdex": apdexValues} {
		for name, m := range rows {
			t.Run(table+"/"+name, func(t *testing.T) {
				if !strings.HasPrefix(m.Doc, docMigrate) || m.f == nil || m.Factor == 0 || (m.Factor != 1) != (m.Why != "") {
					t.Fatalf("%+v", m)
				}
				for _, e := range []string{m.NRQL, m.Scalar} {
					if e == "" {
						continue
					}
					q := "SELECT " + strings.ReplaceAll(e, TimeWindowSeconds, "60") + " FROM Metric"
					if _, err := p.Parse(q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
			})
		}
	}
	for _, c := range []metricClass{classApdex, classMemory, classCPU, classErrors, classEndUser, classEndUserRB, classQueue, classDefault} {
		for _, v := range append(slices.Clone(c.defaults), c.accepts...) {
			if _, ok := valueOf(c, "x", v); !ok {
				t.Errorf("class %v: %s has no row", c.defaults, v)
			}
		}
	}
}

// Every timeslice sum the gateway asks for keeps to unscoped rows: scope IS NULL is a
// term of the WHERE clause's top-level AND.
func TestTimesliceSumsAreUnscoped(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	w, err := resolveWindow(MetricDataRequest{}, now)
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
