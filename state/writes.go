package state

import (
	"context"
	"sync"
	"sync/atomic"
)

// Writes counts the writes made through this gateway per account. The cached reads a
// write can change carry their account's count in their keys, taken before the read
// goes upstream: after a write, every caller of the account reads afresh, and a read
// that raced the write stores its answer under the old count, where nothing finds it
// again (it expires with its TTL). Only accounts that were written to are kept. The
// zero value is ready to use.
type Writes struct {
	m sync.Map // account id (int64) → *atomic.Uint64
	// shared, when set, is the fleet's count (fleet mode).
	shared SharedWrites
}

// SharedWrites is the fleet's count of writes per account (state/fleet.Store in fleet
// mode). A replica's count of an account is the larger of its own and the fleet's: a
// write through any replica raises every replica's count (the store publishes it),
// which retires their cached reads of the account at once.
type SharedWrites interface {
	// BumpWrites counts one write fleet-wide and returns the fleet's count; an error
	// means the store is down (the replica's own count still rose, and the store
	// replays the write when it returns).
	BumpWrites(ctx context.Context, account int64) (uint64, error)
	// WatchWrites registers fn to hear of every fleet count.
	WatchWrites(fn func(account int64, count uint64))
}

// Share makes the counts fleet-wide: w hears of every fleet count and publishes its
// writes. Call it before w is used.
func (w *Writes) Share(shared SharedWrites) {
	w.shared = shared
	shared.WatchWrites(w.Raise)
}

// Gen is account's write count.
func (w *Writes) Gen(account int64) uint64 {
	if v, ok := w.m.Load(account); ok {
		return v.(*atomic.Uint64).Load()
	}
	return 0
}

// Bump records a write to account.
func (w *Writes) Bump(account int64) {
	v, _ := w.m.LoadOrStore(account, new(atomic.Uint64))
	v.(*atomic.Uint64).Add(1)
	w.bumpShared(account)
}

func (w *Writes) bumpShared(account int64) {
	if w.shared == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), SharedTimeout)
	defer cancel()
	if n, err := w.shared.BumpWrites(ctx, account); err == nil {
		w.Raise(account, n)
	}
}

// Raise lifts account's count to at least n (counts only grow, so a late or repeated
// message never brings a retired answer back).
func (w *Writes) Raise(account int64, n uint64) {
	v, _ := w.m.LoadOrStore(account, new(atomic.Uint64))
	c := v.(*atomic.Uint64)
	for {
		cur := c.Load()
		if cur >= n || c.CompareAndSwap(cur, n) {
			return
		}
	}
}
