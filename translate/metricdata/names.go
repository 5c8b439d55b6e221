package metricdata

import (
	"slices"
	"time"
)

// nameAliases are metric names New Relic's pages publish that NRDB stores under
// another name: the Apdex table of docs-website
// src/content/docs/apis/rest-api-v2/application-examples-v2/getting-apdex-data-apps-or-browsers-v2.mdx
// lists `EndUserApdex` for the browser's score, s, t, f and count, while the same
// page's requests (and NRDB's metricTimesliceName) spell it `EndUser/Apdex`. An alias
// is read as its stored name and answered under the name asked.
var nameAliases = map[string]string{"EndUserApdex": "EndUser/Apdex"}

// StoredName is the metricTimesliceName a requested metric name is read as.
func StoredName(name string) string {
	if n, ok := nameAliases[name]; ok {
		return n
	}
	return name
}

// QueryNames are the distinct metricTimesliceNames a request reads for its names: each
// name's stored name, then — when error_percentage is served (asked, a value of the
// first name, and not replaced by raw=true's timeslice fields) — the two metrics its
// published formula divides.
func QueryNames(names []string, r Request, ch Choices) []string {
	out := make([]string, 0, len(names)+2)
	for _, n := range names {
		if s := StoredName(n); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if servesErrorPercentage(names, r, ch) {
		for _, s := range []string{PageErrorsMetric, PageViewsMetric} {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// servesErrorPercentage is whether a request's answer carries error_percentage.
func servesErrorPercentage(names []string, r Request, ch Choices) bool {
	return !(r.Raw && ch.RawFields) && len(names) > 0 && slices.Contains(r.Values, "error_percentage") &&
		classify(StoredName(names[0])).allows("error_percentage")
}

// pageCounts are the rows of the two metrics error_percentage divides (nil: not asked).
type pageCounts struct {
	errors, views []Row
}

// at fills r's pageErrors and pageViews with the counts of the slice beginning at
// begin (a summarized document's one row each).
func (p *pageCounts) at(r *raw, begin float64, summarized bool) {
	r.pageErrors = countAt(p.errors, begin, summarized)
	r.pageViews = countAt(p.views, begin, summarized)
}

// countAt is count(tsv) of the row of rows (sorted by begin) beginning at begin.
func countAt(rows []Row, begin float64, summarized bool) float64 {
	if summarized {
		if len(rows) > 0 {
			return rows[0].C
		}
		return 0
	}
	at := rowTime(begin)
	if i, ok := slices.BinarySearchFunc(rows, at, func(r Row, t time.Time) int { return rowTime(r.Begin).Compare(t) }); ok {
		return rows[i].C
	}
	return 0
}
