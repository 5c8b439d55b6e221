package state

import (
	"context"
	"errors"
)

// UsageRow is one row of the usage report as the fleet shares it: calls of one caller,
// User-Agent product and route.
type UsageRow struct {
	Caller, Agent, Route, Mode, Fidelity string
	Account                              int64
	Count, Errors                        int64
	LastSeen                             int64 // Unix seconds
}

// ErrUsageLost refuses a usage push into an epoch the store no longer holds: it
// restarted empty since the replica's last push, which must add its whole book again.
var ErrUsageLost = errors.New("fleet store: the usage rows were lost (the store restarted empty)")

// SharedUsage keeps the usage report's rows fleet-wide (state/fleet.Store in fleet
// mode): each replica adds the calls it counted since its last push, and any replica's
// report reads every replica's rows. A push is applied once per replica and push
// number, so one whose answer was lost is resent as it was.
type SharedUsage interface {
	// AddUsageIn adds deltas (counts since the last push; LastSeen and the labels are
	// the latest) as push seq of replica into the rows' epoch ("": whichever the store
	// holds; an empty store takes proposed). It returns the epoch the push went into,
	// or ErrUsageLost when the store no longer holds epoch.
	AddUsageIn(ctx context.Context, epoch, proposed, replica string, seq uint64, deltas []UsageRow) (string, error)
	// UsageEpoch is the epoch of the store's rows ("" when it holds none).
	UsageEpoch(ctx context.Context) (string, error)
	// Usage returns the fleet's rows.
	Usage(ctx context.Context) ([]UsageRow, error)
	// Done is closed when the store is closed: a replica stops pushing then.
	Done() <-chan struct{}
}
