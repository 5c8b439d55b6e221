package nrdb

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"
)

// sliceSource is a fixed in-memory source.
type sliceSource []MapRow

func (s sliceSource) Scan(_ context.Context, sc Scan, fn func(Row) bool) error {
	for _, r := range s {
		if !slices.Contains(sc.EventTypes, r.Type) || r.At.Before(sc.Begin) || !r.At.Before(sc.End) {
			continue
		}
		if !fn(r) {
			return nil
		}
	}
	return nil
}

var t0 = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func metricRow(min int, app float64, host, name string, ts Timeslice) MapRow {
	return MapRow{Type: "Metric", At: t0.Add(time.Duration(min) * time.Minute), Attrs: map[string]any{
		"appId": app, "host": host, "metricTimesliceName": name, "newrelic.timeslice.value": ts,
	}}
}

func TestExecute(t *testing.T) {
	src := sliceSource{
		metricRow(0, 1, "a", "HttpDispatcher", Timeslice{Count: 10, Total: 2, TotalExclusive: 1, Min: 0.1, Max: 0.5, SumOfSquares: 0.5}),
		metricRow(1, 1, "a", "HttpDispatcher", Timeslice{Count: 30, Total: 3, TotalExclusive: 2, Min: 0.05, Max: 0.2, SumOfSquares: 0.4}),
		metricRow(1, 1, "b", "HttpDispatcher", Timeslice{Count: 20, Total: 5, TotalExclusive: 4, Min: 0.2, Max: 0.9, SumOfSquares: 1.5}),
		metricRow(1, 1, "a", "Errors/all", Timeslice{Count: 3}),
		metricRow(2, 2, "c", "HttpDispatcher", Timeslice{Count: 7, Total: 7, Min: 1, Max: 1, SumOfSquares: 7}),
		metricRow(1, 1, "a", "Apdex", Timeslice{Count: 8, Total: 1, TotalExclusive: 1, Min: 0.5, Max: 0.5}),
	}
	since, until := t0.UnixMilli(), t0.Add(4*time.Minute).UnixMilli()
	rng := " SINCE " + itoa(since) + " UNTIL " + itoa(until)
	tests := []struct {
		name  string
		query string
		want  []map[string]any
	}{
		{
			name:  "timeslice aggregates",
			query: "SELECT count(newrelic.timeslice.value) AS 'calls', sum(newrelic.timeslice.value) AS 'total', average(newrelic.timeslice.value) * 1000 AS 'avg_ms', min(newrelic.timeslice.value) AS 'min', max(newrelic.timeslice.value) AS 'max', sum(newrelic.timeslice.value['totalExclusive']) AS 'excl', rate(count(newrelic.timeslice.value), 1 minute) AS 'cpm' FROM Metric WHERE appId = 1 AND metricTimesliceName = 'HttpDispatcher'" + rng,
			want:  []map[string]any{{"calls": 60.0, "total": 10.0, "avg_ms": 10.0 / 60 * 1000, "min": 0.05, "max": 0.9, "excl": 7.0, "cpm": 15.0}},
		},
		{
			name:  "facet with filter",
			query: "SELECT filter(count(newrelic.timeslice.value), WHERE metricTimesliceName = 'Errors/all') AS 'errors', filter(count(newrelic.timeslice.value), WHERE metricTimesliceName = 'HttpDispatcher') AS 'calls' FROM Metric FACET host" + rng,
			want: []map[string]any{
				{"facet": "a", "host": "a", "errors": 3.0, "calls": 40.0},
				{"facet": "b", "host": "b", "errors": 0.0, "calls": 20.0},
				{"facet": "c", "host": "c", "errors": 0.0, "calls": 7.0},
			},
		},
		{
			name:  "multi facet and max timestamp",
			query: "SELECT max(timestamp) AS 'lastSeen' FROM Metric WHERE metricTimesliceName IN ('HttpDispatcher') FACET appId, host LIMIT MAX" + rng,
			want: []map[string]any{
				{"facet": []any{"2", "c"}, "appId": "2", "host": "c", "lastSeen": float64(t0.Add(2 * time.Minute).UnixMilli())},
				{"facet": []any{"1", "a"}, "appId": "1", "host": "a", "lastSeen": float64(t0.Add(time.Minute).UnixMilli())},
				{"facet": []any{"1", "b"}, "appId": "1", "host": "b", "lastSeen": float64(t0.Add(time.Minute).UnixMilli())},
			},
		},
		{
			name:  "timeseries buckets",
			query: "SELECT count(newrelic.timeslice.value) AS 'c' FROM Metric WHERE appId = 1 AND metricTimesliceName = 'HttpDispatcher' TIMESERIES 2 minutes" + rng,
			want: []map[string]any{
				{"beginTimeSeconds": t0.Unix(), "endTimeSeconds": t0.Add(2 * time.Minute).Unix(), "c": 60.0},
				{"beginTimeSeconds": t0.Add(2 * time.Minute).Unix(), "endTimeSeconds": t0.Add(4 * time.Minute).Unix(), "c": 0.0},
			},
		},
		{
			name:  "apdex parts and uniques",
			query: "SELECT count(newrelic.timeslice.value) AS 's', sum(newrelic.timeslice.value) AS 't', sum(newrelic.timeslice.value['totalExclusive']) AS 'f', max(newrelic.timeslice.value) AS 'threshold', uniques(host) FROM Metric WHERE metricTimesliceName LIKE 'Apd%'" + rng,
			want:  []map[string]any{{"s": 8.0, "t": 1.0, "f": 1.0, "threshold": 0.5, "uniques.host": []any{"a"}}},
		},
		{
			name:  "no rows",
			query: "SELECT count(*), average(newrelic.timeslice.value) AS 'avg' FROM Metric WHERE appId = 99" + rng,
			want:  []map[string]any{{"count": 0.0, "avg": nil}},
		},
		{
			name:  "not and or",
			query: "SELECT count(*) FROM Metric WHERE NOT (host = 'a' OR host = 'c') AND metricTimesliceName != 'Apdex'" + rng,
			want:  []map[string]any{{"count": 1.0}},
		},
	}
	var p Parser
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := p.Parse(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Execute(context.Background(), q, []int{1}, src, t0.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != len(tt.want) {
				t.Fatalf("rows = %v", res.Rows)
			}
			for i := range tt.want {
				if !approxEqual(res.Rows[i], tt.want[i]) {
					t.Errorf("row %d = %v\nwant    %v", i, res.Rows[i], tt.want[i])
				}
			}
		})
	}
}

func approxEqual(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb := b[k]
		fa, ok1 := va.(float64)
		fb, ok2 := vb.(float64)
		if ok1 && ok2 {
			if math.Abs(fa-fb) > 1e-9*math.Max(1, math.Abs(fb)) {
				return false
			}
			continue
		}
		if !reflect.DeepEqual(va, vb) {
			return false
		}
	}
	return true
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestExecuteErrors(t *testing.T) {
	var p Parser
	for _, q := range []string{
		"SELECT count(*) FROM Metric SINCE 10 minutes ago UNTIL 20 minutes ago",
		"SELECT count(*) FROM Metric SINCE 400 days ago TIMESERIES 1 day",
		"SELECT count(*), host FROM Metric",
	} {
		parsed, err := p.Parse(q)
		if err == nil {
			_, err = Execute(context.Background(), parsed, []int{1}, sliceSource{}, t0)
		}
		if err == nil {
			t.Errorf("%s: no error", q)
		}
	}
}
