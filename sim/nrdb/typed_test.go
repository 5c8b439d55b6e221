package nrdb

import (
	"context"
	"testing"
	"time"
)

// Typed comparison, scope IS NULL and the timeslice aggregates the gateway's published
// formulas need.
func TestTimesliceSemantics(t *testing.T) {
	scoped := func(min int, scope string, ts Timeslice) MapRow {
		r := metricRow(min, 1, "a", "Datastore/statement/MySQL/users/select", ts)
		r.Attrs["scope"] = scope
		r.Attrs["realAgentId"] = "77"
		return r
	}
	unscoped := func(min int, ts Timeslice) MapRow {
		r := metricRow(min, 1, "a", "Datastore/statement/MySQL/users/select", ts)
		r.Attrs["realAgentId"] = "77"
		return r
	}
	src := sliceSource{
		unscoped(0, Timeslice{Count: 10, Total: 2, TotalExclusive: 1, Min: 0.1, Max: 0.5, SumOfSquares: 0.5}),
		unscoped(1, Timeslice{Count: 30, Total: 3, TotalExclusive: 3, Min: 0.05, Max: 0.2, SumOfSquares: 0.4}),
		scoped(0, "Controller/users/show", Timeslice{Count: 4, Total: 1, TotalExclusive: 1, Min: 0.2, Max: 0.3, SumOfSquares: 0.3}),
		scoped(1, "Controller/orders/show", Timeslice{Count: 6, Total: 1, TotalExclusive: 0.5, Min: 0.1, Max: 0.2, SumOfSquares: 0.2}),
		{Type: "Metric", At: t0, Attrs: map[string]any{"appId": 1.0, "metricTimesliceName": "Apdex",
			"newrelic.timeslice.value": Timeslice{Count: 6, Total: 2, TotalExclusive: 2, Min: 0.5, Max: 0.5}}},
	}
	rng := " SINCE " + itoa(t0.UnixMilli()) + " UNTIL " + itoa(t0.Add(2*time.Minute).UnixMilli())
	const from = " FROM Metric WHERE metricTimesliceName = 'Datastore/statement/MySQL/users/select'"
	tests := []struct {
		name, query string
		want        any
	}{
		{"count of every row", "SELECT count(newrelic.timeslice.value) AS 'v'" + from, 50.0},
		{"count of unscoped rows", "SELECT count(newrelic.timeslice.value) AS 'v'" + from + " AND scope IS NULL", 40.0},
		{"count of one scope", "SELECT count(newrelic.timeslice.value) AS 'v'" + from + " AND scope = 'Controller/users/show'", 4.0},
		{"average is sum over count", "SELECT average(newrelic.timeslice.value) AS 'v'" + from + " AND scope IS NULL", 5.0 / 40},
		{"mean of per-row ratios", "SELECT average(newrelic.timeslice.value['totalExclusive'] / newrelic.timeslice.value['count']) AS 'v'" + from + " AND scope IS NULL", (1.0/10 + 3.0/30) / 2},
		{"mean of a field over rows", "SELECT average(newrelic.timeslice.value['totalExclusive']) AS 'v'" + from + " AND scope IS NULL", 2.0},
		{"string attribute, string literal", "SELECT count(newrelic.timeslice.value) AS 'v'" + from + " AND scope IS NULL AND realAgentId = '77'", 40.0},
		{"string attribute, number literal: no coercion", "SELECT count(newrelic.timeslice.value) AS 'v'" + from + " AND realAgentId = 77", 0.0},
		{"number attribute, string literal: no coercion", "SELECT count(newrelic.timeslice.value) AS 'v'" + from + " AND appId = '1'", 0.0},
		{"number attribute in a string list: no coercion", "SELECT count(newrelic.timeslice.value) AS 'v'" + from + " AND appId IN ('1')", 0.0},
		{"number attribute, number literal", "SELECT count(newrelic.timeslice.value) AS 'v'" + from + " AND appId = 1 AND scope IS NULL", 40.0},
		{"apdex score", "SELECT apdex(newrelic.timeslice.value) AS 'v' FROM Metric WHERE metricTimesliceName = 'Apdex'", (6 + 2.0/2) / 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := (&Parser{}).Parse(tt.query + rng)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Execute(context.Background(), q, []int{1}, src, t0.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Rows[0]["v"]; got != tt.want {
				t.Fatalf("%s = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
}
