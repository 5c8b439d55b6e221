// Package schema holds nerdgraph.graphql, the strict subset of the real NerdGraph schema
// that every genqlient operation (graphql/operations) and the simulator (sim)
// are generated from, and nerdgraph-full-2026-04-19.graphql.gz, the real schema itself
// (the 2026-04-19 introspection dump, gzip-compressed). Its tests check the subset and
// every operation against the real schema on every clone.
package schema

import _ "embed"

// NerdGraph returns the schema text.
func NerdGraph() string { return nerdgraph }

//go:embed nerdgraph.graphql
var nerdgraph string
