package gateway

import (
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/v2bridge/v2bridge/state"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Defaults of the unauthenticated-flood guard (issue 17 item 1).
const (
	// DefaultRejectedKeyTTL is how long a key NerdGraph refused is answered 401 without
	// asking NerdGraph again.
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
	rejected *state.Cache // key hash → struct{}
	failures *rateLimiter // per client address: failed authentications a minute
	metrics  *Metrics
}

func newAuthGuard(cfg Config) *authGuard {
	ag := &authGuard{metrics: cfg.Metrics}
	if cfg.RejectedKeyTTL >= 0 {
		ttl := cfg.RejectedKeyTTL
		if ttl == 0 {
			ttl = DefaultRejectedKeyTTL
		}
		ag.rejected = state.NewCache("rejected_keys", ttl, maxGuardEntries, nil)
	}
	limit := cfg.AuthFailuresPerMinute
	if limit == 0 {
		limit = DefaultAuthFailuresPerMinute
	}
	if limit > 0 {
		now := cfg.Now
		if now == nil {
			now = time.Now
		}
		ag.failures = newRateLimiter(limit, now)
		ag.failures.maxWindows = maxGuardEntries
	}
	return ag
}

// clientAddress is the address a request came from: the connection's peer, never a
// header a caller can set.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// admit decides, before any work, whether a request with a key that NerdGraph has not
// accepted recently may go on. It answers (and returns false) 429 with Retry-After
// when the client address has used up its failed authentications, and 401 when the
// key was refused within the rejected-key TTL.
func (g *Gateway) admit(w http.ResponseWriter, fail func(error), r *http.Request, keyHash string, accepted bool) bool {
	if accepted {
		return true
	}
	ag := g.guard
	if ag.failures != nil {
		if over, reset := ag.failures.exhausted(clientAddress(r)); over {
			ag.metrics.authRefused.WithLabelValues("address_limit").Inc()
			w.Header().Set("Retry-After", strconv.Itoa(max(int(time.Until(reset).Seconds())+1, 1)))
			fail(&v2.Error{Status: http.StatusTooManyRequests,
				Title: "Too many failed authentications from this address; retry later"})
			return false
		}
	}
	if _, ok := ag.rejected.Get(keyHash); ok {
		ag.metrics.authRefused.WithLabelValues("rejected_key").Inc()
		fail(&v2.Error{Status: http.StatusUnauthorized, Title: "Invalid API key"})
		return false
	}
	return true
}

// settle runs when a request has been answered: a 401 is a failed authentication
// (counted against the client address, the key hash remembered, the key's rate-limit
// window dropped); an answer to a key NerdGraph accepted earns the caller its usage
// row (report and per-caller series), which no other request gets.
func (g *Gateway) settle(r *http.Request, st *reqState, keyHash string) {
	if st == nil {
		return
	}
	if st.sw.status == http.StatusUnauthorized {
		if g.guard.failures != nil {
			g.guard.failures.allow(clientAddress(r))
		}
		g.guard.rejected.Set(keyHash, struct{}{})
		if g.limit != nil {
			g.limit.forget(keyHash)
		}
		return
	}
	if g.tr.KeyAccepted(keyHash) {
		st.callerHash = keyHash[:8]
	}
}
