package gateway

import (
	"context"
	"errors"
	"sync"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/translate"
)

// Key acceptance at the edge: the gateway remembers when NerdGraph last accepted each
// caller's key (by hash), from the outcome of every call the translator makes for it
// (translate.KeyVerdicts). Only accepted keys get cached answers (within AuthTTL), the
// usage report's rows, per-caller series and the accepted callers' pool of slots; a
// refusal drops the key's cached answers at once.

// AuthTTL is the default of Config.AuthTTL: how long after NerdGraph last accepted a
// key its cached answers may still be served to it.
const AuthTTL = 5 * time.Second

// authSweepAfter is how long an accepted key is remembered: longer than any cache's
// lifetime (10 minutes at most), so a key with cached entries is always known.
const authSweepAfter = time.Hour

// keyAuth remembers when NerdGraph last accepted each key (by hash). Only keys that
// NerdGraph accepted are held, so callers with invented keys allocate nothing here.
type keyAuth struct {
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	seen  map[string]time.Time
	sweep time.Time
	drop  func(keyHash string) // drops a revoked key's cache entries
	// fleet, when set, shares the verdicts (store.shared_cache).
	fleet state.SharedCache
}

// newKeyAuth is the acceptance of the keys tr's calls are made with: ttl is the auth
// TTL (0: AuthTTL; negative: no check), now the clock; the verdicts are shared through
// tr's fleet store when it has one, and a refusal drops the key's cached answers.
func newKeyAuth(ttl time.Duration, now func() time.Time, tr *translate.Translator) *keyAuth {
	if ttl == 0 {
		ttl = AuthTTL
	}
	a := &keyAuth{ttl: ttl, now: now, seen: map[string]time.Time{}}
	if tr != nil {
		a.fleet, a.drop = tr.SharedCache(), tr.DropKey
		tr.UseKeys(a)
	}
	return a
}

func (a *keyAuth) accepted(keyHash string) {
	now := a.now()
	a.mu.Lock()
	a.seen[keyHash] = now
	if now.Sub(a.sweep) > authSweepAfter/4 {
		for k, t := range a.seen {
			if now.Sub(t) > authSweepAfter {
				delete(a.seen, k)
			}
		}
		a.sweep = now
	}
	a.mu.Unlock()
	if a.fleet != nil {
		a.shareVerdict(keyHash, true)
	}
}

// refused forgets a key NerdGraph refused and drops its cached answers at once.
func (a *keyAuth) refused(keyHash string) {
	a.mu.Lock()
	_, known := a.seen[keyHash]
	delete(a.seen, keyHash)
	a.mu.Unlock()
	if known && a.drop != nil {
		a.drop(keyHash)
	}
	if a.fleet != nil {
		a.shareVerdict(keyHash, false)
	}
}

// Fresh reports whether a cached answer may be served to keyHash: NerdGraph accepted it
// within the TTL. A key never seen (a caller that did not go through the gateway's
// pipeline, such as a unit test's) is not held back: every cached answer of a key the
// gateway serves was fetched with that key, which recorded it.
func (a *keyAuth) Fresh(keyHash string) bool {
	if a == nil || a.ttl < 0 {
		return true
	}
	a.mu.Lock()
	t, ok := a.seen[keyHash]
	a.mu.Unlock()
	return !ok || a.now().Sub(t) <= a.ttl
}

// known reports whether NerdGraph accepted keyHash within the last hour: only such
// callers get usage-report rows and per-caller series.
func (a *keyAuth) known(keyHash string) bool {
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.seen[keyHash]
	return ok
}

// Verdict records NerdGraph's verdict on keyHash from the outcome of a call made with
// it (translate.KeyVerdicts): an answer accepts it, a 401/403 refuses it, any other
// failure says nothing of the key.
func (a *keyAuth) Verdict(keyHash string, err error) {
	var ge *ng.Error
	switch {
	case err == nil:
		a.accepted(keyHash)
	case errors.As(err, &ge) && (ge.Kind == ng.KindAuth || ge.Kind == ng.KindForbidden):
		a.refused(keyHash)
	case errors.As(err, &ge) && ge.Status == restv2.StatusOK:
		a.accepted(keyHash) // an answer with errors (partial data): the key is good
	}
}

// FleetAccepted takes the fleet's acceptance of keyHash, with left of its auth TTL to
// run, as this replica's (a cache read the key's entry from the fleet's store), so the
// local hits that follow keep the AuthTTL rule.
func (a *keyAuth) FleetAccepted(keyHash string, left time.Duration) {
	if a.ttl >= 0 {
		a.acceptedAt(keyHash, a.now().Add(left-a.ttl))
	}
}

// acceptedAt records that the fleet saw NerdGraph accept keyHash at t (a later local
// record is kept).
func (a *keyAuth) acceptedAt(keyHash string, t time.Time) {
	a.mu.Lock()
	if t.After(a.seen[keyHash]) {
		a.seen[keyHash] = t
	}
	a.mu.Unlock()
}

// shareVerdict tells the fleet NerdGraph's verdict on keyHash: accepted, its shared
// entries are served for the auth TTL (an hour when the check is off); refused, at
// once no more.
func (a *keyAuth) shareVerdict(keyHash string, accepted bool) {
	ctx, cancel := context.WithTimeout(context.Background(), state.SharedTimeout)
	defer cancel()
	if !accepted {
		a.fleet.KeyRefused(ctx, keyHash)
		return
	}
	ttl := a.ttl
	if ttl < 0 {
		ttl = authSweepAfter
	}
	a.fleet.KeyAccepted(ctx, keyHash, ttl)
}
