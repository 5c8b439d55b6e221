// Package fleet is v2bridge's optional shared store (issue 21, "fleet mode"): several
// replicas behind one load balancer share a Redis or Valkey server so that they behave
// as one gateway. It holds only what must be fleet-wide — the per-key rate-limit
// windows and the accounts' write counts (published so every replica retires its
// cached reads at once) — never an API key (keys are stored by their SHA-256) and never
// tenant data.
//
// The store is never a single point of failure: every call is bounded by a short
// timeout, a failure marks the store down (logged once, counted by Errors, shown by
// Status) and the callers fall back to their replica's own state; while it is down no
// call waits on it, a background probe notices its return, replays the writes counted
// meanwhile and reloads the stored counts.
//
// The same pattern is what Kong's rate-limiting plugin (policy: redis) and Envoy's
// global rate-limit service do: https://docs.konghq.com/hub/kong-inc/rate-limiting/ ,
// https://github.com/envoyproxy/ratelimit .
package fleet
