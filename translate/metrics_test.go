package translate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/graphql/sim/nrdb"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
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
		// The default range is placed three minutes earlier (ingestLag;
		// TestWindowPlacedAsRESTRecorded).
		{name: "default 30 minutes", give: MetricDataRequest{}, wantPeriod: time.Minute,
			wantSince: "2026-11-20T11:27:00Z", wantUntil: "2026-11-20T11:57:00Z"},
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
				if !strings.HasPrefix(m.Doc, docMigrate) || m.f == nil || m.Factor == 0 || (m.Factor != 1 || m.Published != "") != (m.Why != "") {
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
	for _, c := range []metricClass{classApdex, classMemory, classCPU, classErrors, classEndUser, classEndUserRB, classDefault} {
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

// A host name longer than 96 bytes, or many short values[] (which the gateway passes as
// given), still give a metricDocKey naming them all.
func TestMetricDocKeyCapacity(t *testing.T) {
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

// A chunk is grouped when each name's rows are one run (an empty chunk is), rows without
// a name order first, and a row continues a run of its own name, or a nameless row one
// of nameless rows.
func TestMetricRowOrder(t *testing.T) {
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

// REST's recorded answers of the default range place its slices earlier than the
// envelope: three minutes for a series, two summarized.
func TestWindowPlacedAsRESTRecorded(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		source              string
		from, to            string
		summarize           bool
		wantSince, wantLast string // the first slice's from; the last slice's to (exclusive)
	}{
		{"docs-website basic-functions/extract-metric-timeslice-data.mdx", "2016-01-28T18:06:06Z", "2016-01-28T18:36:06Z", false,
			"2016-01-28T18:03:00Z", "2016-01-28T18:33:00Z"},
		{"newrelic-client-go pkg/apm/applications_test.go @ 1fd3d6ec testMetricDataJson", "2020-01-27T23:25:45Z", "2020-01-27T23:55:45Z", false,
			"2020-01-27T23:22:00Z", "2020-01-27T23:52:00Z"},
		{"docs-website application-examples-v2/list-your-app-id-metric-timeslice-data-v2.mdx (summarized)", "2014-05-20T23:41:15Z",
			"2014-05-21T00:11:15Z", true, "2014-05-20T23:39:00Z", "2014-05-21T00:09:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			from, to := at(tt.from), at(tt.to)
			w, err := resolveWindow(MetricDataRequest{Summarize: tt.summarize}, to) // the default range, asked at to
			if err != nil {
				t.Fatal(err)
			}
			if got := w.since.Format(time.RFC3339); got != tt.wantSince {
				t.Errorf("first slice from %s, recorded %s", got, tt.wantSince)
			}
			if got := w.until.Format(time.RFC3339); got != tt.wantLast {
				t.Errorf("last slice to %s, recorded %s", got, tt.wantLast)
			}
			if !w.from.Equal(from) || !w.to.Equal(to) {
				t.Errorf("envelope %s to %s, want the requested %s to %s", w.from, w.to, from, to)
			}
		})
	}
	// A range the caller gives is served where it was asked, even up to now.
	from, to := at("2026-11-20T11:00:00Z"), at("2026-11-20T12:00:00Z")
	w, err := resolveWindow(MetricDataRequest{From: &from, To: &to}, at("2026-11-20T12:00:30Z"))
	if err != nil || !w.since.Equal(from) || !w.until.Equal(to) {
		t.Errorf("an older range moved: %s to %s (%v)", w.since, w.until, err)
	}
}

// GET .../metrics. NerdGraph is opFake answering MetricNames
// (graphql/operations/metrics.graphql): the scope's entity and rows of
// uniques(metricTimesliceName).

var mnClock = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func metricNamesFake(account int, rows ...any) *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "MetricNames" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		return map[string]any{"actor": map[string]any{
			"entity":  map[string]any{"__typename": "ApmApplicationEntity", "guid": vars["guid"], "accountId": account},
			"account": map[string]any{"names": map[string]any{"results": rows}}}}, nil
	}
	return f
}

// The names of the scope over one day are read once (cached), sorted and de-duplicated,
// filtered by a case-sensitive substring, 1000 a page; null rows are none, another
// account's entity is 404, and the 10000 cap is declared.
func TestMetricNames(t *testing.T) {
	f := metricNamesFake(1, map[string]any{"names": []string{"b/2", "Apdex", "a/1", "b/2"}}, nil, map[string]any{"names": []string{"HttpDispatcher"}})
	tr := New(f, Options{Now: func() time.Time { return mnClock }})
	c := Caller{AccountID: 1}
	s := MetricScope{AppID: 7}
	names := func(l *v2.MetricNames) string {
		var out []string
		for _, m := range l.Metrics {
			out = append(out, m.Name)
		}
		return strings.Join(out, ",")
	}
	var notes Notes
	l, _, err := tr.MetricNames(WithNotes(context.Background(), &notes), c, s, MetricNamesRequest{Page: 0})
	if err != nil {
		t.Fatal(err)
	}
	if names(l) != "Apdex,HttpDispatcher,a/1,b/2" || notes.String() != "" {
		t.Errorf("names %q, notes %q", names(l), notes.String())
	}
	q := fmt.Sprint(f.calls[0].vars["query"])
	until := tr.until()
	if !strings.Contains(q, "SINCE "+strconv.FormatInt(until.Add(-24*time.Hour).UnixMilli(), 10)) || !strings.Contains(q, "uniques(metricTimesliceName, 10000)") {
		t.Errorf("query %s", q)
	}
	for _, tt := range []struct {
		r    MetricNamesRequest
		want string
	}{{MetricNamesRequest{Name: "b/"}, "b/2"}, {MetricNamesRequest{Name: "apdex"}, ""}, {MetricNamesRequest{Page: 2}, ""}} {
		l, _, err := tr.MetricNames(context.Background(), c, s, tt.r)
		if err != nil || names(l) != tt.want {
			t.Errorf("%+v: %q %v, want %q", tt.r, names(l), err, tt.want)
		}
	}
	if f.count("") != 1 {
		t.Errorf("%d reads, want 1 (cached per caller and scope)", f.count(""))
	}
	if _, _, err := tr.MetricNames(context.Background(), c, MetricScope{AppID: 7, Host: "h"}, MetricNamesRequest{}); err != nil || f.count("") != 2 {
		t.Errorf("another scope: %v, %d reads", err, f.count(""))
	}

	// 10000 names in one row: capped, declared (also when served from the cache).
	many := make([]string, metricNamesLimit)
	for i := range many {
		many[i] = "m/" + strconv.Itoa(i)
	}
	capped := New(metricNamesFake(1, map[string]any{"names": many}), Options{Now: func() time.Time { return mnClock }})
	for i := 0; i < 2; i++ {
		var notes Notes
		l, p, err := capped.MetricNames(WithNotes(context.Background(), &notes), c, s, MetricNamesRequest{})
		if err != nil || len(l.Metrics) != MetricNamesPageSize || notes.String() != string(CapMetricNames) || p.Page != 1 {
			t.Errorf("read %d: %d names, notes %q, %v", i, len(l.Metrics), notes.String(), err)
		}
	}
	under := New(metricNamesFake(1, map[string]any{"names": many[:metricNamesLimit-1]}), Options{Now: func() time.Time { return mnClock }})
	notes = Notes{}
	if _, _, err := under.MetricNames(WithNotes(context.Background(), &notes), c, s, MetricNamesRequest{}); err != nil || notes.String() != "" {
		t.Errorf("9999 names declared: %q, %v", notes.String(), err)
	}

	var ve *v2.Error
	if _, _, err := New(metricNamesFake(2), Options{}).MetricNames(context.Background(), c, s, MetricNamesRequest{}); !errors.As(err, &ve) || ve.Status != 404 {
		t.Errorf("another account's application: %v, want 404", err)
	}
	failing := &opFake{answer: func(string, map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }}
	if _, _, err := New(failing, Options{}).MetricNames(context.Background(), c, s, MetricNamesRequest{}); err == nil || errors.As(err, &ve) {
		t.Errorf("failed read: %v", err)
	}
	bad := New(metricNamesFake(1, map[string]any{"names": "not a list"}), Options{})
	if _, _, err := bad.MetricNames(context.Background(), c, s, MetricNamesRequest{}); err == nil {
		t.Error("an unreadable row answered")
	}
}
