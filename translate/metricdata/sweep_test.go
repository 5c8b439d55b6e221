package metricdata

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A sweep's answer is split by application, each row keeping its metric name as its
// facet; an application id as a string or a number is the same application.
func TestSplitSweepGivesEachApplicationItsRows(t *testing.T) {
	rows := []Row{
		{Facet: json.RawMessage(`["7","HttpDispatcher"]`), C: 1},
		{Facet: json.RawMessage(`[8,"Apdex"]`), C: 2},
		{Facet: json.RawMessage(`[7,null]`), C: 3},
	}
	byApp, ok := SplitSweep(rows)
	if !ok || len(byApp) != 2 || len(byApp[7]) != 2 || len(byApp[8]) != 1 {
		t.Fatalf("split %v, %v", byApp, ok)
	}
	if string(byApp[7][0].Facet) != `"HttpDispatcher"` || byApp[7][0].C != 1 || string(byApp[7][1].Facet) != "null" ||
		string(byApp[8][0].Facet) != `"Apdex"` || byApp[8][0].C != 2 {
		t.Errorf("rows %+v", byApp)
	}
	if byApp, ok := SplitSweep(nil); !ok || len(byApp) != 0 {
		t.Errorf("no rows: %v, %v", byApp, ok)
	}
}

// A facet that is not [application id, name] fails the whole split: nothing of the
// answer is used.
func TestSplitSweepRefusesOtherFacets(t *testing.T) {
	good := Row{Facet: json.RawMessage(`[7,"HttpDispatcher"]`)}
	for _, facet := range []string{
		`"HttpDispatcher"`, `[7]`, `[7,"a","b"]`, `["x7","a"]`, `[0,"a"]`, `["0","a"]`, `[-7,"a"]`, `[7.5,"a"]`, `{`,
	} {
		if byApp, ok := SplitSweep([]Row{good, {Facet: json.RawMessage(facet)}}); ok || byApp != nil {
			t.Errorf("facet %s: split %v, %v", facet, byApp, ok)
		}
	}
}

// A sweep's query is an application's own, faceted by application first.
func TestSweepNRQLFacetsByApplicationThenName(t *testing.T) {
	since := time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC)
	w := Window{Since: since, Until: since.Add(30 * time.Minute), Period: time.Minute}
	scope := "appId IN (7, 8)"
	for _, summarize := range []bool{false, true} {
		q := SweepNRQL(scope, "('HttpDispatcher')", w, summarize)
		own := facetedNRQL(scope, "('HttpDispatcher')", "metricTimesliceName", w, summarize)
		if want := strings.Replace(own, "FACET metricTimesliceName", "FACET appId, metricTimesliceName", 1); q != want {
			t.Errorf("summarize %v: %s\nwant %s", summarize, q, want)
		}
	}
}
