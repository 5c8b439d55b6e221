// Package schema holds nerdgraph.graphql, the strict subset of the real NerdGraph schema
// that every genqlient operation (graphql/operations) and the simulator (graphql/sim)
// are generated from. Its tests keep it identical to the project's evidence copy.
package schema

import _ "embed"

// NerdGraph returns the schema text.
func NerdGraph() string { return nerdgraph }

//go:embed nerdgraph.graphql
var nerdgraph string
