package translate

import (
	"context"
	"sync/atomic"
	"time"
)

// SharedWrites is the fleet's count of writes per account (translate/fleet.Store in
// fleet mode, issue 21). A replica's count of an account is the larger of its own and
// the fleet's: a write through any replica raises every replica's count (the store
// publishes it), which retires their cached reads of the account at once.
type SharedWrites interface {
	// BumpWrites counts one write fleet-wide and returns the fleet's count; an error
	// means the store is down (the replica's own count still rose, and the store
	// replays the write when it returns).
	BumpWrites(ctx context.Context, account int64) (uint64, error)
	// WatchWrites registers fn to hear of every fleet count.
	WatchWrites(fn func(account int64, count uint64))
}

// sharedWriteTimeout bounds a write's publication (the store's own timeout is shorter).
const sharedWriteTimeout = time.Second

func (w *accountWrites) bumpShared(account int64) {
	if w.shared == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedWriteTimeout)
	defer cancel()
	if n, err := w.shared.BumpWrites(ctx, account); err == nil {
		w.raise(account, n)
	}
}

// raise lifts account's count to at least n (counts only grow, so a late or repeated
// message never brings a retired answer back).
func (w *accountWrites) raise(account int64, n uint64) {
	v, _ := w.m.LoadOrStore(account, new(atomic.Uint64))
	c := v.(*atomic.Uint64)
	for {
		cur := c.Load()
		if cur >= n || c.CompareAndSwap(cur, n) {
			return
		}
	}
}
