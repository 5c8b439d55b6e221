// Package verify compares, on the caller's own account, what the real REST API v2
// answers with what the translation answers: it discovers a sample of the account's
// objects through REST, sends every read route's request to both sides, and reports
// per route and per field whether the values are equal, within tolerance, different
// (with both values) or missing on one side, with each side's latency and the
// translation's NerdGraph round trips. `v2bridge verify` runs it and writes the report
// as HTML (no JavaScript), JSON and a one-screen terminal summary.
package verify
