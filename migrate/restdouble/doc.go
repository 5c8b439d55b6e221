// Package restdouble is a REST API v2 double for the demo: an http.Handler answering
// the routes `v2bridge verify` probes from the same demo data the NerdGraph simulator
// serves (sim.Data), in the shapes of REST v2's published answers
// (https://docs.newrelic.com/docs/apis/rest-api-v2/, examples under
// tests/testdata/restv2). It lets verify, compare mode and pass-through be tried
// without a New Relic account. It is a tool, never evidence of what REST answers:
// summary figures come from the data file, or from a SummaryFunc such as the
// simulator's (hosts and instances share their application's); a field the data holds
// no value for is null; routes it does not serve (metric data,
// browser applications, violations, incidents, writes) answer 501.
package restdouble
