package gateway

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

type stateKey struct{}

// reqState is what one request records for its access-log line.
type reqState struct {
	id            string
	start         time.Time
	calls         ng.Calls
	route         string
	fidelity      Fidelity
	caller        string // the key hash's first 8 hex characters, set once the account is resolved (access log)
	account       int64
	accountSource string
	internal      error // the cause behind a 5xx, logged, never sent
	mode          Mode
	callerHash    string // first 8 hex characters of the key's SHA-256: logs, metrics, report
	// key, keyHash and keySum are the caller's key and its hashes as admission read
	// them (admission.go); the pipeline reuses them for the same key.
	key        string
	keyHash    string
	keySum     [32]byte
	publicBase string // passthrough: the gateway's base as the caller reached it
	// accepted: NerdGraph had accepted the key when admission read it; apiKeyed: the
	// key came in Api-Key or X-Api-Key (not a legacy route's X-License-Key).
	accepted, apiKeyed bool
	// cachedRefusal: admission answered 401 from the rejected-key cache.
	cachedRefusal bool
	// replay: the route's answers may be kept for replay; answer: the rendered bytes
	// of the cached document a 200 sent (replay.go).
	replay bool
	answer []byte
	ctx    requestContext
	// vars are the matched route's path variables when routeIndex matched the route
	// itself; nil when gorilla/mux put them in the request's context.
	vars  map[string]string
	match mux.RouteMatch // routeIndex's match, kept here to save an allocation

	mu       sync.Mutex
	degraded []string
	caps     translate.Notes // limits the reads met (X-V2bridge-Degraded; translate/caps.go)

	rq  request      // the v2 request as readRequest read it, kept here to save an allocation
	hdr headerSlots  // the response's header values
	sw  statusWriter // the response as written (status, bytes), kept here to save an allocation
}

// requestContext is a request's context as the middleware makes it: the server's, which
// answers for the request's state, its NerdGraph call counter and its caps notes itself
// rather than through three context.WithValue layers (it lives in the state: no
// allocation of its own).
type requestContext struct {
	context.Context
	st *reqState
}

func (c *requestContext) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return c.st
	}
	if v, ok := ng.CallsValue(key, &c.st.calls); ok {
		return v
	}
	if v, ok := translate.NotesValue(key, &c.st.caps); ok {
		return v
	}
	return c.Context.Value(key)
}

func stateFrom(ctx context.Context) *reqState {
	s, _ := ctx.Value(stateKey{}).(*reqState)
	return s
}

// RequestID returns the id of the request being served on ctx.
func RequestID(ctx context.Context) string {
	if s := stateFrom(ctx); s != nil {
		return s.id
	}
	return ""
}

// noteDegraded records an enrichment that failed; the access log lists them.
func noteDegraded(ctx context.Context, what string, err error) {
	if s := stateFrom(ctx); s != nil {
		s.mu.Lock()
		s.degraded = append(s.degraded, what+": "+err.Error())
		s.mu.Unlock()
	}
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = restv2.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// middleware wraps every request: request id, upstream-call accounting, panic
// recovery, and one access-log line (never with the API key).
func (g *Gateway) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := &reqState{id: requestID(r.Header.Get("X-Request-Id")), start: time.Now()}
		st.ctx = requestContext{Context: r.Context(), st: st}
		ctx := &st.ctx
		ng.CarryCalls(ctx, &st.calls)
		if g.log.Core().Enabled(zapcore.DebugLevel) {
			st.calls.RecordOperations() // the access log's operations field
		}
		sw := &st.sw
		sw.ResponseWriter = w
		st.hdr.set(sw.Header(), "X-Request-Id", st.id)
		pool := g.poolFor(r, st) // admission.go
		select {
		case pool <- struct{}{}:
			defer func() { <-pool }()
		default:
			st.route = "shed"
			sw.Header().Set("Retry-After", "1")
			if r.ContentLength != 0 {
				// Close instead of reading an unread body to its end before answering,
				// which a trickled body would make last until the read timeout.
				sw.Header().Set("Connection", "close")
			}
			g.writeError(sw, r.WithContext(ctx), formatOf(r), restv2.Unavailable("v2bridge is overloaded; retry after a second"))
			annotateSpan(r, st, sw.status)
			g.observe(r, sw, st)
			g.accessLog(r, sw, st)
			return
		}
		g.cfg.Metrics.inFlight.Inc()
		if r.Body != nil && r.Body != http.NoBody && g.cfg.BodyMinRate > 0 {
			r.Body = newPacedBody(w, r.Body, st.start, g.cfg.BodyGrace, g.cfg.BodyMinRate) // admission.go
		}
		defer func() {
			if p := recover(); p != nil {
				st.internal = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
				if sw.status == 0 {
					g.writeError(sw, r.WithContext(ctx), formatOf(r), restv2.ErrServer())
				}
			}
			g.cfg.Metrics.inFlight.Dec()
			annotateSpan(r, st, max(sw.status, restv2.StatusOK))
			g.observe(r, sw, st)
			g.recordUsage(st, r.Header.Get("User-Agent"), max(sw.status, restv2.StatusOK))
			g.accessLog(r, sw, st)
		}()
		replayed, key := g.replay(sw, r, st) // replay.go
		if replayed {
			return
		}
		next.ServeHTTP(sw, r.WithContext(ctx))
		g.keep(r, st, key)
	})
}

// isDegraded is whether an optional enrichment failed on the request.
func (st *reqState) isDegraded() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.degraded) > 0
}

func (g *Gateway) accessLog(r *http.Request, sw *statusWriter, st *reqState) {
	status := sw.status
	if status == 0 {
		status = restv2.StatusOK
	}
	lvl := zapcore.InfoLevel
	switch {
	case st.internal != nil:
		lvl = zapcore.ErrorLevel
	case restv2.IsServerError(status):
		lvl = zapcore.WarnLevel
	}
	capped := st.caps.String()
	if capped != "" && lvl < zapcore.WarnLevel {
		lvl = zapcore.WarnLevel // an answer short of a limit is logged once, here
	}
	ce := g.log.Check(lvl, "request")
	if ce == nil {
		return // the level is off: build no fields
	}
	fp, _ := g.logFields.Get().(*[]zap.Field)
	if fp == nil {
		fp = new([]zap.Field)
	}
	fields := (*fp)[:0]
	peer := peerAddress(r)
	fields = append(fields,
		zap.String("request_id", st.id),
		zap.String("method", r.Method),
		zap.String("route", st.route),
		zap.String("path", r.URL.Path),
	)
	if r.URL.RawQuery != "" {
		fields = append(fields, zap.String("query", LoggedQuery(r.URL.RawQuery)))
	}
	fields = append(fields,
		zap.Int("status", status),
		zap.Int("bytes", sw.bytes),
		zap.Duration("duration", time.Since(st.start)),
		zap.Int64("upstream_calls", st.calls.Count()),
		zap.Duration("upstream", st.calls.Elapsed()),
		zap.String("client", peer),
	)
	if client := g.clientBehind(r, peer); client != peer {
		fields = append(fields, zap.String("forwarded_for", client))
	}
	if ua := r.Header.Get("User-Agent"); ua != "" {
		fields = append(fields, zap.String("user_agent", loggedUserAgent(ua)))
	}
	if st.fidelity != "" {
		fields = append(fields, zap.String("fidelity", string(st.fidelity)))
	}
	if st.mode != "" {
		fields = append(fields, zap.String("mode", string(st.mode)))
	}
	if st.caller != "" {
		fields = append(fields, zap.String("caller", st.caller), zap.Int64("account", st.account),
			zap.String("account_source", st.accountSource))
	}
	st.mu.Lock()
	if len(st.degraded) > 0 {
		fields = append(fields, zap.Strings("degraded", st.degraded))
	}
	st.mu.Unlock()
	if capped != "" {
		fields = append(fields, zap.String("capped", capped))
	}
	if st.internal != nil {
		fields = append(fields, zap.String("error", st.internal.Error()))
	}
	if g.log.Core().Enabled(zapcore.DebugLevel) {
		if ops := st.calls.Operations(); len(ops) > 0 {
			fields = append(fields, zap.Strings("operations", ops))
		}
	}
	if id := traceID(r); id != "" {
		fields = append(fields, zap.String("trace_id", id))
	}
	ce.Write(fields...)
	clear(fields) // drop references to this request's strings
	*fp = fields[:0]
	g.logFields.Put(fp)
}

// requestID keeps a caller's X-Request-Id when it is short and plain, else makes one
// (16 hex digits; unique enough to find a request in the logs, not a secret, so the
// fast per-thread generator of math/rand/v2 is used instead of a system call).
func requestID(given string) string {
	if n := len(given); n > 0 && n <= 64 && strings.Trim(given, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == "" {
		return given
	}
	var b [16]byte
	n := rand.Uint64()
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = hexDigits[n&0xf]
		n >>= 4
	}
	return string(b[:])
}

const hexDigits = "0123456789abcdef"

func (g *Gateway) observe(r *http.Request, sw *statusWriter, st *reqState) {
	status := sw.status
	if status == 0 {
		status = restv2.StatusOK
	}
	route := st.route
	if route == "" {
		route = "unmatched"
	}
	s := g.cfg.Metrics.requestSeries(route, methodLabel(r.Method), status)
	s.count.Inc()
	s.duration.Observe(time.Since(st.start).Seconds())
	for _, c := range st.caps.Caps() {
		g.cfg.Metrics.degraded.WithLabelValues(route, string(c)).Inc()
	}
	g.cfg.Metrics.observeRoundTrips(route, st.calls.Count())
}

// methodLabel bounds the method label of the request metrics: the methods REST v2
// callers use keep their name, any other (arbitrary tokens, or bytes that are not
// UTF-8, which the Prometheus client refuses with a panic) is "OTHER".
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodPatch, http.MethodOptions:
		return m
	}
	return "OTHER"
}
