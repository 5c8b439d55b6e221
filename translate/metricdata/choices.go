package metricdata

// Choices are the operator's readings of REST v2 metric data where New Relic's own
// pages allow two (docs/fidelity.md says which): the zero value follows the published
// text.
type Choices struct {
	// RawFields answers raw=true with the timeslice's own fields (count,
	// total_call_time, total_exclusive_time, min_call_time, max_call_time,
	// sum_of_squares: the agent's metric stats) instead of the values asked, as
	// computed. The API Explorer's parameter list describes raw only as "Return
	// unformatted raw values", beside values[] "Retrieve specific metric values"
	// (its parameter table, kept in the OpenAPI listings of New Relic's API explorer);
	// no published answer shows either.
	RawFields bool
	// QueuePerView computes EndUser/RB average_queue_time per page view (the
	// slice's queue time over its count, like the table's other EndUser averages)
	// instead of the migration table's average(totalExclusive) * 1000, a mean over
	// timeslice rows. The browser page defines the value as "the wait time between the
	// web server and the application code", one of the page load time's components
	// (docs-website .../browser-examples-v2/obtaining-browser-end-user-page-load-time-data-v2.mdx),
	// while the migration table says its EndUser formulas "return the same result as
	// what you would get from the REST API v2".
	QueuePerView bool
}

// queuePerView is average_queue_time per page view (Choices.QueuePerView).
var queuePerView = ValueSpec{NRQL: "sum(" + tsv + "['totalExclusive']) / count(" + tsv + ") * 1000", Doc: docMigrateEndUser,
	Factor: 1, Published: "average(" + tsv + "['totalExclusive']) * 1000",
	Why:  "the operator's queue_time: per_view: the queue time of the slice over its page views, like the table's other EndUser averages",
	calc: calc{f: func(r raw, _ float64) float64 { return ratio(r.exclusive, r.count) * 1000 }}}

// apply replaces, in a name's resolved values, those the choices compute otherwise.
func (ch Choices) apply(vals []namedValue) {
	if !ch.QueuePerView {
		return
	}
	for i := range vals {
		if vals[i].name == "average_queue_time" {
			vals[i].calc = queuePerView.calc
		}
	}
}
