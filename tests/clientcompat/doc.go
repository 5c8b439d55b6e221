// Package clientcompat runs New Relic's own Go client (newrelic-client-go, pinned in
// go.mod) unchanged against the gateway, with its REST base URL pointed at it, and
// checks the decoded values against the simulator's data.
package clientcompat
