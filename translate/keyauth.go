package translate

import (
	"context"
	"errors"
	"sync"
	"time"

	gql "github.com/Khan/genqlient/graphql"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/state"
)

// AuthTTL is the default of Options.AuthTTL: how long after NerdGraph last accepted a
// key its cached answers may still be served to it.
const AuthTTL = 5 * time.Second

// authSweepAfter is how long an accepted key is remembered: longer than any cache's
// lifetime (10 minutes at most), so a key with cached entries is always known.
const authSweepAfter = time.Hour

type keyHashKey struct{}

// WithKeyHash puts the hash of the caller's presented key on ctx, so that NerdGraph's
// verdict on the key (accepted, or refused with 401/403) is recorded against it.
func WithKeyHash(ctx context.Context, keyHash string) context.Context {
	return context.WithValue(ctx, keyHashKey{}, keyHash)
}

func keyHashFrom(ctx context.Context) string {
	s, _ := ctx.Value(keyHashKey{}).(string)
	return s
}

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

// fresh reports whether a cached answer may be served to keyHash: NerdGraph accepted it
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

// known reports whether NerdGraph accepted keyHash within the last hour.
func (a *keyAuth) known(keyHash string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.seen[keyHash]
	return ok
}

// authClient records NerdGraph's verdict on the caller's key after every call: an
// answer accepts it, a 401/403 refuses it.
type authClient struct {
	next gql.Client
	auth *keyAuth
}

func (a authClient) MakeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) error {
	err := a.next.MakeRequest(ctx, req, resp)
	keyHash := keyHashFrom(ctx)
	if keyHash == "" {
		return err
	}
	var ge *ng.Error
	switch {
	case err == nil:
		a.auth.accepted(keyHash)
	case errors.As(err, &ge) && (ge.Kind == ng.KindAuth || ge.Kind == ng.KindForbidden):
		a.auth.refused(keyHash)
	case errors.As(err, &ge) && ge.Status == 200:
		a.auth.accepted(keyHash) // an answer with errors (partial data): the key is good
	}
	return err
}

// fleetAccepted takes the fleet's acceptance of keyHash, with left of its auth TTL to
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
