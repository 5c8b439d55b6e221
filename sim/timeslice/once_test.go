package timeslice

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim/nrdb"
)

// everyRow is a source that ignores Scan.Once: every minute of every series.
type everyRow struct{ *Source }

func (s everyRow) Scan(ctx context.Context, sc nrdb.Scan, fn func(nrdb.Row) bool) error {
	sc.Once, sc.Reads = false, nil
	return s.Source.Scan(ctx, sc, fn)
}

// A query that counts no rows and reads neither timestamps nor values gets one minute
// of each series, one that reads timestamps only as their min() or max() the first and
// last, and each the same answer as from every row.
func TestOnceScanAnswersAsEveryRow(t *testing.T) {
	names := DefaultNames()
	for i := range 50 {
		names = append(names, fmt.Sprintf("Scale/Metric/%05d", i))
	}
	apps := []App{
		{AccountID: 1, AppID: 1000, AppName: "a", GUID: "ga", ApdexT: 0.5, Names: names,
			Instances: []Instance{{ID: 11, Host: "h1"}, {ID: 12, Host: "h2", Since: t0.Add(-30*time.Minute - 20*time.Second)}}},
		{AccountID: 1, AppID: 2000, AppName: "b", GUID: "gb", ApdexT: 0.5, Stopped: t0.Add(-7*time.Minute - 30*time.Second),
			Instances: []Instance{{ID: 21, Host: "h3"}, {ID: 22, Host: "h3", Since: t0.Add(time.Hour)}}},
		{AccountID: 1, AppID: 3000, AppName: "c", GUID: "gc", ApdexT: 0.5,
			Gaps:      []Span{{t0.Add(-2 * time.Hour), t0.Add(-50 * time.Minute)}, {t0.Add(-3 * time.Minute), t0.Add(time.Hour)}},
			Instances: []Instance{{ID: 31, Host: "h4"}, {ID: 32, Host: "h5", Since: t0.Add(-4*time.Minute - 10*time.Second)}}},
	}
	src := NewSource(Generator{Seed: 3}, apps)
	once, every := nrdb.NewRunner(src), nrdb.NewRunner(everyRow{src})
	var rows, all int
	counting, countingAll := nrdb.NewRunner(countRows{src, &rows}), nrdb.NewRunner(countRows{everyRow{src}, &all})
	window := " SINCE " + itoa(t0.Add(-time.Hour).UnixMilli()) + " UNTIL " + itoa(t0.UnixMilli())
	for _, tt := range []struct {
		q        string
		collapse bool
	}{
		{"SELECT uniques(metricTimesliceName, 10000) AS 'names' FROM Metric WHERE appId = 1000 AND newrelic.timeslice.value IS NOT NULL", true},
		{"SELECT uniques(metricTimesliceName, 30) AS 'names' FROM Metric WHERE appId = 1000 AND scope IS NULL", true},
		{"SELECT uniques(scope), uniqueCount(metricTimesliceName), uniques(host) FROM Metric", true},
		{"SELECT min(appId), max(realAgentId) FROM Metric WHERE host = 'h3'", true},
		{"SELECT max(timestamp) FROM Metric WHERE appId = 1000", true},
		{"SELECT max(timestamp) AS 'lastSeen', uniques(host, 10000) AS 'hosts', uniques(realAgentId, 10000) AS 'agents' FROM Metric WHERE metricTimesliceName IN ('HttpDispatcher', 'OtherTransaction/all') FACET appId LIMIT 1000", true},
		{"SELECT min(timestamp), max(timestamp), uniqueCount(appId) FROM Metric FACET host LIMIT 2", true},
		{"SELECT max(timestamp) FROM Metric WHERE timestamp < " + itoa(t0.Add(-20*time.Minute).UnixMilli()), false},
		{"SELECT max(timestamp * 2) FROM Metric", false},
		{"SELECT max(timestamp), uniques(host) FROM Metric WHERE newrelic.timeslice.value IS NOT NULL AND appId IN (2000, 3000)", true},
		{"SELECT max(timestamp), uniques(host) FROM Metric WHERE newrelic.timeslice.value['count'] > 0", false},
		{"SELECT uniques(host) FROM Metric WHERE newrelic.timeslice.value['count'] > 100", false},
		{"SELECT count(*) FROM Metric WHERE appId = 2000", false},
		{"SELECT uniques(host) FROM Metric FACET appId", false},
		{"SELECT uniques(host) FROM Metric TIMESERIES 10 minutes", false},
	} {
		want, _, _, err := every.RunNRQL(context.Background(), []int{1}, tt.q+window, t0)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		got, _, _, err := once.RunNRQL(context.Background(), []int{1}, tt.q+window, t0)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", tt.q, got, want)
		}
		rows, all = 0, 0
		for _, r := range []*nrdb.Runner{counting, countingAll} {
			if _, _, _, err := r.RunNRQL(context.Background(), []int{1}, tt.q+window, t0); err != nil {
				t.Fatalf("%s: %v", tt.q, err)
			}
		}
		if collapsed := rows < all; collapsed != tt.collapse {
			t.Errorf("%s: %d rows of %d scanned, want collapsed %v", tt.q, rows, all, tt.collapse)
		}
	}
}

// countRows counts the rows a source yields.
type countRows struct {
	nrdb.Source
	n *int
}

func (s countRows) Scan(ctx context.Context, sc nrdb.Scan, fn func(nrdb.Row) bool) error {
	return s.Source.Scan(ctx, sc, func(r nrdb.Row) bool { *s.n++; return fn(r) })
}
