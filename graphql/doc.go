// Package graphql is v2bridge's NerdGraph client: the genqlient operations
// (operations/*.graphql, validated against ../schema/nerdgraph.graphql), the code
// generated from them, and the transport that carries them — endpoint per region, the
// caller's key as API-Key, a deadline per call, upstream-call accounting and the
// classification of NerdGraph errors into typed errors the gateway maps to v2 statuses.
package graphql
