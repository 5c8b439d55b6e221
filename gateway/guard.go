package gateway

import (
	"net/http"
	"sync"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// Guard gives a REST v2 handler that is not the gateway — the demo's REST double — the
// gateway's admission, limits and throttles, with the same settings (Config) and
// answers: an unclean path is a v2 404 (never a redirect); two different keys are a
// 401; a request waits in the in-flight pool of accepted keys (MaxInFlight) or in that
// of every other request (MaxUnauthenticatedInFlight), 503 with Retry-After beyond it;
// a key the handler refused is answered 401 from the rejected-key cache and its
// address's failures are limited (AuthFailuresPerMinute, 429 with Retry-After); a key
// has REST's per-minute rate limit (RateLimitPerMinute). A key is accepted once the
// handler answers it other than 401 or 403 (it stands for NerdGraph's verdict).
type Guard struct {
	g *Gateway

	mu       sync.Mutex
	accepted map[string]time.Time // key hash → when the handler last accepted it
}

// NewGuard returns a guard with cfg's limits (zero fields take the gateway's defaults).
func NewGuard(cfg Config) *Guard {
	return &Guard{g: New(cfg, nil, nil), accepted: map[string]time.Time{}}
}

// Wrap guards next.
func (gd *Guard) Wrap(next http.Handler) http.Handler {
	g := gd.g
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		format := formatOf(r)
		fail := func(err error) { g.writeError(w, r, format, err) }
		if !cleanPath(r.URL.Path) {
			fail(restv2.NotFound(titleUncleanPath))
			return
		}
		key, _, err := presentedKey(r.Header)
		if err != nil {
			fail(err)
			return
		}
		keyHash, accepted := "", false
		if key != "" {
			keyHash = translate.HashKey(key)
			accepted = gd.isAccepted(keyHash)
		}
		pool := g.unauthSlots
		if accepted {
			pool = g.slots
		}
		select {
		case pool <- struct{}{}:
			defer func() { <-pool }()
		default:
			w.Header().Set("Retry-After", "1")
			fail(restv2.Unavailable("The service is overloaded; retry after a second"))
			return
		}
		if key == "" { // the handler's own 401, which is no guess
			next.ServeHTTP(w, r)
			return
		}
		st := &reqState{}
		if !g.admit(w, fail, r, st, keyHash, accepted) || !g.withinRateLimit(r.Context(), w, r, keyHash) {
			return
		}
		st.sw.ResponseWriter = w
		next.ServeHTTP(&st.sw, r)
		switch st.sw.status {
		case restv2.StatusUnauthorized, restv2.StatusForbidden:
			gd.mu.Lock()
			delete(gd.accepted, keyHash)
			gd.mu.Unlock()
			if st.sw.status == restv2.StatusUnauthorized {
				g.settle(r, st, keyHash)
			}
		default:
			gd.accept(keyHash)
			g.guard.rejected.cleared(keyHash)
		}
	})
}

// guardAcceptedFor is how long a key the handler accepted counts as accepted without
// another answer.
const guardAcceptedFor = time.Hour

func (gd *Guard) isAccepted(keyHash string) bool {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	t, ok := gd.accepted[keyHash]
	return ok && gd.g.now().Sub(t) <= guardAcceptedFor
}

// accept records keyHash as accepted; the keys held are bounded (maxGuardEntries), the
// stale swept first.
func (gd *Guard) accept(keyHash string) {
	now := gd.g.now()
	gd.mu.Lock()
	defer gd.mu.Unlock()
	if _, ok := gd.accepted[keyHash]; !ok && len(gd.accepted) >= maxGuardEntries {
		for h, t := range gd.accepted {
			if now.Sub(t) > guardAcceptedFor {
				delete(gd.accepted, h)
			}
		}
		if len(gd.accepted) >= maxGuardEntries {
			return
		}
	}
	gd.accepted[keyHash] = now
}
