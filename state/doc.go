// Package state holds what a v2bridge replica remembers between requests, apart from
// how requests are translated:
//
//   - Cache, a go-cache bounded in entries and estimated bytes, whose entries are
//     served only while the caller's key is fresh and, in fleet mode, are shared
//     through the fleet's store; a stamped read says later whether the key still
//     holds the same entry (cache.go, cachebytes.go, cachefleet.go);
//   - Attempts, the ledger of writes whose outcome is unknown or that carry an
//     Idempotency-Key, so a retry is not sent twice (attempts.go, attemptsfleet.go);
//   - Deploys, the deployments a replica recorded and the per-application lock of a
//     deployment's check-and-record (deploys.go, deploysfleet.go);
//   - Writes, the count of writes per account that retires cached reads (writes.go);
//   - Stores, a translator's caches and ledgers built together from one set of options,
//     under one policy: lifetimes, bounds, clock, the edge's key check (KeyCheck) and
//     sharing (stores.go); and Basis, the entries an answer was read from and whether
//     they still hold, so the gateway can serve it again (basis.go);
//   - what the edge and the migration tooling use of the fleet's store: the per-key
//     rate limit's windows (SharedLimits, limits.go), the store's health and shared
//     cache counts (StoreHealth, storehealth.go) and the usage report's rows
//     (SharedUsage, usage.go).
//
// Everything here is keyed by plain values (strings built by the translator, account
// and application ids) and holds values it does not look into, so the translator keeps
// the meaning of keys and answers and this package keeps their lifetimes, bounds and
// sharing. Each ledger works alone on one replica; given the fleet's store (the
// Shared* interfaces, implemented over Redis or Valkey by state/fleet) it shares what
// a load-balanced fleet must agree on, and falls back to the replica's own memory
// whenever the store fails. state/fleet implements every interface here; only the
// commands, which wire it in, import it (TestImportsPointOneWay).
package state
