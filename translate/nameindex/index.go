package nameindex

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"golang.org/x/sync/singleflight"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/state"
)

// An account's name index (its applications' REST ids, names and languages, in the
// search's order) serves filter[name] and filter[language] on a large account
// (Lookup). Reading it costs a round trip per page of the account's search, so
// it is kept, per caller and account, and served stale while it is read again:
//
//   - younger than the refresh age (Options.NameIndexRefresh) it is served as is;
//   - older, or behind a write to the account through the gateway that did not edit
//     it (edits.go), it is still served, and one read of it starts in the background (one per key at a time,
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
// store in chunks (store.go), and a replica without it reads it from there
// first; a store lock lets one replica of the fleet read (fleetread.go) or refresh a
// key at a time.

// The name index's defaults and bounds.
const (
	DefaultRefresh  = 5 * time.Minute
	DefaultMaxStale = time.Hour
	DefaultMaxApps  = 200000
	DefaultIndexes  = 64
	// Refreshes bounds the background reads running at once on a replica; a refresh
	// that finds them all busy is not started (a later lookup starts it).
	Refreshes = 4
	// readTimeout bounds one background read (and the fleet lock it holds).
	readTimeout = 5 * time.Minute
	// RefreshRetry is how long after a failed background read the next one waits.
	RefreshRetry = time.Minute
)

// ErrTooLarge: the account holds more applications than an index may.
var ErrTooLarge = errors.New("application names: more applications than the name index holds")

// Options configure Indexes; zero durations and sizes take the defaults.
type Options struct {
	Refresh  time.Duration // age past which an index is read again in the background
	MaxStale time.Duration // age past which it is no longer served
	MaxApps  int           // the most applications an index holds
	Indexes  int           // the most indexes kept
	// Shared, when set, is the fleet's store (store.shared_cache).
	Shared       state.SharedChunks
	ObserveCache func(cache string, hit bool)
	// Client sends the reads (the caller's key on their contexts).
	Client gql.Client
	// Query is the entity search of accountID's APM applications: all of them, those
	// of language eq, or those of none of notIn.
	Query func(accountID int64, eq string, notIn []string) (string, error)
	// AppID is an APM application's REST id from its applicationId and guid.
	AppID func(id int64, guid string) int64
	// Now is the clock; Detach is a context with ctx's values (the caller's key) but
	// not its end, ending after d; Background hears of a background read's failure;
	// Accepted of the fleet's acceptance of a key found with an index in the store.
	Now        func() time.Time
	Detach     func(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
	Background func(what string, err error)
	Accepted   func(keyHash string, left time.Duration)
}

// Caller is who asks: the cache key of its index (its key and account), its key's
// hash (the store's acceptance check) and its account.
type Caller struct {
	Key, KeyHash string
	AccountID    int64
}

// Indexes are a translator's name indexes and their background reads.
type Indexes struct {
	opts     Options
	cache    *state.Cache       // "name_index": *index by Caller.Key
	shared   state.SharedChunks // nil: not in a fleet
	refresh  time.Duration
	maxStale time.Duration
	maxApps  int
	// a cold caller's wait for another replica's read (fleetread.go)
	coldWait, coldPoll time.Duration

	reads       singleflight.Group // cold reads on callers' paths, by key (cold)
	coldWaiting atomic.Int32       // callers in cold's read now, leading or waiting

	edits sync.Mutex // writes' edits of indexes (edits.go), one at a time

	mu      sync.Mutex
	running map[string]bool // keys whose background read is under way
	slots   chan struct{}   // one per background read
	wg      sync.WaitGroup
}

// index is one account's index as a caller reads it.
type index struct {
	entries []Entry
	readAt  time.Time // when its read started
	gen     uint64    // the account's write count then
	// tooLarge: the account holds more than maxApps applications; no entries.
	tooLarge bool
	// retryAt: a background read of it failed; the next waits until then.
	retryAt time.Time
}

// New returns the indexes opts describe.
func New(opts Options) *Indexes {
	x := &Indexes{opts: opts, refresh: opts.Refresh, maxStale: opts.MaxStale, maxApps: opts.MaxApps,
		coldWait: fleetColdWait, coldPoll: fleetColdPoll, running: map[string]bool{}, slots: make(chan struct{}, Refreshes)}
	if x.refresh <= 0 {
		x.refresh = DefaultRefresh
	}
	if x.maxStale <= 0 {
		x.maxStale = DefaultMaxStale
	}
	if x.maxApps <= 0 {
		x.maxApps = DefaultMaxApps
	}
	n := opts.Indexes
	if n <= 0 {
		n = DefaultIndexes
	}
	if x.opts.Now == nil {
		x.opts.Now = time.Now
	}
	if x.opts.Background == nil {
		x.opts.Background = func(string, error) {}
	}
	if x.opts.Accepted == nil {
		x.opts.Accepted = func(string, time.Duration) {}
	}
	if x.opts.Detach == nil {
		x.opts.Detach = func(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.WithoutCancel(ctx), d)
		}
	}
	x.cache = state.NewCache("name_index", x.maxStale, n, opts.ObserveCache)
	x.shared = opts.Shared
	return x
}

// Cache is the indexes' cache (for the translator's key checks and byte bound).
func (x *Indexes) Cache() *state.Cache { return x.cache }

// MaxApps is the most applications an index holds.
func (x *Indexes) MaxApps() int { return x.maxApps }

// local is key's index held by this replica (past the revocation check).
func (x *Indexes) local(key string) (*index, bool) {
	v, ok := x.cache.Get(key)
	if !ok {
		return nil, false
	}
	ix, ok := v.(*index)
	return ix, ok
}

// newer reports whether ix was read, or edited by a write, after have.
func (ix *index) newer(have *index) bool {
	return ix.gen > have.gen || ix.readAt.After(have.readAt)
}

// servable reports whether ix may still be served at now.
func (x *Indexes) servable(ix *index, now time.Time) bool {
	return ix != nil && now.Sub(ix.readAt) <= x.maxStale
}

// Get is c's account's index (gen: the account's write count now): this replica's,
// else the fleet's store's, while no older than the max staleness (a read started in
// the background when it is due), else read on the caller's path (readNow). ErrTooLarge:
// the account is past the cap.
func (x *Indexes) Get(ctx context.Context, c Caller, gen uint64) (entries []Entry, readNow bool, err error) {
	key := c.Key
	now := x.opts.Now()
	ix, ok := x.local(key)
	if !ok || !x.servable(ix, now) || ix.gen < gen {
		// Not held, or behind a write: a write through another replica left its edited
		// index in the store (edits.go).
		if s, ok := x.sharedIndex(c); ok && x.servable(s, now) && (!x.servable(ix, now) || s.newer(ix)) {
			ix = s
			x.cache.SetLocalFor(key, ix, x.maxStale)
		}
	}
	if x.servable(ix, now) {
		if ix.tooLarge {
			return nil, false, ErrTooLarge
		}
		// Behind a write (gen): read again. Ahead of this replica's count (another
		// replica's write, not heard of here yet): it holds that write already.
		if (now.Sub(ix.readAt) >= x.refresh || ix.gen < gen) && !now.Before(ix.retryAt) {
			x.refreshIndex(ctx, c, gen, ix)
		}
		return ix.entries, false, nil
	}
	ix, err = x.cold(ctx, c, gen)
	if err != nil {
		return nil, false, err
	}
	if ix.tooLarge {
		return nil, false, ErrTooLarge
	}
	return ix.entries, true, nil
}

// cold reads c's index on the caller's path, once for every caller asking at
// the same time (deploy hooks of one pipeline arrive together): the first caller reads
// it with its own context and keeps it, the others wait for that read within theirs. A
// caller whose shared read ended because the first caller left (its context's end)
// reads again, at most coldTries times in all.
func (x *Indexes) cold(ctx context.Context, c Caller, gen uint64) (*index, error) {
	wait, cancel := ng.WaitContext(ctx) // the caller waits no longer than its request lasts
	defer cancel()
	for try := 1; ; try++ {
		ch := x.reads.DoChan(c.Key, func() (any, error) {
			return x.readCold(ctx, c, gen)
		})
		x.coldWaiting.Add(1) // after DoChan: this caller is the read's or waits for it
		var r singleflight.Result
		select {
		case <-wait.Done():
			x.coldWaiting.Add(-1)
			return nil, fmt.Errorf("application names: %w", wait.Err())
		case r = <-ch:
			x.coldWaiting.Add(-1)
		}
		if r.Err == nil {
			return r.Val.(*index), nil
		}
		leaderLeft := r.Shared && ctx.Err() == nil &&
			(errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, context.DeadlineExceeded))
		if !leaderLeft || try == coldTries {
			return nil, r.Err
		}
	}
}

// coldTries bounds the reads one caller waits for or makes in cold.
const coldTries = 3

// read reads c's account's index from NerdGraph (Read); an account past the cap gives
// an index marked tooLarge.
func (x *Indexes) read(ctx context.Context, c Caller, gen uint64) (*index, error) {
	ix := &index{readAt: x.opts.Now(), gen: gen}
	// An index read is background work of the key (graphql/slots.go): it holds at most
	// the background share of the key's NerdGraph slots, on the caller's path too.
	entries, err := x.Read(ng.WithBackground(ctx), c)
	switch {
	case errors.Is(err, ErrTooLarge) || len(entries) > x.maxApps:
		ix.tooLarge = true
	case err != nil:
		return nil, err
	default:
		ix.entries = entries
	}
	return ix, nil
}

// keep keeps ix as c's index here and, in a fleet, in the store.
func (x *Indexes) keep(c Caller, ix *index) {
	x.cache.SetLocalFor(c.Key, ix, x.maxStale)
	if !ix.tooLarge {
		x.share(c.Key, ix)
	}
}

// refreshIndex starts the background read of c's index (have, held now) unless one
// is under way for it or all Refreshes are busy. The read runs with ctx's
// values (the caller's key) but not its end: under a deadline of its own, its round
// trips counted apart from the request's. In a fleet it first takes an index another
// replica read since have from the store, then the fleet's lock of key (held by
// another replica: that replica reads it). A failed read leaves have served, and the
// next read waits RefreshRetry.
func (x *Indexes) refreshIndex(ctx context.Context, c Caller, gen uint64, have *index) {
	key := c.Key
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
	bg, cancel := x.opts.Detach(ctx, readTimeout)
	go func() {
		defer func() {
			cancel()
			x.mu.Lock()
			delete(x.running, key)
			x.mu.Unlock()
			<-x.slots
			x.wg.Done()
		}()
		if ix, ok := x.sharedIndex(c); ok && ix.readAt.After(have.readAt) && ix.gen == gen && x.opts.Now().Sub(ix.readAt) < x.refresh {
			x.cache.SetLocalFor(key, ix, x.maxStale)
			return
		}
		if x.shared != nil {
			release, ok, err := x.shared.TryLock(bg, "name_index", key, readTimeout)
			if err == nil && !ok {
				return // another replica reads it
			}
			if ok {
				defer release()
			}
		}
		ix, err := x.read(bg, c, gen)
		if err != nil {
			held := *have
			held.retryAt = x.opts.Now().Add(RefreshRetry)
			x.cache.SetLocalFor(key, &held, x.maxStale)
			x.opts.Background("name index refresh", err) // the request has been answered
			return
		}
		x.keep(c, ix)
	}()
}

// WaitRefreshes waits for the background reads under way (tests).
func (x *Indexes) WaitRefreshes() { x.wg.Wait() }

// Stats are what a replica's indexes are doing now.
type Stats struct {
	Refreshing  int // background reads under way
	ColdWaiting int // callers in a cold read, leading or waiting
}

// Stats are x's now.
func (x *Indexes) Stats() Stats {
	x.mu.Lock()
	defer x.mu.Unlock()
	return Stats{Refreshing: len(x.running), ColdWaiting: int(x.coldWaiting.Load())}
}

// Held is c's index as this replica holds it (ok): its entries, and whether its
// account is past the cap.
func (x *Indexes) Held(c Caller) (entries []Entry, tooLarge, ok bool) {
	ix, ok := x.local(c.Key)
	if !ok {
		return nil, false, false
	}
	return ix.entries, ix.tooLarge, true
}

// Holds reports whether this replica holds c's index, still servable now.
func (x *Indexes) Holds(c Caller) bool {
	ix, ok := x.local(c.Key)
	return ok && x.servable(ix, x.opts.Now())
}
