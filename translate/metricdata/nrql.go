package metricdata

import (
	"strconv"
	"strings"
	"time"
)

// Chunking: each NRQL facets at most Chunk names, and one document holds at most
// MaxChunks of them (the MetricData operation's aliases).
const (
	Chunk     = 50
	MaxChunks = 4
	MaxNames  = Chunk * MaxChunks
)

// Unscoped is the condition every timeslice sum carries: only a metric's unscoped
// rows. NRDB also holds copies of Datastore/*, External/* and custom segment metrics
// scoped to each transaction, with the same metricTimesliceName and a scope attribute
// naming the transaction; unscoped rows have none ("scope: (Optional) The timeslice name
// of the legacy metric that this metric is scoped to",
// https://docs.newrelic.com/docs/data-apis/understand-data/metric-data/query-apm-metric-timeslice-data-nrql/#attributes).
// IS NULL "determines if an attribute has a null value"
// (https://docs.newrelic.com/docs/nrql/nrql-syntax-clauses-functions/#sel-where).
// REST v2's metric data were the unscoped metrics: summing the scoped copies too
// counts each call once more per transaction it ran in.
const Unscoped = "scope IS NULL"

// dataSelect is one chunk's SELECT: the raw sums of raw, by alias.
const dataSelect = "SELECT count(" + tsv + ") AS 'c', sum(" + tsv + ") AS 's', " +
	"sum(" + tsv + "['totalExclusive']) AS 'ex', min(" + tsv + ") AS 'mn', " +
	"max(" + tsv + ") AS 'mx', sum(" + tsv + "['sumOfSquares']) AS 'sq', " +
	"stddev(" + tsv + ") AS 'sd', average(" + tsv + "['totalExclusive'] / " + tsv + "['count']) AS 'exr', " +
	"average(" + tsv + "['totalExclusive']) AS 'exm' FROM Metric WHERE "

// NRQL is one chunk's query: raw per name and slice of w, unscoped rows only. scope
// is the condition naming the entity and names the chunk's metric names as an NRQL
// list ('a', 'b', ...), both NRQL text the caller has quoted.
func NRQL(scope, names string, w Window, summarize bool) string {
	return facetedNRQL(scope, names, "metricTimesliceName", w, summarize)
}

// facetedNRQL is NRQL faceted by facet.
func facetedNRQL(scope, names, facet string, w Window, summarize bool) string {
	var b strings.Builder
	b.Grow(len(dataSelect) + len(scope) + len(names) + len(facet) + 160)
	b.WriteString(dataSelect)
	b.WriteString(scope)
	b.WriteString(" AND " + Unscoped + " AND metricTimesliceName IN ")
	b.WriteString(names)
	b.WriteString(" FACET ")
	b.WriteString(facet)
	b.WriteString(" SINCE ")
	b.WriteString(strconv.FormatInt(w.Since.UnixMilli(), 10))
	b.WriteString(" UNTIL ")
	b.WriteString(strconv.FormatInt(w.Until.UnixMilli(), 10))
	if !summarize {
		b.WriteString(" TIMESERIES ")
		b.WriteString(strconv.FormatInt(int64(w.Period/time.Second), 10))
		b.WriteString(" seconds")
	}
	b.WriteString(" LIMIT MAX")
	return b.String()
}

// ChunkRows is how many rows each chunk of n names answers at most in window w: a row
// per name and slice (one slice when summarized; FACET answers only the names with
// data). The fetch's slices are allocated at that size before the answer is
// decoded into them (graphql.WithTimesliceRows).
func ChunkRows(n int, w Window, summarize bool) []int {
	slices := 1
	if !summarize && w.Period > 0 {
		slices = int(w.Until.Sub(w.Since) / w.Period)
	}
	rows := make([]int, 0, MaxChunks)
	for ; n > 0; n -= Chunk {
		rows = append(rows, min(n, Chunk)*slices)
	}
	return rows
}
