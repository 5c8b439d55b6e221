package translate

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
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

// InventoryWindow is how far back the host/instance inventory looks: REST v2 called an
// application reporting when it had sent data in the last 10 minutes.
const InventoryWindow = 10 * time.Minute

// inventoryNRQL is the query behind links.application_hosts,
// links.application_instances, last_reported_at and filter[host]: the latest timeslice
// per application, host and agent instance in the window, of the applications appIDs
// (none: every application of the account). max(timestamp) comes first, so when the
// facets exceed NRQL's 5000 (LIMIT MAX) the ones kept are the most recently seen
// (translate/caps.go).
func inventoryNRQL(appIDs []int64, until time.Time) (string, error) {
	var n NRQL
	n.b.Grow(256 + 12*len(appIDs))
	n.Raw("SELECT max(timestamp) AS 'lastSeen' FROM Metric WHERE metricTimesliceName IN ").StrList(inventoryMetrics)
	switch len(appIDs) {
	case 0:
	case 1:
		n.Raw(" AND appId = ").Int(appIDs[0])
	default:
		n.Raw(" AND appId IN ").IntList(appIDs)
	}
	n.Raw(" FACET appId, host, realAgentId ").Range(until.Add(-InventoryWindow), until).Raw(" LIMIT MAX")
	return n.Build()
}
