// Package migrate is the migration-pilot tooling around the gateway: pass-through to
// the REST API v2 (passthrough.go), compare mode and its JSON diff (compare.go,
// diff.go), the usage report of who calls which route (usagebook.go, report.go, and
// fleetusage.go for a fleet's shared store), the cut-over table beside the last
// `v2bridge verify` run (cutover.go, and package migrate/verify for the run itself), and
// explain, which shows the NerdGraph calls a REST v2 request becomes (explain.go,
// explain_samples.go).
//
// Package gateway does not import it: a Pilot reaches the gateway through the hook
// fields of gateway.Config (Passthrough, Compare, Usage, Operator), which Wire sets,
// as net/http/httputil.ReverseProxy takes its Director and ModifyResponse.
package migrate
