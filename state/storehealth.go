package state

// StoreHealth is how the fleet's store is doing (state/fleet.Store in fleet mode), for
// /readyz?verbose and the metrics. A replica's readiness never depends on it.
type StoreHealth interface {
	// Errors is the number of failed store calls so far.
	Errors() int64
	// Status is nil while the store answers, else why it does not.
	Status() error
	// SharesCache reports whether the shared cache is on; CacheStats counts its
	// outcomes (zero when it is off).
	SharesCache() bool
	CacheStats() CacheStats
}

// CacheStats counts the shared cache's outcomes since the store was opened.
type CacheStats struct {
	Hits, Misses, Written int64
	// TooLarge and OverBudget count entries not written for the per-entry cap and the
	// total bound; Unshareable counts values the translator keeps local (no codec).
	TooLarge, OverBudget, Unshareable int64
	// Fallbacks counts reads and writes that found the store down or slow (the replica
	// used its local cache alone).
	Fallbacks int64
}
