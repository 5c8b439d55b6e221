package state

import (
	"context"
	"time"
)

// SharedLimits counts the per-key rate limit's windows fleet-wide (state/fleet.Store in
// fleet mode), so N replicas allow the limit once, not N times. An error means the
// store is down or slow: the replica counts on its own.
type SharedLimits interface {
	// Allow counts one call of keyHash (the SHA-256 of the caller's key, never the key)
	// in the window starting at start and lasting length, against limit, from at least
	// floor (the calls this replica has seen in the window). It returns whether the
	// call is allowed and the calls counted in the window, this one included when
	// allowed.
	Allow(ctx context.Context, keyHash string, limit int, start time.Time, length time.Duration, floor int) (ok bool, count int, err error)
	// Forget drops keyHash's windows (a key NerdGraph refused keeps no state).
	Forget(ctx context.Context, keyHash string, start time.Time)
}
