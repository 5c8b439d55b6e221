package state

import (
	"context"
	"strconv"
	"sync"
	"time"

	gocache "github.com/patrickmn/go-cache"
)

// Deploys is a replica's memory of its own deployment writes: a lock per application
// (check-then-write) and the deployments D recorded in the last memory period per
// key (the translator's key of a caller and application).
type Deploys[D any] struct {
	memory time.Duration
	id     func(D) int64     // a deployment's id (the fleet's records are merged by it)
	shared SharedDeployments // fleet mode (deploysfleet.go); nil: this replica's only
	mu     sync.Mutex
	locks  map[string]*appLock
	recent *gocache.Cache // key → *recentDeployments[D]
}

// RememberedDeployments bounds the deployments a replica remembers per key: far more
// than a deploy pipeline records in the memory period (100 a minute), so that a burst
// of writes to one application costs a bounded amount of memory and each write a
// constant amount of work (without the bound, each write copied the whole list). When
// the bound drops a deployment younger than the memory period, Recalled says so.
const RememberedDeployments = 1000

// recentDeployments is what a replica remembers of one key, oldest first. list is only
// ever appended to or shortened from the front under the ledger's lock, so a reader's
// snapshot (a slice header taken under the lock) never sees an element change.
type recentDeployments[D any] struct {
	list    []recordedDeployment[D]
	dropped time.Time // when the newest deployment the bound dropped was recorded
}

type appLock struct {
	ch   chan struct{}
	refs int
}

type recordedDeployment[D any] struct {
	d  D
	at time.Time // when it was recorded (the caller's clock)
}

// NewDeploys returns a ledger that remembers deployments for memory; id tells a
// deployment's id.
func NewDeploys[D any](memory time.Duration, id func(D) int64) *Deploys[D] {
	return &Deploys[D]{memory: memory, id: id, locks: map[string]*appLock{}, recent: gocache.New(memory, 2*memory)}
}

// Lock waits for the application's lock (or ctx) and returns its release.
func (l *Deploys[D]) Lock(ctx context.Context, accountID, appID int64) (func(), error) {
	key := strconv.FormatInt(accountID, 10) + "|" + strconv.FormatInt(appID, 10)
	l.mu.Lock()
	al := l.locks[key]
	if al == nil {
		al = &appLock{ch: make(chan struct{}, 1)}
		l.locks[key] = al
	}
	al.refs++
	l.mu.Unlock()
	release := func() {
		l.mu.Lock()
		if al.refs--; al.refs == 0 {
			delete(l.locks, key)
		}
		l.mu.Unlock()
	}
	select {
	case al.ch <- struct{}{}:
		unlockShared, err := l.lockShared(ctx, accountID, appID) // deploysfleet.go: the fleet's lock
		if err != nil {
			<-al.ch
			release()
			return nil, err
		}
		return func() { unlockShared(); <-al.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// Remember keeps d (recorded at now) under key for the memory period, at most
// RememberedDeployments of them per key.
func (l *Deploys[D]) Remember(key string, d D, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rd, _ := l.recentOf(key)
	if rd == nil {
		rd = &recentDeployments[D]{}
	}
	drop := 0
	for drop < len(rd.list) && now.Sub(rd.list[drop].at) >= l.memory {
		drop++
	}
	if over := len(rd.list) - drop + 1 - RememberedDeployments; over > 0 {
		drop += over
		rd.dropped = rd.list[drop-1].at
	}
	rd.list = append(rd.list[drop:], recordedDeployment[D]{d: d, at: now})
	l.recent.SetDefault(key, rd)  // the memory period from the newest write
	l.rememberShared(key, d, now) // deploysfleet.go
}

// recentOf is the remembered deployments of key; the caller holds l.mu.
func (l *Deploys[D]) recentOf(key string) (*recentDeployments[D], bool) {
	v, ok := l.recent.Get(key)
	if !ok {
		return nil, false
	}
	rd, ok := v.(*recentDeployments[D])
	return rd, ok
}

// Recalled returns the deployments remembered under key in the memory period before
// now, oldest first, and whether the RememberedDeployments bound dropped one of that
// period (a list may then miss it until NRQL has it).
func (l *Deploys[D]) Recalled(key string, now time.Time) ([]D, bool) {
	l.mu.Lock()
	var list []recordedDeployment[D]
	var dropped time.Time
	if rd, ok := l.recentOf(key); ok {
		list, dropped = rd.list, rd.dropped
	}
	l.mu.Unlock()
	var out []D
	for _, r := range list {
		if now.Sub(r.at) < l.memory {
			out = append(out, r.d)
		}
	}
	cut := !dropped.IsZero() && now.Sub(dropped) < l.memory
	return l.recalledShared(key, now, out), cut // deploysfleet.go: the fleet's too
}
