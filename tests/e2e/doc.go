// Package e2e holds the end-to-end tests of v2bridge: each starts the gateway in front
// of the NerdGraph simulator over real HTTP (tests/harness) and checks the REST v2
// answers, their golden bodies (testdata, refreshed with -update) and what reached
// NerdGraph.
package e2e
