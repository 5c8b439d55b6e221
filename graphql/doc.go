// Package graphql is v2bridge's NerdGraph client: the genqlient operations
// (operations/*.graphql, validated against ../schema/nerdgraph.graphql), the code
// generated from them, and the transport that carries them — endpoint per region, the
// caller's key as API-Key, a deadline per call, upstream-call accounting and the
// classification of NerdGraph errors into typed errors the gateway maps to v2 statuses.
//
// The transport (client.go) knows no operation. What an operation's answer needs
// beyond genqlient's types lives in the file named for its operations: the structs its
// fields are bound to, decoded in one pass (applications.go, deployments.go,
// metrics.go), the rows read by hand (applications_inventory.go), and the presizing a
// response does for itself before its answer is decoded (presize.go).
package graphql
