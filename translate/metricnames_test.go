package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

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
	names := func(l *restv2.MetricNames) string {
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

	var ve *restv2.Error
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
