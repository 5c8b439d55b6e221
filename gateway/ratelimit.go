package gateway

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
)

// rateLimiter is REST v2's per-key limit: a fixed one-minute window per key hash
// (1000 calls a minute, X-RateLimit-* headers, 429 with an empty object body, as
// rateLimitDocs describes). Windows are kept per key hash only and swept as they expire.
type rateLimiter struct {
	limit int
	now   func() time.Time
	// maxWindows, when positive, bounds the windows held: a new key beyond it is
	// treated as having used up its limit (the failed-authentication limit fails
	// closed for unknown addresses under a flood from more than that many).
	maxWindows int

	// shared, when set, counts calls fleet-wide; windows then mirror it.
	shared state.SharedLimits

	mu      sync.Mutex
	windows map[string]*window
	sweep   time.Time
}

type window struct {
	start time.Time
	count int
}

func newRateLimiter(limit int, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, now: now, windows: map[string]*window{}}
}

// allow counts one call of keyHash and returns whether it is within the limit, the
// calls left in the window and when the window resets.
func (l *rateLimiter) allow(keyHash string) (ok bool, remaining int, reset time.Time) {
	now := l.now()
	start := now.Truncate(time.Minute)
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > time.Minute {
		for k, w := range l.windows {
			if w.start.Before(start) {
				delete(l.windows, k)
			}
		}
		l.sweep = now
	}
	w := l.windows[keyHash]
	if w == nil && l.maxWindows > 0 && len(l.windows) >= l.maxWindows {
		return false, 0, start.Add(time.Minute)
	}
	if w == nil || w.start != start {
		w = &window{start: start}
		l.windows[keyHash] = w
	}
	reset = start.Add(time.Minute)
	if w.count >= l.limit {
		return false, 0, reset
	}
	w.count++
	return true, l.limit - w.count, reset
}

// exhausted reports, without counting, whether key has used up the current window.
func (l *rateLimiter) exhausted(key string) (bool, time.Time) {
	now := l.now()
	start := now.Truncate(time.Minute)
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[key]
	if w == nil {
		return l.maxWindows > 0 && len(l.windows) >= l.maxWindows, start.Add(time.Minute)
	}
	return w.start == start && w.count >= l.limit, start.Add(time.Minute)
}

// forget drops key's window: a key NerdGraph refused keeps no state here (its caller's
// failures are counted per address instead).
func (l *rateLimiter) forget(key string) {
	l.mu.Lock()
	delete(l.windows, key)
	l.mu.Unlock()
	if l.shared != nil {
		l.shared.Forget(context.Background(), key, l.now().Truncate(time.Minute))
	}
}

// rateLimitDocs is the X-RateLimit-Docs of REST's 429, as docs-website
// src/content/docs/apis/rest-api-v2/basic-functions/api-overload-protection-handling-429-errors.mdx
// shows it ("Hyperlink to this document").
const rateLimitDocs = "https://docs.newrelic.com/docs/apis/rest-api-v2/requirements/api-overload-protection-preventing-429-errors"

func (l *rateLimiter) headers(h interface{ Set(string, string) }, remaining int, reset time.Time) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(l.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
}

// Fleet mode: with Config.Store set, the per-key rate limit is counted in
// the shared store, so X-RateLimit-* show the fleet's numbers and N replicas allow
// the limit once, not N times. When the store does not answer within its timeout the
// replica counts on its own (per-replica limits, declared in the README); it keeps a
// mirror of the fleet's count of each key's window, so a fallback continues from the
// fleet's number instead of from zero.

// allowFleet is allow counted fleet-wide when the limiter has a store.
func (l *rateLimiter) allowFleet(ctx context.Context, keyHash string) (ok bool, remaining int, reset time.Time) {
	if l.shared == nil {
		return l.allow(keyHash)
	}
	start := l.now().Truncate(time.Minute)
	floor := 0
	l.mu.Lock()
	if w := l.windows[keyHash]; w != nil && w.start == start {
		floor = w.count
	}
	l.mu.Unlock()
	ok, count, err := l.shared.Allow(ctx, keyHash, l.limit, start, time.Minute, floor)
	if err != nil {
		return l.allow(keyHash) // the store is down or slow: this replica's own count
	}
	l.mu.Lock()
	w := l.windows[keyHash]
	if w == nil || w.start != start {
		w = &window{start: start}
		l.windows[keyHash] = w
	}
	// The store took floor (this replica's view) into its count atomically; answers of
	// concurrent calls may arrive out of order, so the mirror only ever grows.
	w.count = max(w.count, min(count, l.limit))
	l.mu.Unlock()
	return ok, max(l.limit-count, 0), start.Add(time.Minute)
}

// Defaults of the unauthenticated-flood guard.
const (
	// DefaultRejectedKeyTTL is how long after NerdGraph refused a key it is answered 401
	// without asking NerdGraph again (the cached 401s do not extend it).
	DefaultRejectedKeyTTL = 30 * time.Second
	// DefaultAuthFailuresPerMinute is how many failed authentications one client
	// address may make in a minute before its unaccepted keys are answered 429.
	DefaultAuthFailuresPerMinute = 60
	// maxGuardEntries bounds the rejected-key cache and the per-address windows.
	maxGuardEntries = 10000
)

// authGuard keeps callers with invalid keys from costing the gateway memory or
// NerdGraph calls without bound: a short negative cache of refused keys (by hash) and
// a per-address limit on failed authentications. Neither allocates per key for a
// caller whose key NerdGraph accepted.
type authGuard struct {
	rejected *rejectedKeys
	failures *rateLimiter // per client address: failed authentications a minute
	metrics  *Metrics
}

func newAuthGuard(cfg Config) *authGuard {
	ag := &authGuard{metrics: cfg.Metrics}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	if cfg.RejectedKeyTTL >= 0 {
		ttl := cfg.RejectedKeyTTL
		if ttl == 0 {
			ttl = DefaultRejectedKeyTTL
		}
		ag.rejected = newRejectedKeys(ttl, maxGuardEntries, now)
	}
	limit := cfg.AuthFailuresPerMinute
	if limit == 0 {
		limit = DefaultAuthFailuresPerMinute
	}
	if limit > 0 {
		ag.failures = newRateLimiter(limit, now)
		ag.failures.maxWindows = maxGuardEntries
	}
	return ag
}

// admit decides, before any work, whether a request with a key that NerdGraph has not
// accepted recently may go on. It answers (and returns false) 429 with Retry-After
// when the client address has used up its failed authentications, and 401 when the
// key was refused within the rejected-key TTL (marking st's 401 as the cache's).
func (g *Gateway) admit(w http.ResponseWriter, fail func(error), r *http.Request, st *reqState, keyHash string, accepted bool) bool {
	if accepted {
		return true
	}
	ag := g.guard
	if ag.failures != nil {
		if over, reset := ag.failures.exhausted(g.clientOf(r)); over {
			ag.metrics.authRefused.WithLabelValues("address_limit").Inc()
			w.Header().Set("Retry-After", retryAfter(reset, g.now()))
			fail(restv2.TooManyRequests("Too many failed authentications from this address; retry later"))
			return false
		}
	}
	if ag.rejected.refuse(keyHash) {
		if st != nil {
			st.cachedRefusal = true
		}
		ag.metrics.authRefused.WithLabelValues("rejected_key").Inc()
		fail(restv2.ErrInvalidAPIKey())
		return false
	}
	return true
}

// settle runs when a request has been answered: a 401 is a failed authentication
// (counted against the client address, the key's rate-limit window dropped, and the
// key hash remembered unless the 401 came from that memory: a cached refusal never
// extends itself); an answer to a key NerdGraph accepted earns the caller its usage
// row (report and per-caller series), which no other request gets.
func (g *Gateway) settle(r *http.Request, st *reqState, keyHash string) {
	if st == nil {
		return
	}
	if st.sw.status == restv2.StatusUnauthorized {
		if g.guard.failures != nil {
			g.guard.failures.allow(g.clientOf(r))
		}
		if !st.cachedRefusal {
			g.guard.rejected.refused(keyHash)
		}
		if g.limit != nil {
			g.limit.forget(keyHash)
		}
		return
	}
	if g.keys.known(keyHash) {
		st.callerHash = keyHash[:8]
		if !st.accepted {
			g.guard.rejected.cleared(keyHash) // a refused key's check that NerdGraph passed
		}
	}
}

// retryAfter is the Retry-After of a 429 whose window resets at reset, seen at now (the
// gateway's clock): the whole seconds left, plus one, at least 1.
func retryAfter(reset, now time.Time) string {
	return strconv.Itoa(max(int(reset.Sub(now).Seconds())+1, 1))
}
