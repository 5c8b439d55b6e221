package gateway

import (
	"sync"
	"time"
)

// recheckSpacing is how often, at most, a refused key whose rejected-key TTL has run
// out is checked with NerdGraph again: the first request after the TTL is the check;
// other requests of the key within recheckSpacing of it are answered 401 from the cache.
const recheckSpacing = time.Second

// rejectedKeys is the cache of keys NerdGraph refused (by hash). A key's entry holds
// when it may next be checked with NerdGraph: ttl after NerdGraph's refusal. The 401s
// served from the cache never move that time, so a key NerdGraph accepts again heals
// within ttl however often its callers poll; after it, one request a recheckSpacing
// goes to NerdGraph, whose verdict either refuses the key for another ttl or clears it.
// Entries are bounded by max (a refusal beyond it is not remembered; the per-address
// failure limit still holds) and swept once stale.
type rejectedKeys struct {
	ttl, spacing time.Duration
	max          int
	now          func() time.Time

	mu    sync.Mutex
	next  map[string]time.Time // key hash → when the key may be checked again
	sweep time.Time
}

func newRejectedKeys(ttl time.Duration, max int, now func() time.Time) *rejectedKeys {
	return &rejectedKeys{ttl: ttl, spacing: min(recheckSpacing, ttl), max: max, now: now, next: map[string]time.Time{}}
}

// refuse reports whether a request with keyHash is answered 401 from the cache. When
// the key's time has come it reports false for this request, the key's check, and
// holds the others back for the spacing.
func (k *rejectedKeys) refuse(keyHash string) bool {
	if k == nil {
		return false
	}
	now := k.now()
	k.mu.Lock()
	defer k.mu.Unlock()
	next, ok := k.next[keyHash]
	switch {
	case !ok:
		return false
	case now.Before(next):
		return true
	}
	k.next[keyHash] = now.Add(k.spacing)
	return false
}

// refused records NerdGraph's refusal of keyHash: 401 from the cache for ttl.
func (k *rejectedKeys) refused(keyHash string) {
	if k == nil {
		return
	}
	now := k.now()
	k.mu.Lock()
	defer k.mu.Unlock()
	if now.Sub(k.sweep) > k.ttl {
		for h, next := range k.next {
			if now.Sub(next) > k.ttl {
				delete(k.next, h)
			}
		}
		k.sweep = now
	}
	if _, ok := k.next[keyHash]; ok || len(k.next) < k.max {
		k.next[keyHash] = now.Add(k.ttl)
	}
}

// cleared forgets keyHash: NerdGraph accepted it.
func (k *rejectedKeys) cleared(keyHash string) {
	if k == nil {
		return
	}
	k.mu.Lock()
	delete(k.next, keyHash)
	k.mu.Unlock()
}
