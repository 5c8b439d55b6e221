package sim_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// TestDemoNRQLShowsOnlyIngestedMinutes: the demo's NRQL serves a minute of an agent
// instance only once it arrived, 15 to 105 s after the minute ended (as IngestedBy
// says), for every read alike: max(timestamp), latest(), counts and TIMESERIES
// buckets. Until 15 s past a minute's end nothing of it is in; from 105 s on all of it.
func TestDemoNRQLShowsOnlyIngestedMinutes(t *testing.T) {
	data := loadDemo(t)
	minute := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) // T: the minute T-1 ends here
	last := minute.Add(-time.Minute)
	ms := func(at time.Time) float64 { return float64(at.UnixMilli()) }
	window := fmt.Sprintf(" SINCE %d UNTIL %d", minute.Add(-10*time.Minute).UnixMilli(), minute.UnixMilli())
	lastOnly := fmt.Sprintf(" SINCE %d UNTIL %d", last.UnixMilli(), minute.UnixMilli())
	tests := []struct {
		name  string
		after time.Duration // the clock: minute + after
		query string
		check func(rows []map[string]any) error
	}{
		{name: "max(timestamp) at the minute's end", after: 0, query: "SELECT max(timestamp) FROM Metric" + window,
			check: below(ms(last), "max.timestamp")},
		{name: "max(timestamp) before the first arrival", after: 14 * time.Second, query: "SELECT max(timestamp) FROM Metric" + window,
			check: below(ms(last), "max.timestamp")},
		{name: "latest(timestamp) before the first arrival", after: 14 * time.Second, query: "SELECT latest(timestamp) FROM Metric" + window,
			check: below(ms(last), "latest.timestamp")},
		{name: "count of the minute before the first arrival", after: 14 * time.Second, query: "SELECT count(*) FROM Metric" + lastOnly,
			check: equals(0, "count")},
		{name: "TIMESERIES bucket before the first arrival", after: 14 * time.Second,
			query: "SELECT count(*) FROM Metric" + window + " TIMESERIES 1 minute",
			check: func(rows []map[string]any) error {
				for _, r := range rows {
					if fmt.Sprint(r["beginTimeSeconds"]) == fmt.Sprint(last.Unix()) {
						if fmt.Sprint(r["count"]) != "0" {
							return fmt.Errorf("bucket of the minute not ingested: %v", r)
						}
						return nil
					}
				}
				return fmt.Errorf("no bucket begins at %v: %v", last, rows)
			}},
		{name: "max(timestamp) once every instance arrived", after: 105 * time.Second, query: "SELECT max(timestamp) FROM Metric" + window,
			check: equals(ms(last), "max.timestamp")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := minute.Add(tt.after)
			runner := sim.DemoMetrics(data, func() time.Time { return now })
			rows, _, _, err := runner.RunNRQL(context.Background(), []int{acctOne}, tt.query, now)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) == 0 {
				t.Fatalf("%s: no rows", tt.query)
			}
			if err := tt.check(rows); err != nil {
				t.Errorf("%s at +%v: %v", tt.query, tt.after, err)
			}
		})
	}
}

// below checks that the first row's key is a number under limit.
func below(limit float64, key string) func([]map[string]any) error {
	return func(rows []map[string]any) error {
		if v, ok := rows[0][key].(float64); !ok || v >= limit {
			return fmt.Errorf("%s = %v, want under %.0f (a minute not ingested yet)", key, rows[0][key], limit)
		}
		return nil
	}
}

// equals checks that the first row's key is want.
func equals(want float64, key string) func([]map[string]any) error {
	return func(rows []map[string]any) error {
		if v, ok := rows[0][key].(float64); !ok || v != want {
			return fmt.Errorf("%s = %v, want %.0f", key, rows[0][key], want)
		}
		return nil
	}
}
