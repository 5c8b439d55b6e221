// Package fleet is v2bridge's optional shared store ("fleet mode"): several
// replicas behind one load balancer share a Redis 6+ or Valkey server so that they
// behave as one gateway. It holds only what must be fleet-wide:
//
//   - the per-key rate-limit windows (ratelimit.go, one Lua script per call);
//   - NerdGraph's concurrent-request leases per user key (leases.go), expiring so a
//     dead replica frees its slots;
//   - the accounts' write counts, stored and published so every replica retires its
//     cached reads at once (writes.go);
//   - settled write attempt records and recently recorded deployments (attempts.go,
//     deploys.go), so a retry through another replica is recognised, and the lock of
//     an application's deployment check-and-record (a lease of one, leases.go);
//   - the usage report's rows (usage.go);
//   - with Options.Cache (store.shared_cache), the translator's cached answers
//     (cache.go): entries named by the SHA-256 of the local cache key, capped per entry
//     and in total, expiring with the local TTLs, served only while the fleet's record
//     of NerdGraph accepting the caller's key holds.
//
// Keys are the SHA-256 of an API key or of a translator key, never a key itself, and no
// tenant data (cached v2 answers) is stored unless Options.Cache is set.
//
// The store is never a single point of failure: every call is bounded by a short
// timeout, a failure marks the store down (logged once, counted by Errors, shown by
// Status) and the callers fall back to their replica's own state; while it is down no
// call waits on it, a background probe notices its return, replays the write counts
// bumped meanwhile and reloads the stored ones.
//
// The same pattern is what Kong's rate-limiting plugin (policy: redis) and Envoy's
// global rate-limit service do: https://docs.konghq.com/hub/kong-inc/rate-limiting/ ,
// https://github.com/envoyproxy/ratelimit .
package fleet
