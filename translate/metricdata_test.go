package translate

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// GET .../metrics/data's round trip (MetricData, fetchMetricData, metricdata.NewDoc):
// names chunked 50 a query into at most 4, found and not found, slice lengths in the
// per-minute values (the slice's own, or the whole window when summarized), raw values,
// integer values, the cache per caller, scope and query, and the scope's WHERE clause.
// NerdGraph is an opFake answering MetricData for application 7 of account 1: every name
// reports count 3, sum 1.5 per slice, but names starting "None" or "Gone" have no rows
// and names starting "Zero" only empty ones; MetricNames lists A, B, GoneG and ZeroY.

var metricNamesRe = regexp.MustCompile(`metricTimesliceName IN \((.*)\) FACET`)

func metricFake() *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op == "MetricNames" { // the names once reported: every name but None*
			return map[string]any{"actor": map[string]any{"entity": map[string]any{"guid": vars["guid"], "accountId": 1},
				"account": map[string]any{"names": map[string]any{"results": []any{map[string]any{"names": []any{"A", "B", "GoneG", "ZeroY"}}}}}}}, nil
		}
		if op != "MetricData" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		acct := map[string]any{}
		for i, use := range []string{"", "use1", "use2", "use3"} {
			if use != "" && vars[use] != true {
				continue
			}
			q := fmt.Sprint(vars["q"+strconv.Itoa(i)])
			m := rangeRe.FindStringSubmatch(q)
			since, _ := strconv.ParseInt(m[1], 10, 64)
			until, _ := strconv.ParseInt(m[2], 10, 64)
			step := until - since
			if ts := regexp.MustCompile(`TIMESERIES (\d+) seconds`).FindStringSubmatch(q); ts != nil {
				s, _ := strconv.ParseInt(ts[1], 10, 64)
				step = s * 1000
			}
			var rows []map[string]any
			for _, quoted := range strings.Split(metricNamesRe.FindStringSubmatch(q)[1], ", ") {
				name := strings.Trim(quoted, "'")
				if strings.HasPrefix(name, "None") || strings.HasPrefix(name, "Gone") {
					continue
				}
				// newest slice first: the translator sorts them
				for b := until - step; b >= since; b -= step {
					r := map[string]any{"facet": name, "beginTimeSeconds": b / 1000, "endTimeSeconds": (b + step) / 1000,
						"c": 3.0, "s": 1.5, "ex": 0.5, "mn": 0.1, "mx": 0.9, "sq": 0.2}
					if strings.HasPrefix(name, "Zero") {
						r["c"], r["s"], r["ex"] = 0.0, 0.0, 0.0
					}
					rows = append(rows, r)
				}
			}
			acct["q"+strconv.Itoa(i)] = map[string]any{"results": rows}
		}
		accountID := 1
		if vars["guid"] != AppGUID(1, DomainAPM, 7) && vars["guid"] != AppGUID(1, DomainMobile, 7) {
			accountID = 2
		}
		return map[string]any{"actor": map[string]any{"entity": map[string]any{"guid": vars["guid"], "accountId": accountID}, "account": acct}}, nil
	}
	return f
}

var mdNow = time.Date(2026, 11, 20, 12, 0, 30, 0, time.UTC)

func mdTranslator() (*Translator, *opFake) {
	f := metricFake()
	return New(f, Options{Now: func() time.Time { return mdNow }}), f
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

// 1, 50, 51 and 200 names take 1, 1, 2 and 4 queries; 201 names and none are refused;
// duplicates and empty names count once.
func TestMetricDataChunks(t *testing.T) {
	tests := []struct {
		names       []string
		wantQueries int
		wantErr     bool
	}{
		{[]string{"A", "A", "", "A"}, 1, false},
		{names("N", 50), 1, false},
		{names("N", 51), 2, false},
		{names("N", 101), 3, false},
		{names("N", 200), 4, false},
		{append(names("N", 200), "N0", ""), 4, false},
		{names("N", 201), 0, true},
		{[]string{"", ""}, 0, true},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(len(tt.names)), func(t *testing.T) {
			tr, f := mdTranslator()
			md, err := tr.MetricData(context.Background(), Caller{AccountID: 1}, MetricScope{AppID: 7}, metricdata.Request{Names: tt.names, Summarize: true})
			var ve *restv2.Error
			if tt.wantErr {
				if !errors.As(err, &ve) || ve.Status != 422 || f.count("") != 0 {
					t.Fatalf("err %v after %d calls", err, f.count(""))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			vars := f.calls[0].vars
			queries := 1
			for _, u := range []string{"use1", "use2", "use3"} {
				if vars[u] == true {
					queries++
				}
			}
			if queries != tt.wantQueries || len(md.Found) != len(dedupe(tt.names)) {
				t.Fatalf("%d queries (want %d), %d found", queries, tt.wantQueries, len(md.Found))
			}
			for i := 0; i < queries; i++ {
				want := min(metricdata.Chunk, len(dedupe(tt.names))-i*metricdata.Chunk)
				if got := len(strings.Split(metricNamesRe.FindStringSubmatch(fmt.Sprint(vars["q"+strconv.Itoa(i)]))[1], ", ")); got != want {
					t.Errorf("query %d: %d names, want %d", i, got, want)
				}
			}
		})
	}
}

// metricdata.NewDoc and anyData: found and not found in request order, slices sorted, each
// slice's own length in per-minute values, the whole window when summarized (an explicit
// range's slice ends at to), raw values, integer flags.
func TestMetricDataDocument(t *testing.T) {
	tr, _ := mdTranslator()
	from := time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC)
	to := time.Date(2026, 11, 20, 11, 5, 0, 0, time.UTC)
	c := Caller{AccountID: 1}
	md, err := tr.MetricData(context.Background(), c, MetricScope{AppID: 7}, metricdata.Request{
		Names: []string{"B", "NoneX", "A", "ZeroY"}, Values: []string{"calls_per_minute", "call_count", "average_response_time"}, From: &from, To: &to})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(md.Found, md.NotFound) != "[B A ZeroY] [NoneX]" || len(md.Metrics) != 3 || md.Metrics[1].Name != "A" {
		t.Fatalf("found %v not found %v", md.Found, md.NotFound)
	}
	ts := md.Metrics[0].Timeslices
	if len(ts) != 5 || !ts[0].From.Equal(from) || !ts[4].To.Equal(to) || !ts[0].To.Equal(from.Add(time.Minute)) {
		t.Fatalf("%d slices, first %v-%v", len(ts), ts[0].From, ts[0].To)
	}
	want := "[{calls_per_minute 3 false} {call_count 3 true} {average_response_time 500 false}]"
	if got := valuesString(ts[0].Values); got != want {
		t.Errorf("slice values %s, want %s", got, want)
	}
	sum, err := tr.MetricData(context.Background(), c, MetricScope{AppID: 7}, metricdata.Request{
		Names: []string{"A"}, Values: []string{"calls_per_minute"}, From: &from, To: &to, Summarize: true})
	if err != nil {
		t.Fatal(err)
	}
	s := sum.Metrics[0].Timeslices
	// one row of count 3 over the 5-minute window: 0.6 a minute
	if len(s) != 1 || !s[0].From.Equal(from) || !s[0].To.Equal(to) || valuesString(s[0].Values) != "[{calls_per_minute 0.6 false}]" || !sum.Summarize {
		t.Errorf("summary %v-%v %s", s[0].From, s[0].To, valuesString(s[0].Values))
	}
	raw, err := tr.MetricData(context.Background(), c, MetricScope{AppID: 7}, metricdata.Request{
		Names: []string{"A"}, Values: []string{"calls_per_minute"}, From: &from, To: &to, Summarize: true, Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := valuesString(raw.Metrics[0].Timeslices[0].Values); got != "[{calls_per_minute 0.6 false}]" {
		t.Errorf("raw values %s", got)
	}
}

// A name the scope reported once (the metric names route lists it) without data in the
// range is found with zero values in every slice, as REST documented: "Metric values
// that have existed in the past, but are no longer collected, will return a zero value"
// (docs-website src/content/docs/apis/rest-api-v2/basic-functions/extract-metric-timeslice-data.mdx),
// "the WebFrontend/QueueTime metric will have a zero value" (.../application-examples-v2/
// average-response-time-examples-v2.mdx, which adds: "If your app has never reported a
// queuing time, the metric WebFrontend/QueueTime will not exist"). Only a name never
// known is not found. The names are read once, only when a name has
// no data, and come from the names route's cache after: no further round trip.
func TestMetricDataStoppedNamesFoundWithZeros(t *testing.T) {
	tr, f := mdTranslator()
	c := Caller{KeyHash: "k", AccountID: 1}
	from := time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC)
	to := from.Add(3 * time.Minute)
	for _, summarize := range []bool{false, true} {
		md, err := tr.MetricData(context.Background(), c, MetricScope{AppID: 7}, metricdata.Request{
			Names: []string{"GoneG", "A", "NoneX"}, Values: []string{"call_count", "average_response_time"}, From: &from, To: &to, Summarize: summarize})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(md.Found, md.NotFound) != "[GoneG A] [NoneX]" || len(md.Metrics) != 2 || md.Metrics[0].Name != "GoneG" {
			t.Fatalf("summarize %v: found %v, not found %v", summarize, md.Found, md.NotFound)
		}
		gone, a := md.Metrics[0].Timeslices, md.Metrics[1].Timeslices
		if len(gone) != len(a) || len(gone) != map[bool]int{false: 3, true: 1}[summarize] {
			t.Fatalf("summarize %v: %d zero slices for %d with data", summarize, len(gone), len(a))
		}
		for i := range gone {
			if !gone[i].From.Equal(a[i].From) || !gone[i].To.Equal(a[i].To) || valuesString(gone[i].Values) != "[{call_count 0 true} {average_response_time 0 false}]" {
				t.Errorf("summarize %v: slice %d %v-%v %s, want %v-%v of zeros", summarize, i, gone[i].From, gone[i].To, valuesString(gone[i].Values), a[i].From, a[i].To)
			}
		}
	}
	if n := f.count("MetricNames"); n != 1 {
		t.Errorf("%d names reads for two requests, want 1 (then the names route's cache)", n)
	}
	// Every name with data: no names read at all.
	tr, f = mdTranslator()
	if _, err := tr.MetricData(context.Background(), c, MetricScope{AppID: 7}, metricdata.Request{Names: []string{"A", "B"}, From: &from, To: &to}); err != nil {
		t.Fatal(err)
	}
	if n := f.count(""); n != 1 {
		t.Errorf("%d round trips for names that all have data, want 1", n)
	}
	// The names route answered first: its cached answer serves the metric data.
	tr, f = mdTranslator()
	if _, _, err := tr.MetricNames(context.Background(), c, MetricScope{AppID: 7}, MetricNamesRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.MetricData(context.Background(), c, MetricScope{AppID: 7}, metricdata.Request{Names: []string{"GoneG"}, From: &from, To: &to}); err != nil {
		t.Fatal(err)
	}
	if n := f.count(""); n != 2 {
		t.Errorf("%d round trips for the names route and a stopped name's data, want 2", n)
	}
}

func valuesString(vs []restv2.MetricValue) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, fmt.Sprintf("{%s %v %v}", v.Name, v.Value, v.Int))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// The same request is answered from the cache; other values reuse the cached series;
// another scope or caller reads again; another account's application is a 404.
func TestMetricDataCache(t *testing.T) {
	tr, f := mdTranslator()
	a := Caller{KeyHash: "a", AccountID: 1}
	steps := []struct {
		c         Caller
		s         MetricScope
		values    []string
		wantCalls int
	}{
		{a, MetricScope{AppID: 7}, nil, 1},
		{a, MetricScope{AppID: 7}, nil, 1},
		{a, MetricScope{AppID: 7}, []string{"call_count"}, 1},
		{a, MetricScope{AppID: 7, Host: "h"}, nil, 2},
		{a, MetricScope{AppID: 7, InstanceID: 5}, nil, 3},
		{Caller{KeyHash: "b", AccountID: 1}, MetricScope{AppID: 7}, nil, 4},
	}
	var first *restv2.MetricData
	for i, st := range steps {
		md, err := tr.MetricData(context.Background(), st.c, st.s, metricdata.Request{Names: []string{"A"}, Values: st.values})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = md
		}
		if got := f.count("MetricData"); got != st.wantCalls {
			t.Fatalf("step %d: %d calls, want %d", i, got, st.wantCalls)
		}
		if i == 2 && len(md.Metrics[0].Timeslices[0].Values) != 1 {
			t.Errorf("other values answered with the cached document")
		}
	}
	if again, _ := tr.MetricData(context.Background(), a, MetricScope{AppID: 7}, metricdata.Request{Names: []string{"A"}}); again != first {
		t.Error("the same request was not answered with the cached document")
	}
	var ve *restv2.Error
	if _, err := tr.MetricData(context.Background(), a, MetricScope{AppID: 8}, metricdata.Request{Names: []string{"A"}}); !errors.As(err, &ve) || ve.Status != 404 {
		t.Errorf("another account's application: %v", err)
	}
}

// scopeNRQL: appId as a number, host and realAgentId (as a string) only when given,
// mobile applications by entity.guid.
func TestScopeNRQL(t *testing.T) {
	tests := []struct {
		s    MetricScope
		want string
	}{
		{MetricScope{AppID: 7}, "appId = 7"},
		{MetricScope{AppID: 7, Host: "h'1"}, `appId = 7 AND host = 'h\'1'`},
		{MetricScope{AppID: 7, InstanceID: 5}, "appId = 7 AND realAgentId = '5'"},
		{MetricScope{AppID: 7, Mobile: true, Host: "ignored"}, "entity.guid = '" + AppGUID(1, DomainMobile, 7) + "'"},
	}
	for _, tt := range tests {
		var n NRQL
		scopeNRQL(&n, tt.s, 1)
		if got, _ := n.Build(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}

// values[] naming only values the metric does not serve give slices without values, not
// a panic.
func TestMetricDataNoServedValue(t *testing.T) {
	tr, _ := mdTranslator()
	md, err := tr.MetricData(context.Background(), Caller{AccountID: 1}, MetricScope{AppID: 7}, metricdata.Request{Names: []string{"A"}, Values: []string{"no_such_value"}})
	if err != nil || len(md.Metrics) != 1 || len(md.Metrics[0].Timeslices) == 0 || len(md.Metrics[0].Timeslices[0].Values) != 0 {
		t.Fatalf("%+v, %v", md, err)
	}
}
