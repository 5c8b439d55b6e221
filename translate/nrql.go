package translate

import (
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// NRQL assembles NRQL text. String values go through QuoteNRQL; numbers and times are
// formatted here. Like SearchQuery it is the only place NRQL text is built.
type NRQL struct {
	b   strings.Builder
	err error
}

// Raw appends trusted query text written in this package (keywords, attribute names).
func (n *NRQL) Raw(s string) *NRQL {
	n.b.WriteString(s)
	return n
}

// Int appends an integer literal.
func (n *NRQL) Int(v int64) *NRQL {
	var buf [20]byte
	n.b.Write(strconv.AppendInt(buf[:0], v, 10))
	return n
}

// Str appends a quoted string literal (QuoteNRQL's quoting); a value it refuses makes
// Build fail.
func (n *NRQL) Str(s string) *NRQL {
	err := ErrInvalidUTF8
	if utf8.ValidString(s) {
		err = appendQuoted(&n.b, s)
	}
	if err != nil && n.err == nil {
		n.err = err
	}
	return n
}

// StrList appends ('a', 'b', ...).
func (n *NRQL) StrList(ss []string) *NRQL {
	n.b.WriteByte('(')
	for i, s := range ss {
		if i > 0 {
			n.b.WriteString(", ")
		}
		n.Str(s)
	}
	n.b.WriteByte(')')
	return n
}

// IntList appends (1, 2, ...).
func (n *NRQL) IntList(vs []int64) *NRQL {
	n.b.WriteByte('(')
	for i, v := range vs {
		if i > 0 {
			n.b.WriteString(", ")
		}
		n.Int(v)
	}
	n.b.WriteByte(')')
	return n
}

// Range appends "SINCE <ms> UNTIL <ms>" (explicit epoch milliseconds).
func (n *NRQL) Range(since, until time.Time) *NRQL {
	n.b.WriteString("SINCE ")
	n.Int(since.UnixMilli())
	n.b.WriteString(" UNTIL ")
	n.Int(until.UnixMilli())
	return n
}

// Build returns the text or the first quoting error.
func (n *NRQL) Build() (string, error) {
	if n.err != nil {
		return "", n.err
	}
	return n.b.String(), nil
}

// QuoteNRQL renders s as a single-quoted NRQL string literal, escaping ' and \ with a
// backslash and refusing control characters.
func QuoteNRQL(s string) (string, error) {
	return quoteBackslash(s)
}

// inventoryMetrics are the timeslice metrics every reporting APM application sends
// (web or background transactions); the inventory query reads only them so it stays
// cheap on accounts with many metrics.
var inventoryMetrics = []string{"HttpDispatcher", "OtherTransaction/all"}

// InventoryWindow is how far back host and instance membership looks: REST v2's lists
// of hosts and instances cover those that reported in approximately the last hour.
// The hosts and
// instances routes and the application's links.application_hosts and
// links.application_instances all use it, so they list the same members; summaries
// keep their own windows (HostSummaryWindow).
const InventoryWindow = time.Hour

// inventoryHead is the start of every inventory query, up to its WHERE clause's
// metrics: the same text each time, so it is built once.
var inventoryHead = sync.OnceValues(func() (string, error) {
	var n NRQL
	as := inventoryColumns()
	n.Raw("SELECT max(timestamp) AS ").Str(as.LastSeen).
		Raw(", uniques(host, ").Int(MaxUniques).Raw(") AS ").Str(as.Hosts).
		Raw(", uniques(realAgentId, ").Int(MaxUniques).Raw(") AS ").Str(as.Agents).
		Raw(" FROM Metric WHERE metricTimesliceName IN ").StrList(inventoryMetrics)
	return n.Build()
})

// inventoryColumns are the aliases inventoryNRQL gives its columns, which
// parseInventory reads back (ng.EachInventoryRow).
func inventoryColumns() ng.InventoryColumns {
	return ng.InventoryColumns{Hosts: "hosts", Agents: "agents", LastSeen: "lastSeen"}
}

// inventoryNRQL is the query behind links.application_hosts,
// links.application_instances, last_reported_at and filter[host]: per application of
// appIDs (none: every application of the account), its latest timeslice in the window
// and the hosts and agent instances that sent one, at most limit applications
// (MaxFacets or less). One row per application (FACET appId, the hosts and agents as
// uniques() lists) rather than one per application, host and agent: a list page reads
// fewer rows and bytes, and a cut at limit counts applications. uniques() keeps up to
// MaxUniques values "per facet" (New Relic's NRQL lesson, newrelic/nr1-learn-nrql
// nerdlets/nrql-tutorial-nerdlet/levels/level2/lessons/AggregateQuery2.js; the limit
// also in docs-website nrql-syntax-clauses-functions.mdx #func-uniques), as a list
// under its alias (metrics.go fetchMetricNames reads uniques() AS 'names' the same way).
// max(timestamp) comes first, so when the applications exceed limit the ones kept are
// the most recently seen (translate/caps.go).
func inventoryNRQL(appIDs []int64, until time.Time, limit int) (string, error) {
	head, err := inventoryHead()
	if err != nil {
		return "", err
	}
	var n NRQL
	n.b.Grow(len(head) + 96 + 12*len(appIDs))
	n.Raw(head)
	switch len(appIDs) {
	case 0:
	case 1:
		n.Raw(" AND appId = ").Int(appIDs[0])
	default:
		n.Raw(" AND appId IN ").IntList(appIDs)
	}
	n.Raw(" FACET appId ").Range(until.Add(-InventoryWindow), until)
	if limit >= MaxFacets {
		n.Raw(" LIMIT MAX")
	} else {
		n.Raw(" LIMIT ").Int(int64(limit))
	}
	return n.Build()
}
