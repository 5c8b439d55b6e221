// Command soak runs the gateway against the NerdGraph simulator for a few minutes at
// moderate load while simulator faults switch on and off, then reports the answers by
// status and v2 error title, latency, and goroutines and memory at rest before and after.
// It fails (exit 1) when, at rest after the load, goroutines grew by more than 10 or heap
// in use by more than 16 MB; when a request was answered 5xx before any fault; when the
// gateway had not recovered by the second half of the last (clean) phase; when a 429 or
// 503 came without Retry-After; or when a body held an API key.
//
// Before the phases, NerdGraph refuses the multi-account key once and a caller polls
// with it: the soak fails unless the key is answered again within its rejected-key
// TTL (shortened to a few seconds here) and a recheck, and not before.
//
// The phase after the first clean one is a bad day: half as many
// clients again send requests with random keys and random User-Agents while key 2's
// NerdGraph alone answers HTTP 500. The summary prints the flood (statuses, /metrics
// series and usage-report rows before and after) and the answers per tenant; the soak
// fails when a random key got 200, /metrics grew by more than 100 series or the report
// by any row, or a healthy key got a 5xx during key 2's outage.
//
// The clients do not back off, so while the circuit breaker is open its fast 503s
// dominate the counts of the fault phases (and of the start of the next phase).
// `make soak` runs it (SOAKTIME, default 3m); it is not part of `make test`.
package main
