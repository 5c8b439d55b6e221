package translate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/state"
)

// An account's name index (its applications' REST ids, names and languages, in the
// search's order) serves filter[name] and filter[language] on a large account
// (indexedMatches). Reading it costs a round trip per page of the account's search, so
// it is kept, per caller and account, and served stale while it is read again:
//
//   - younger than the refresh age (Options.NameIndexRefresh) it is served as is;
//   - older, or behind a write to the account through the gateway that did not edit
//     it (nameedits.go), it is still served, and one read of it starts in the background (one per key at a time,
//     nameIndexRefreshes across keys, each bounded by nameIndexReadTimeout and by the
//     index's cap), detached from the request;
//   - older than the max staleness (Options.NameIndexMaxStale) it is no longer served:
//     the caller reads it.
//
// What a stale index misses is bounded by the rest of the path: every page is read by
// id and REST's match applied again (appsByID), so a renamed or deleted application
// is dropped; an exact name no indexed application bears is looked up by equality (one
// round trip), so an application created since is found by its name; only a fragment
// of such a name misses it until the index is read again.
//
// In a fleet (store.shared_cache) the replica that reads an index writes it to the
// store in chunks (nameindexstore.go), and a replica without it reads it from there
// first; a store lock lets one replica of the fleet refresh a key at a time.

// The name index's defaults and bounds.
const (
	DefaultNameIndexRefresh  = 5 * time.Minute
	DefaultNameIndexMaxStale = time.Hour
	DefaultNameIndexMaxApps  = 200000
	DefaultNameIndexes       = 64
	// nameIndexRefreshes bounds the background reads running at once on a replica; a
	// refresh that finds them all busy is not started (a later lookup starts it).
	nameIndexRefreshes = 4
	// nameIndexReadTimeout bounds one background read (and the fleet lock it holds).
	nameIndexReadTimeout = 5 * time.Minute
	// nameIndexRetry is how long after a failed background read the next one waits.
	nameIndexRetry = time.Minute
)

// errNameIndexTooLarge: the account holds more applications than an index may.
var errNameIndexTooLarge = errors.New("application names: more applications than the name index holds")

// nameIndexes are a translator's name indexes and their background reads.
type nameIndexes struct {
	cache    *state.Cache       // "name_index": *nameIndex by Caller.cacheKey("apps-index")
	shared   state.SharedChunks // nil: not in a fleet
	refresh  time.Duration
	maxStale time.Duration
	maxApps  int

	reads       singleflight.Group // cold reads on callers' paths, by key (coldIndex)
	coldWaiting atomic.Int32       // callers in coldIndex's read now, leading or waiting

	edits sync.Mutex // writes' edits of indexes (nameedits.go), one at a time

	mu      sync.Mutex
	running map[string]bool // keys whose background read is under way
	slots   chan struct{}   // one per background read
	wg      sync.WaitGroup
}

// nameIndex is one account's index as a caller reads it.
type nameIndex struct {
	entries []nameEntry
	readAt  time.Time // when its read started
	gen     uint64    // the account's write count then
	// tooLarge: the account holds more than maxApps applications; no entries.
	tooLarge bool
	// retryAt: a background read of it failed; the next waits until then.
	retryAt time.Time
}

func newNameIndexes(opts Options) *nameIndexes {
	x := &nameIndexes{refresh: opts.NameIndexRefresh, maxStale: opts.NameIndexMaxStale, maxApps: opts.NameIndexMaxApps,
		running: map[string]bool{}, slots: make(chan struct{}, nameIndexRefreshes)}
	if x.refresh <= 0 {
		x.refresh = DefaultNameIndexRefresh
	}
	if x.maxStale <= 0 {
		x.maxStale = DefaultNameIndexMaxStale
	}
	if x.maxApps <= 0 {
		x.maxApps = DefaultNameIndexMaxApps
	}
	n := opts.NameIndexes
	if n <= 0 {
		n = DefaultNameIndexes
	}
	x.cache = state.NewCache("name_index", x.maxStale, n, opts.ObserveCache)
	if sc, ok := opts.SharedCache.(state.SharedChunks); ok {
		x.shared = sc
	}
	return x
}

// local is key's index held by this replica (past the revocation check).
func (x *nameIndexes) local(key string) (*nameIndex, bool) {
	v, ok := x.cache.Get(key)
	if !ok {
		return nil, false
	}
	ix, ok := v.(*nameIndex)
	return ix, ok
}

// newer reports whether ix was read, or edited by a write, after have.
func (ix *nameIndex) newer(have *nameIndex) bool {
	return ix.gen > have.gen || ix.readAt.After(have.readAt)
}

// servable reports whether ix may still be served at now.
func (x *nameIndexes) servable(ix *nameIndex, now time.Time) bool {
	return ix != nil && now.Sub(ix.readAt) <= x.maxStale
}

// nameIndex is c's account's index: this replica's, else the fleet's store's, while no
// older than the max staleness (a read started in the background when it is due),
// else read on the caller's path (readNow). errNameIndexTooLarge: the account is past
// the cap.
func (t *Translator) nameIndex(ctx context.Context, c Caller) (entries []nameEntry, readNow bool, err error) {
	x := t.index
	key := c.cacheKey("apps-index")
	gen := t.writes.Gen(c.AccountID)
	now := t.now()
	ix, ok := x.local(key)
	if !ok || !x.servable(ix, now) || ix.gen < gen {
		// Not held, or behind a write: a write through another replica left its edited
		// index in the store (nameedits.go).
		if s, ok := t.sharedIndex(c, key); ok && x.servable(s, now) && (!x.servable(ix, now) || s.newer(ix)) {
			ix = s
			x.cache.SetLocalFor(key, ix, x.maxStale)
		}
	}
	if x.servable(ix, now) {
		if ix.tooLarge {
			return nil, false, errNameIndexTooLarge
		}
		if (now.Sub(ix.readAt) >= x.refresh || ix.gen != gen) && !now.Before(ix.retryAt) {
			t.refreshIndex(ctx, c, key, ix)
		}
		return ix.entries, false, nil
	}
	ix, err = t.coldIndex(ctx, c, key, gen)
	if err != nil {
		return nil, false, err
	}
	if ix.tooLarge {
		return nil, false, errNameIndexTooLarge
	}
	return ix.entries, true, nil
}

// coldIndex reads key's index on the caller's path, once for every caller asking at
// the same time (deploy hooks of one pipeline arrive together): the first caller reads
// it with its own context and keeps it, the others wait for that read within theirs. A
// caller whose shared read ended because the first caller left (its context's end)
// reads again, at most coldIndexTries times in all.
func (t *Translator) coldIndex(ctx context.Context, c Caller, key string, gen uint64) (*nameIndex, error) {
	x := t.index
	for try := 1; ; try++ {
		ch := x.reads.DoChan(key, func() (any, error) {
			ix, err := t.readIndex(ctx, c, gen)
			if err != nil {
				return nil, err
			}
			t.keepIndex(key, ix)
			return ix, nil
		})
		x.coldWaiting.Add(1) // after DoChan: this caller is the read's or waits for it
		var r singleflight.Result
		select {
		case <-ctx.Done():
			x.coldWaiting.Add(-1)
			return nil, fmt.Errorf("application names: %w", ctx.Err())
		case r = <-ch:
			x.coldWaiting.Add(-1)
		}
		if r.Err == nil {
			return r.Val.(*nameIndex), nil
		}
		leaderLeft := r.Shared && ctx.Err() == nil &&
			(errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, context.DeadlineExceeded))
		if !leaderLeft || try == coldIndexTries {
			return nil, r.Err
		}
	}
}

// coldIndexTries bounds the reads one caller waits for or makes in coldIndex.
const coldIndexTries = 3

// readIndex reads c's account's index from NerdGraph (readNameIndex); an account past
// the cap gives an index marked tooLarge.
func (t *Translator) readIndex(ctx context.Context, c Caller, gen uint64) (*nameIndex, error) {
	ix := &nameIndex{readAt: t.now(), gen: gen}
	// An index read is background work of the key (graphql/slots.go): it holds at most
	// the background share of the key's NerdGraph slots, on the caller's path too.
	entries, err := t.readNameIndex(ng.WithBackground(ctx), c)
	switch {
	case errors.Is(err, errNameIndexTooLarge) || len(entries) > t.index.maxApps:
		ix.tooLarge = true
	case err != nil:
		return nil, err
	default:
		ix.entries = entries
	}
	return ix, nil
}

// keepIndex keeps ix as key's index here and, in a fleet, in the store.
func (t *Translator) keepIndex(key string, ix *nameIndex) {
	t.index.cache.SetLocalFor(key, ix, t.index.maxStale)
	if !ix.tooLarge {
		t.shareIndex(key, ix)
	}
}

// refreshIndex starts the background read of key's index (have, held now) unless one
// is under way for key or all nameIndexRefreshes are busy. The read runs with ctx's
// values (the caller's key) but not its end: under a deadline of its own, its round
// trips counted apart from the request's. In a fleet it first takes an index another
// replica read since have from the store, then the fleet's lock of key (held by
// another replica: that replica reads it). A failed read leaves have served, and the
// next read waits nameIndexRetry.
func (t *Translator) refreshIndex(ctx context.Context, c Caller, key string, have *nameIndex) {
	x := t.index
	x.mu.Lock()
	if x.running[key] {
		x.mu.Unlock()
		return
	}
	select {
	case x.slots <- struct{}{}:
	default:
		x.mu.Unlock()
		return
	}
	x.running[key] = true
	x.wg.Add(1)
	x.mu.Unlock()
	bg, cancel := detached(ctx, nameIndexReadTimeout)
	go func() {
		defer func() {
			cancel()
			x.mu.Lock()
			delete(x.running, key)
			x.mu.Unlock()
			<-x.slots
			x.wg.Done()
		}()
		gen := t.writes.Gen(c.AccountID)
		if ix, ok := t.sharedIndex(c, key); ok && ix.readAt.After(have.readAt) && ix.gen == gen && t.now().Sub(ix.readAt) < x.refresh {
			x.cache.SetLocalFor(key, ix, x.maxStale)
			return
		}
		if x.shared != nil {
			release, ok, err := x.shared.TryLock(bg, "name_index", key, nameIndexReadTimeout)
			if err == nil && !ok {
				return // another replica reads it
			}
			if ok {
				defer release()
			}
		}
		ix, err := t.readIndex(bg, c, gen)
		if err != nil {
			held := *have
			held.retryAt = t.now().Add(nameIndexRetry)
			x.cache.SetLocalFor(key, &held, x.maxStale)
			t.background("name index refresh", err) // the request has been answered
			return
		}
		t.keepIndex(key, ix)
	}()
}

// detached is ctx's values (the caller's key) without its end, notes or round-trip
// count, ending after d.
func detached(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	bg := WithNotes(context.WithoutCancel(ctx), nil)
	bg = ng.WithCalls(bg, &ng.Calls{})
	return context.WithTimeout(bg, d)
}

// waitRefreshes waits for the background reads under way (tests).
func (x *nameIndexes) waitRefreshes() { x.wg.Wait() }
