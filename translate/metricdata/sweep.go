package metricdata

import (
	"encoding/json"
	"strconv"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// SweepNRQL is the query several applications of one account share (translate's
// sweeps): NRQL's with scope naming them all (appId IN (...), quoted by the caller)
// and the rows faceted by application, then by metric name, so each application's
// rows are what its own query answers. Multiple facets are documented as "FACET
// attribute1, attribute2" (newrelic/docs-website
// src/content/docs/nrql/nrql-syntax-clauses-functions.mdx, #sel-facet).
func SweepNRQL(scope, names string, w Window, summarize bool) string {
	return facetedNRQL(scope, names, "appId, metricTimesliceName", w, summarize)
}

// SplitSweep gives each application its rows of a SweepNRQL answer, each row's facet
// set to its metric name as its own query's answer has it. A facet that is not
// [appId, name] (a string or a number, then a string or null) fails the split: ok
// false, and nothing of the answer is used.
func SplitSweep(rows []Row) (byApp map[int64][]Row, ok bool) {
	byApp = map[int64][]Row{}
	for _, r := range rows {
		var facet []json.RawMessage
		if json.Unmarshal(r.Facet, &facet) != nil || len(facet) != 2 {
			return nil, false
		}
		id, ok := facetID(facet[0])
		if !ok {
			return nil, false
		}
		r.Facet = facet[1]
		byApp[id] = append(byApp[id], r)
	}
	return byApp, true
}

// facetID is an application id as a facet holds it: a JSON string of digits or a
// number.
func facetID(raw json.RawMessage) (int64, bool) {
	text, ok := ng.StringText(raw)
	if !ok {
		text = raw
	}
	id, err := strconv.ParseInt(string(text), 10, 64)
	return id, err == nil && id > 0
}
