package nameindex

import (
	"context"
	"fmt"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// A cold index in a fleet is read by one replica. Replicas behind one balancer meet a
// cold account together (a deploy's hooks, a dashboard opened on every replica), and
// each whole read costs a round trip per page of the account: the replica that takes
// the key's store lock reads it (as a background refresh does) and keeps it in the
// store; the others wait for it there, polling every fleetColdPoll. A waiter reads it
// itself when the lock comes free with no index in the store (the reader failed),
// when the store fails, or after fleetColdWait (the reader's replica may have stopped
// while its lock lives on): an index is never waited for past a bound, and the
// caller's request deadline ends its wait in any case.
const (
	fleetColdPoll = 100 * time.Millisecond
	fleetColdWait = 15 * time.Second
)

// readCold reads c's index on a caller's path and keeps it (keep); in a fleet, once
// for the fleet (above).
func (x *Indexes) readCold(ctx context.Context, c Caller, gen uint64) (*index, error) {
	if x.shared == nil {
		return x.readKept(ctx, c, gen)
	}
	wait, cancel := ng.WaitContext(ctx)
	defer cancel()
	var giveUp <-chan time.Time
	for {
		release, ok, err := x.shared.TryLock(ctx, "name_index", c.Key, readTimeout)
		if err != nil || ok {
			if ok {
				defer release()
				// The lock may have come free because its reader has just stored the index.
				if s, found := x.fleetIndex(c, gen); found {
					return s, nil
				}
			}
			return x.readKept(ctx, c, gen)
		}
		if giveUp == nil {
			t := time.NewTimer(x.coldWait)
			defer t.Stop()
			giveUp = t.C
		}
		poll := time.NewTimer(x.coldPoll)
		select {
		case <-wait.Done():
			poll.Stop()
			return nil, fmt.Errorf("application names: %w", wait.Err())
		case <-giveUp:
			poll.Stop()
			return x.readKept(ctx, c, gen)
		case <-poll.C:
		}
		if s, found := x.fleetIndex(c, gen); found {
			return s, nil
		}
	}
}

// fleetIndex is c's index from the store, kept here, when one is there that holds the
// writes this replica knows of (gen).
func (x *Indexes) fleetIndex(c Caller, gen uint64) (*index, bool) {
	s, ok := x.sharedIndex(c)
	if !ok || !x.servable(s, x.opts.Now()) || s.gen < gen {
		return nil, false
	}
	x.cache.SetLocalFor(c.Key, s, x.maxStale)
	return s, true
}

// readKept reads c's index from NerdGraph and keeps it.
func (x *Indexes) readKept(ctx context.Context, c Caller, gen uint64) (*index, error) {
	ix, err := x.read(ctx, c, gen)
	if err != nil {
		return nil, err
	}
	x.keep(c, ix)
	return ix, nil
}
