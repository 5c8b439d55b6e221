// Command bench is v2bridge's side-by-side load harness (`make bench`): the gateway in
// front of a canned NerdGraph upstream, against a plain net/http server answering the
// same v2 body and an httputil.ReverseProxy forwarding the equivalent GraphQL request,
// with the same closed-loop load; answers from the gateway's cache are also set beside
// the contract floor (floor.go: the least any gateway under the same contract does).
// It prints req/s, p50, p99, allocations and bytes per request and peak RSS, the
// gateway's ratios to the baselines, and writes the same as JSON (bench/latest.json).
// Absolute numbers vary between machines; the ratios are measured in one run.
//
// Each server under test runs in a process of its own (this binary re-executed with
// -serve), so its allocations, CPU time per request and peak RSS are its own; the
// parent holds the load generator and the canned upstream. Each scenario starts fresh
// server processes, so its figures do not depend on the scenarios before it and are
// the ones -only measures alone. Each scenario's measured
// time is split into rounds (-rounds) that take the servers in turn, so the
// ratios do not depend on which server ran during a slow spell of the machine.
//
// The journeys (journeys.go; -journeys-only runs them alone) are what a caller's
// script feels on a generated account: the simulator behind a proxy that adds a fixed
// latency to each NerdGraph round trip and counts them, the gateway as deployed.
package main
