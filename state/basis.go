package state

import "time"

// An answer read wholly from the caches is the same answer for as long as every entry
// it read is still the entry the same request would read: the gateway keeps such an
// answer's bytes and serves them again while Stores.Holds says so (its replay of
// cached answers). The reads that can vouch for an answer note each entry they served
// on a Basis: the cache, the key, the entry's stamp, the account write count the key
// was built with, and until when the clock leaves the key unchanged. A request that
// read anything else, or called NerdGraph, is not replayed.

// MaxBasisReads bounds the entries one answer's Basis names (the account list, an
// instance's membership for instance-scoped metrics, and the answer's own entry).
const MaxBasisReads = 3

// Basis is the cache entries one answer was read from (zero value: none).
type Basis struct {
	reads [MaxBasisReads]Read
	n     int
	// spoiled: a read could not vouch (an entry from the fleet's store, which has no
	// stamp here, or more reads than fit): the answer is not replayable.
	spoiled bool
	// until is when the clock next changes a key the reads built (zero: never).
	until time.Time
}

// Read is one cache entry an answer was read from.
type Read struct {
	Cache *Cache
	Key   string
	Stamp Stamp
	// Account and Gen: when Genned, the key holds the account's write count Gen
	// (Writes.Gen).
	Account int64
	Gen     uint64
	Genned  bool
}

// Usable is whether b names at least one entry and nothing spoiled it.
func (b *Basis) Usable() bool { return b.n > 0 && !b.spoiled }

// Len is the number of entries b names.
func (b *Basis) Len() int { return b.n }

// KeyBytes is the length of the keys b names (a kept answer's size).
func (b *Basis) KeyBytes() int64 {
	var n int64
	for _, r := range b.reads[:b.n] {
		n += int64(len(r.Key))
	}
	return n
}

// Expires is when the earliest of b's entries expires (zero for an unusable b).
func (b *Basis) Expires() time.Time {
	if !b.Usable() {
		return time.Time{}
	}
	first := b.reads[0].Stamp.Expires()
	for _, r := range b.reads[1:b.n] {
		if e := r.Stamp.Expires(); e.Before(first) {
			first = e
		}
	}
	return first
}

// Note adds r to b, until being when the clock next changes r's key (zero: never); an
// entry without a stamp, or one past MaxBasisReads, spoils b.
func (b *Basis) Note(r Read, until time.Time) {
	if r.Stamp.Expires().IsZero() || b.n == len(b.reads) {
		b.spoiled = true
		return
	}
	b.reads[b.n] = r
	b.n++
	if !until.IsZero() && (b.until.IsZero() || until.Before(b.until)) {
		b.until = until
	}
}

// Holds reports whether every entry b names is still what its read would read at now:
// present, not replaced, its key hash fresh, the account's write count unchanged and
// now before b's until.
func (s *Stores[D]) Holds(b *Basis, now time.Time) bool {
	if s == nil || !b.Usable() {
		return false
	}
	if !b.until.IsZero() && !now.Before(b.until) {
		return false
	}
	for _, r := range b.reads[:b.n] {
		if r.Genned && s.Writes.Gen(r.Account) != r.Gen {
			return false
		}
		if !r.Cache.Holds(r.Key, r.Stamp) {
			return false
		}
	}
	return true
}
