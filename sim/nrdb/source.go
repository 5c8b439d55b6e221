package nrdb

import (
	"context"
	"time"
)

// Timeslice is the value of newrelic.timeslice.value on an APM Metric row. Apdex
// metrics reuse the layout as s, t, f, apdex_t, apdex_t, 0.
type Timeslice struct {
	Count, Total, TotalExclusive, Min, Max, SumOfSquares float64
}

// Field returns one of the timeslice's fields by its NRQL name.
func (t Timeslice) Field(name string) (float64, bool) {
	switch name {
	case "count":
		return t.Count, true
	case "total":
		return t.Total, true
	case "totalExclusive":
		return t.TotalExclusive, true
	case "min":
		return t.Min, true
	case "max":
		return t.Max, true
	case "sumOfSquares":
		return t.SumOfSquares, true
	}
	return 0, false
}

// Row is one event. Get returns an attribute's value: string, float64, bool or
// Timeslice; ok is false when the row lacks it.
type Row interface {
	Get(attr string) (v any, ok bool)
	Timestamp() time.Time
	EventType() string
}

// Scan describes what the evaluator needs from a Source.
type Scan struct {
	Accounts   []int
	EventTypes []string
	Begin, End time.Time // [Begin, End)
	// Hints are equality constraints every matching row satisfies (taken from the
	// top-level AND of WHERE): attribute → allowed values. A source may use them to
	// skip rows; the evaluator still applies WHERE to every row it gets.
	Hints map[string][]any
	// Once tells that the answer is the same when the rows that differ only in
	// attributes outside Reads come once instead of many times (the query counts no
	// rows: see plan.once). A source may then yield one row for each such set, and
	// must yield at least one. An attribute outside Reads may still be tested with
	// IS [NOT] NULL, so the rows left out must have it present where the row given has.
	Once bool
	// Reads are the attributes whose values the query reads (set with Once).
	Reads map[string]bool
	// Ends tells, with Once, that the query reads timestamp only as min(timestamp) or
	// max(timestamp): of the rows that differ only in timestamp and in attributes
	// outside Reads, a source may yield the earliest and the latest alone.
	Ends bool
}

// Source yields the rows of a scan. fn returning false stops the scan.
type Source interface {
	Scan(ctx context.Context, s Scan, fn func(Row) bool) error
}

// MapRow is a Row backed by a map (event types such as Deployment).
type MapRow struct {
	Type  string
	At    time.Time
	Attrs map[string]any
}

// Get implements Row.
func (r MapRow) Get(attr string) (any, bool) {
	if attr == "timestamp" {
		return float64(r.At.UnixMilli()), true
	}
	v, ok := r.Attrs[attr]
	return v, ok
}

// Timestamp implements Row.
func (r MapRow) Timestamp() time.Time { return r.At }

// EventType implements Row.
func (r MapRow) EventType() string { return r.Type }
