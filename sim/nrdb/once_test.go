package nrdb

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// A query that counts no rows may have its repeated rows given once; the attributes it
// reads exclude those it only tests with IS [NOT] NULL.
func TestOnceAndReads(t *testing.T) {
	var ps Parser
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q     string
		once  bool
		reads []string
	}{
		{"SELECT uniques(metricTimesliceName, 10000) FROM Metric WHERE appId = 1 AND newrelic.timeslice.value IS NOT NULL", true, []string{"appId", "metricTimesliceName"}},
		{"SELECT uniqueCount(host), min(appId), max(x) FROM Metric WHERE scope IS NULL OR (y = 'a' AND z IN ('b'))", true, []string{"appId", "host", "x", "y", "z"}},
		{"SELECT filter(uniques(host), WHERE a LIKE 'b%') FROM Metric", true, []string{"a", "host"}},
		{"SELECT uniques(host) FROM Metric WHERE v['count'] IS NOT NULL", true, []string{"host", "v"}},
		{"SELECT count(*) FROM Metric", false, nil},
		{"SELECT uniques(host), sum(x) FROM Metric", false, nil},
		{"SELECT latest(host) FROM Metric", false, nil},
		{"SELECT rate(max(x), 1 minute) FROM Metric", false, nil},
		{"SELECT uniques(host) FROM Metric FACET appId", false, nil},
		{"SELECT uniques(host) FROM Metric TIMESERIES", false, nil},
		{"SELECT host FROM Metric", false, nil},
	} {
		q, err := ps.Parse(tt.q)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		p, err := newPlan(q, now)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		reads, _, once := p.once()
		var got []string
		for _, a := range []string{"a", "appId", "host", "metricTimesliceName", "newrelic.timeslice.value", "scope", "v", "x", "y", "z"} {
			if reads[a] {
				got = append(got, a)
			}
		}
		if once != tt.once || !reflect.DeepEqual(got, tt.reads) {
			t.Errorf("%s: once %v reads %v, want %v %v", tt.q, once, got, tt.once, tt.reads)
		}
	}
}

// A query reading timestamp only as the whole argument of min() or max() may have a
// series' earliest and latest rows alone; FACET keeps that when facets are ranked by
// the first item's value, not by how many rows they have.
func TestOnceEndsAndFacets(t *testing.T) {
	var ps Parser
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q          string
		once, ends bool
	}{
		{"SELECT max(timestamp), uniques(host, 10000) FROM Metric FACET appId LIMIT 1000", true, true},
		{"SELECT min(timestamp) FROM Metric", true, true},
		{"SELECT max(appId), uniques(host) FROM Metric FACET host", true, false},
		{"SELECT uniques(host), max(timestamp) FROM Metric FACET appId", false, false},
		{"SELECT max(timestamp) FROM Metric WHERE timestamp > 5", true, false},
		{"SELECT max(timestamp), uniques(timestamp) FROM Metric", true, false},
		{"SELECT max(timestamp + 1) FROM Metric", true, false},
		{"SELECT filter(max(timestamp), WHERE host = 'a') FROM Metric", true, false},
		{"SELECT max(timestamp) FROM Metric FACET timestamp", true, false},
		{"SELECT max(timestamp) FROM Metric TIMESERIES", false, false},
		{"SELECT count(*) FROM Metric FACET appId", false, false},
	} {
		q, err := ps.Parse(tt.q)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		p, err := newPlan(q, now)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		reads, ends, once := p.once()
		if once != tt.once || ends != tt.ends {
			t.Errorf("%s: once %v ends %v, want %v %v", tt.q, once, ends, tt.once, tt.ends)
		}
		if once && !reads["timestamp"] && strings.Contains(tt.q, "timestamp") {
			t.Errorf("%s: reads %v leave timestamp out", tt.q, reads)
		}
	}
}
