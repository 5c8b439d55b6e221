// Package restdouble holds REST API v2 doubles: tools for the demo and the tests, like
// the NerdGraph simulator beside it, never evidence of what REST answers, and imported
// by nothing on the gateway's request path.
//
//   - Double (restdouble.go; its alerts routes in alerts.go) answers the routes
//     `v2bridge verify` probes from the demo data the simulator serves (sim.Data), in
//     the shapes of REST v2's published answers
//     (https://docs.newrelic.com/docs/apis/rest-api-v2/, examples under
//     tests/testdata/restv2). Hosts', instances' and key transactions' figures are
//     derived from their own timeslices in the demo's metrics the way REST defined them
//     (figures.go); applications' are the simulator's rolling apmSummary (Options.Summary),
//     which the translation shows too. So verify and compare mode on the demo show only
//     the differences the routes' fidelity notes declare. Routes it does not serve
//     (metric data, browser applications, violations, incidents, writes) answer 501.
//   - Start (retained.go) runs a double of the alerts namespaces New Relic retains
//     (policies, conditions, entity conditions) that records every request, so
//     pass-through tests can check what reached REST unchanged.
//   - Record and Replay (recorded.go) keep a REST endpoint's answers by request URI and
//     serve them again.
package restdouble
