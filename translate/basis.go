package translate

import (
	"context"
	"time"

	"github.com/v2bridge/v2bridge/state"
)

// An answer read wholly from the translator's caches is the same answer for as long as
// every entry it read is still the entry the same request would read: the gateway
// keeps such an answer's bytes and serves them again while Holds says so (its replay
// of cached answers). The reads that can vouch for an answer note each entry they
// served on the request's Notes (a Basis): the cache, the key, the entry's stamp, the
// account write count the key was built with, and until when the clock leaves the
// key unchanged. A request that read anything else, or called NerdGraph, is not
// replayed; the gateway lists the routes whose every read vouches.

// maxBasisReads bounds the entries one answer's Basis names (the account list, an
// instance's membership for instance-scoped metrics, and the answer's own entry).
const maxBasisReads = 3

// Basis is the cache entries one answer was read from (zero value: none).
type Basis struct {
	reads [maxBasisReads]basisRead
	n     int
	// spoiled: a read could not vouch (an entry from the fleet's store, which has no
	// stamp here, or more reads than fit): the answer is not replayable.
	spoiled bool
	// until is when the clock next changes a key the reads built (zero: never).
	until time.Time
}

type basisRead struct {
	cache *state.Cache
	key   string
	stamp state.Stamp
	// account and gen: the key holds the account's write count gen (writeScoped).
	account int64
	gen     uint64
	genned  bool
}

// Usable is whether b names at least one entry and nothing spoiled it.
func (b *Basis) Usable() bool { return b.n > 0 && !b.spoiled }

// KeyBytes is the length of the keys b names (a kept answer's size).
func (b *Basis) KeyBytes() int64 {
	var n int64
	for _, r := range b.reads[:b.n] {
		n += int64(len(r.key))
	}
	return n
}

// Expires is when the earliest of b's entries expires (zero for an unusable b).
func (b *Basis) Expires() time.Time {
	if !b.Usable() {
		return time.Time{}
	}
	first := b.reads[0].stamp.Expires()
	for _, r := range b.reads[1:b.n] {
		if e := r.stamp.Expires(); e.Before(first) {
			first = e
		}
	}
	return first
}

// Holds reports whether every entry b names is still what its read would read now:
// present, not replaced, its key hash fresh, the account's write count unchanged and
// the clock before b's until.
func (t *Translator) Holds(b *Basis) bool {
	if t == nil || !b.Usable() {
		return false
	}
	if !b.until.IsZero() && !t.now().Before(b.until) {
		return false
	}
	for _, r := range b.reads[:b.n] {
		if r.genned && t.st.Writes.Gen(r.account) != r.gen {
			return false
		}
		if !r.cache.Holds(r.key, r.stamp) {
			return false
		}
	}
	return true
}

// Basis returns a copy of the basis the request's reads noted.
func (n *Notes) Basis() Basis {
	if n == nil {
		return Basis{}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.basis == nil {
		return Basis{}
	}
	return *n.basis
}

// note adds r to the basis (no entry stamped, or no room: spoiled).
func (n *Notes) note(r basisRead, until time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.basis == nil {
		n.basis = new(Basis) // only a request read from the caches has one
	}
	b := n.basis
	if r.stamp.Expires().IsZero() || b.n == len(b.reads) {
		b.spoiled = true
		return
	}
	b.reads[b.n] = r
	b.n++
	if !until.IsZero() && (b.until.IsZero() || until.Before(b.until)) {
		b.until = until
	}
}

// vouchedGet is cache.Get that notes the entry it served on the request's Notes (see
// Basis); until is when the clock next changes key (zero: never).
func vouchedGet(ctx context.Context, cache *state.Cache, key string, until time.Time) (any, bool) {
	return vouchedGetGen(ctx, cache, key, basisRead{}, until)
}

// vouchedGetGen is vouchedGet for a key holding an account's write count (r's account
// and gen).
func vouchedGetGen(ctx context.Context, cache *state.Cache, key string, r basisRead, until time.Time) (any, bool) {
	v, stamp, ok := cache.GetStamped(key)
	if !ok {
		return v, false
	}
	if n, _ := ctx.Value(notesKey{}).(*Notes); n != nil {
		r.cache, r.key, r.stamp = cache, key, stamp
		n.note(r, until)
	}
	return v, true
}
