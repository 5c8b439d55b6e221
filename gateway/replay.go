package gateway

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/translate"
)

// Replay of cached answers. A GET that a route answered from the translator's caches
// alone (no NerdGraph call, nothing capped or degraded, a 200 with the cached
// document's own rendered bytes) is kept, per caller and request, with the cache
// entries it was read from (state.Basis). The same request again is answered from
// it before routing, while translate.Holds says every one of those entries is still
// what the request would read: so a replay answers what the whole pipeline would,
// byte for byte, and costs a lookup instead of routing, request parsing, account
// resolution and the handler. What every request gets still runs for a replay:
// admission and shedding, the key's acceptance, the rate limit and its headers, the
// request id, Server-Timing, metrics, the usage report's row and the access log.
//
// Only routes marked replay (Route.replay) are kept: each of their reads vouches for
// its entry (translate's vouchedGet), the account list when the account came from it
// included. A request is replayed only as it was kept: the same key (sent as Api-Key
// or X-Api-Key), path, query and account headers, no body and no If-None-Match.

// Replay store bounds: entries, and the bytes they are estimated to hold (each entry
// shares its body with the cached document, so the memory they add is less).
const (
	replayEntries = 10000
	replayBytes   = 16 << 20
	// replayTTL is the store's default lifetime (each entry is kept for as long as the
	// earliest entry of its basis, which is never longer than the caches' TTLs).
	replayTTL = time.Minute
)

// replayAnswer is a kept answer.
type replayAnswer struct {
	basis state.Basis
	// header is the answer's header without the values made per request
	// (perRequestHeader); net/http only reads the slices, so replays share them.
	header        http.Header
	body          []byte // the cached document's rendered bytes, shared with it
	route         string
	fidelity      Fidelity
	account       int64
	accountSource string
}

// CacheSize is the kept answer's estimated size (state.Sizer): its body, header and
// basis keys, and the struct. The basis names caches, which a walk must not follow.
func (a *replayAnswer) CacheSize() int64 {
	n := int64(len(a.body)) + a.basis.KeyBytes() + 256
	for k, vs := range a.header {
		n += int64(len(k)) + 40
		for _, v := range vs {
			n += int64(len(v)) + 16
		}
	}
	return n
}

// perRequestHeader names the headers each answer sets anew.
func perRequestHeader(name string) bool {
	switch name {
	case "X-Request-Id", "Server-Timing", "X-V2bridge-Upstream-Calls", "Date", "Retry-After",
		"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset", "X-Ratelimit-Docs":
		return true
	}
	return false
}

// replays is the gateway's store of kept answers with its hit and miss counters.
type replays struct {
	store     *state.Cache
	hit, miss prometheus.Counter
	tr        *translate.Translator
	keys      *keyAuth
}

func newReplays(tr *translate.Translator, keys *keyAuth, m *Metrics) *replays {
	if tr == nil {
		return nil
	}
	store := state.NewCache("replay", replayTTL, replayEntries, nil)
	store.LimitBytes(replayBytes)
	return &replays{store: store, tr: tr, keys: keys,
		hit: m.cache.WithLabelValues("replay", "hit"), miss: m.cache.WithLabelValues("replay", "miss")}
}

// replayKey is the kept answer's key: the caller's key hash first (state.Cache's
// layout), then everything of the request a replayable route reads.
func replayKey(r *http.Request, keyHash string) string {
	h := r.Header
	acct, nrAcct := h.Get("X-Account-Id"), h.Get("Newrelic-Account-Id")
	var b strings.Builder
	b.Grow(len(keyHash) + len(r.URL.Path) + len(r.URL.RawPath) + len(r.URL.RawQuery) + len(acct) + len(nrAcct) + 10)
	b.WriteString(keyHash)
	b.WriteByte('|')
	b.WriteString(r.URL.Path)
	b.WriteByte(0)
	b.WriteString(r.URL.RawPath)
	b.WriteByte('?')
	b.WriteString(r.URL.RawQuery)
	b.WriteByte(0)
	b.WriteString(acct)
	b.WriteByte(0)
	b.WriteString(nrAcct)
	if acceptsGzip(h) { // the kept answer is compressed (compress.go)
		b.WriteString("\x00gzip")
	}
	return b.String()
}

// replayable is whether r may be answered from, or kept in, the store.
func replayable(r *http.Request, st *reqState) bool {
	h := r.Header // one value each: replayKey reads the first (a repeat is a 400 or 401)
	return r.Method == http.MethodGet && st.keyHash != "" && st.apiKeyed &&
		len(h["X-Account-Id"]) < 2 && len(h["Newrelic-Account-Id"]) < 2 &&
		r.ContentLength == 0 && (r.Body == nil || r.Body == http.NoBody) &&
		r.Header.Get("If-None-Match") == ""
}

// replay answers r from a kept answer and reports whether it did, with the key a
// lookup that missed built ("" when none), for keep. The caller holds an admission
// slot for an accepted key (st.accepted).
func (g *Gateway) replay(w *statusWriter, r *http.Request, st *reqState) (bool, string) {
	rp := g.replays
	if rp == nil || !st.accepted || !replayable(r, st) || rp.store.Len() == 0 {
		return false, ""
	}
	key := replayKey(r, st.keyHash)
	v, ok := rp.store.Get(key)
	if !ok {
		rp.miss.Inc()
		return false, key
	}
	a := v.(*replayAnswer)
	if !rp.tr.Holds(&a.basis) {
		rp.store.Delete(key)
		rp.miss.Inc()
		return false, key
	}
	rp.hit.Inc()
	st.route, st.fidelity = a.route, a.fidelity
	st.caller, st.account, st.accountSource = st.keyHash[:8], a.account, a.accountSource
	st.callerHash = st.keyHash[:8] // settle's: the key is accepted
	if !g.withinRateLimit(&st.ctx, w, r, st.keyHash) {
		return true, key
	}
	h := w.Header()
	for k, v := range a.header {
		h[k] = v
	}
	upstreamHeaders(w, st)
	w.WriteHeader(restv2.StatusOK)
	_, _ = w.Write(a.body)
	return true, key
}

// keep stores r's answer for replay when the route, the request and the answer allow
// it (see the top of this file); key is replay's for r ("": not built yet).
func (g *Gateway) keep(r *http.Request, st *reqState, key string) {
	rp := g.replays
	if rp == nil || !st.replay || st.answer == nil || st.sw.status != restv2.StatusOK ||
		st.calls.Count() != 0 || st.internal != nil || (st.mode != "" && st.mode != ModeTranslate) ||
		!replayable(r, st) || st.caps.Capped() || st.isDegraded() {
		return
	}
	basis := st.caps.Basis()
	ttl := time.Until(basis.Expires())
	if !basis.Usable() || ttl <= 0 || !rp.keys.known(st.keyHash) {
		return
	}
	a := &replayAnswer{basis: basis, header: http.Header{}, body: st.answer, route: st.route,
		fidelity: st.fidelity, account: st.account, accountSource: st.accountSource}
	for k, v := range st.sw.Header() {
		if !perRequestHeader(k) {
			a.header[k] = slices.Clone(v) // a value may be in the request's own slots
		}
	}
	if key == "" {
		key = replayKey(r, st.keyHash)
	}
	rp.store.SetLocalFor(key, a, ttl)
}
