// Command soak runs the gateway against the NerdGraph simulator for a few minutes at
// moderate load while simulator faults switch on and off, then reports the answers by
// status and v2 error title, latency, and goroutines and memory at rest before and after.
// It fails (exit 1) when goroutines or heap grew past the stated tolerance, when a
// request was answered 5xx before any fault, when the gateway had not recovered by the
// second half of the last (clean) phase, or when a body held an API key.
// `make soak` runs it (SOAKTIME, default 3m); it is not part of `make test`.
package main
