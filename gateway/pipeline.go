package gateway

import (
	"context"
	"crypto/sha256"
	"net/http"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// handle is the pipeline every route runs. Each step passes the request on or answers
// it, in this order:
//
//  1. declare: the route and its fidelity (X-V2bridge-Fidelity) are recorded, and
//     failures answered in the route's error shape;
//  2. a retired route answers its error, without a key or an upstream call;
//  3. callerKey: Api-Key or X-Api-Key (a legacy route also takes X-License-Key), else
//     401, also when the key headers carry two different keys;
//  4. readRequest: the body (bounded, its text checked) and the merged parameters;
//  5. deadline: every NerdGraph call of the request ends by Config.RequestTimeout;
//  6. admit: a key NerdGraph has not accepted passes the failed-authentication guard;
//  7. withinRateLimit: REST v2's per-key limit, 429 beyond it;
//  8. scope: the key NerdGraph is called with and the one account the request acts on;
//  9. the route's handler;
//  10. answer: the document (with a Link header when paged) or the raw body.
//
// When the request has been answered, settle counts a 401 against the client address
// and gives an accepted key its usage row.
func (g *Gateway) handle(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := stateFrom(r.Context())
		fail := g.declare(w, r, st, rt)
		if rt.Retired != nil {
			fail(rt.Retired)
			return
		}
		key, err := callerKey(r.Header, rt)
		if err != nil {
			fail(err)
			return
		}
		rq, err := g.readRequest(r, st)
		if err != nil {
			fail(err)
			return
		}
		ctx, cancel := g.deadline(r.Context(), st)
		if cancel != nil {
			defer cancel()
		}
		keyHash, keySum := st.keyHashes(key) // hashed once, when admission read the key
		defer g.settle(r, st, keyHash)       // usage rows only for accepted keys
		if !g.admit(w, fail, r, st, keyHash, g.keys.known(keyHash)) {
			return
		}
		if !g.withinRateLimit(ctx, w, r, keyHash) {
			return
		}
		ctx, err = g.scope(ctx, rq, rt, st, key, keyHash, keySum)
		if err != nil {
			fail(err)
			return
		}
		res, err := rt.handle(ctx, g, rq)
		if err != nil {
			fail(err)
			return
		}
		g.answer(w, r, rq, res)
	})
}

// declare records the route on the request's state (access log, metrics, usage) and
// sends its fidelity; it returns how the route answers a failure: a v2 error body in
// the request's format, or the legacy <errors><error> body.
func (g *Gateway) declare(w http.ResponseWriter, r *http.Request, st *reqState, rt Route) (fail func(error)) {
	if st != nil {
		st.route, st.fidelity, st.replay = rt.Name, rt.Fidelity, rt.replay
	}
	slotsOf(st).set(w.Header(), "X-V2bridge-Fidelity", string(rt.Fidelity))
	if rt.Legacy {
		return func(err error) { g.writeV0Error(w, r, err) }
	}
	format := formatOf(r)
	return func(err error) { g.writeError(w, r, format, err) }
}

// callerKey is the key the caller sent: Api-Key or X-Api-Key, or for a legacy route
// X-License-Key; none is REST's 401, and so are two different keys (presentedKey).
func callerKey(h http.Header, rt Route) (string, error) {
	key, header, err := presentedKey(h)
	if err != nil {
		return "", err
	}
	if key == "" || (header == "X-License-Key" && !rt.Legacy) {
		return "", restv2.ErrNoAPIKey()
	}
	return key, nil
}

// deadline bounds the request's NerdGraph calls by Config.RequestTimeout from its
// start. With the request's state the graphql client arms the deadline per call, so an
// answer from a cache costs no timer; without one (a handler served alone) ctx gets a
// timeout, and cancel is to be called when the request ends.
func (g *Gateway) deadline(ctx context.Context, st *reqState) (_ context.Context, cancel context.CancelFunc) {
	if st != nil {
		st.calls.SetDeadline(st.start.Add(g.cfg.RequestTimeout))
		return ctx, nil
	}
	return context.WithTimeout(ctx, g.cfg.RequestTimeout)
}

// withinRateLimit counts the call against its key's per-minute limit and sends the
// X-RateLimit-* headers; beyond the limit it answers REST's 429 (an empty object,
// Retry-After until the window resets, X-RateLimit-Docs) and returns false.
func (g *Gateway) withinRateLimit(ctx context.Context, w http.ResponseWriter, r *http.Request, keyHash string) bool {
	if g.limit == nil {
		return true
	}
	ok, remaining, reset := g.limit.allowFleet(ctx, keyHash)
	g.limit.headers(w.Header(), remaining, reset)
	if ok {
		return true
	}
	g.cfg.Metrics.rateLimited.Inc()
	w.Header().Set("Retry-After", retryAfter(reset, g.now()))
	w.Header().Set("X-RateLimit-Docs", rateLimitDocs)
	if r.Context() != ctx {
		r = r.WithContext(ctx) // the answer reads the request's state from it
	}
	g.writeDoc(w, r, formatOf(r), restv2.StatusTooManyRequests, restv2.EmptyDocument{})
	return false
}

// scope decides whom the request acts as. NerdGraph is called with the caller's key,
// or with the user key a legacy key is mapped to (Config.Keys; with
// RejectUnmappedLegacyKeys an unmapped key not shaped like a user key is a 401). The
// account is the key map's, unless the path or a header names one or the map gives
// none: then resolveAccount's. The caller goes into rq, and into the access log.
func (g *Gateway) scope(ctx context.Context, rq *request, rt Route, st *reqState, key, keyHash string, keySum [sha256.Size]byte) (context.Context, error) {
	upstreamKey := key
	var acct int64
	var source string
	if mk, ok := g.cfg.Keys.lookup(keyHash); ok {
		upstreamKey = mk.UserKey
		if mk.AccountID != 0 {
			acct, source = mk.AccountID, "map"
		}
	} else if g.cfg.RejectUnmappedLegacyKeys && !isUserKey(key) {
		return ctx, restv2.ErrInvalidAPIKey()
	}
	if upstreamKey == key {
		ctx = ng.WithAPIKeySum(ctx, key, keySum) // hashed once, by the pipeline
	} else {
		ctx = ng.WithAPIKey(ctx, upstreamKey)
	}
	ctx = translate.WithKeyHash(ctx, keyHash) // NerdGraph's verdict on the key gates its cached answers
	if h := rq.http.Header; acct == 0 || rq.vars["accountId"] != "" ||
		len(h["X-Account-Id"]) > 0 || len(h["Newrelic-Account-Id"]) > 0 { // the headers resolveAccount reads
		var err error
		acct, source, err = g.resolveAccount(ctx, rq, keyHash)
		if err != nil {
			return ctx, err
		}
	}
	rq.caller = translate.Caller{KeyHash: keyHash, AccountID: acct}
	rq.mobile = strings.HasPrefix(rt.Name, "mobile_applications.")
	if st != nil {
		// The access log names every caller whose account was resolved; the usage
		// report and per-caller series wait for NerdGraph's acceptance (settle).
		st.caller, st.account, st.accountSource = keyHash[:8], acct, source
	}
	return ctx, nil
}

// answer sends what the route's handler produced: a raw body as it is, else the
// document with its status (200 when none) and, for a page, the Link header.
func (g *Gateway) answer(w http.ResponseWriter, r *http.Request, rq *request, res *result) {
	if res.raw != nil {
		g.writeRaw(w, r, res.status, res.rawType, res.raw)
		return
	}
	if res.paging != nil {
		if link := g.linkHeader(r, rq.params, *res.paging); link != "" {
			w.Header().Set("Link", link)
		}
	}
	status := res.status
	if status == 0 {
		status = restv2.StatusOK
	}
	g.writeDoc(w, r, rq.format, status, res.doc)
}
