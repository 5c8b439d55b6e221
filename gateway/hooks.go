package gateway

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate"
)

// The migration pilot (passthrough and compare modes, the usage report, explain)
// reaches the gateway through Config's hook fields: Passthrough, Compare, Usage and
// Operator. What a hook needs of the request being served it reads through the
// functions below.

// Call is one answered v2 request of a known caller, as Config.Usage receives it.
type Call struct {
	Caller   string // the first 8 hex characters of the key's SHA-256
	Agent    string // the request's User-Agent
	Route    string
	Mode     Mode // empty: translate
	Fidelity Fidelity
	Account  int64 // 0: not resolved
	Status   int
	At       time.Time
}

// recordUsage hands a request's call to Config.Usage: only a request that matched a
// route and whose key was accepted (settle) has a caller.
func (g *Gateway) recordUsage(st *reqState, agent string, status int) {
	if g.cfg.Usage == nil || st.callerHash == "" || st.route == "" {
		return
	}
	g.cfg.Usage(Call{Caller: st.callerHash, Agent: agent, Route: st.route, Mode: st.mode, Fidelity: st.fidelity,
		Account: st.account, Status: status, At: g.now()})
}

// PassthroughError is a forwarded request the REST v2 API did not answer: WriteError
// answers it 502 and logs Err.
type PassthroughError struct{ Err error }

func (e *PassthroughError) Error() string { return e.Err.Error() }

func (e *PassthroughError) Unwrap() error { return e.Err }

// WriteError answers err as a v2 error in the request's format (.xml or JSON), as the
// gateway's own routes do; a server-side cause is logged with the request.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var g *Gateway // writeError reads no gateway state
	g.writeError(w, r, formatOf(r), err)
}

// PublicBase is the gateway's base URL as the caller of a forwarded request reached it
// (its /accounts/{id} prefix included), for the Link headers of the REST answer; ""
// outside a forwarded request.
func PublicBase(ctx context.Context) string {
	if st := stateFrom(ctx); st != nil {
		return st.publicBase
	}
	return ""
}

// SetMode records the mode a request was answered in (access log, usage rows).
func SetMode(ctx context.Context, m Mode) {
	if st := stateFrom(ctx); st != nil {
		st.mode = m
	}
}

// Detach is a copy of r for a second answer made after the caller's: detached from the
// caller's cancellation, cancelled after timeout, with a request state of its own (id
// RequestID+"-"+suffix, the route's path variables) and body as its body.
func Detach(r *http.Request, suffix string, timeout time.Duration, body io.Reader) (*http.Request, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), timeout)
	st := &reqState{id: RequestID(r.Context()) + "-" + suffix, start: time.Now(), vars: routeVars(r)}
	ctx = context.WithValue(ctx, stateKey{}, st)
	ctx = ng.WithCalls(ctx, &st.calls)
	sr := r.Clone(ctx)
	sr.Body = io.NopCloser(body)
	return sr, cancel
}

// UsageCalls is v2bridge_v2_calls_total (labels route, caller, mode, fidelity): the
// series a usage book counts its rows in.
func (m *Metrics) UsageCalls() *prometheus.CounterVec { return m.calls }

// Gatherer reads the gateway's series (the compare counters of the usage report).
func (m *Metrics) Gatherer() prometheus.Gatherer { return m.reg }

// Config is the gateway's configuration, its defaults filled in.
func (g *Gateway) Config() Config { return g.cfg }

// KeyAccount is the account a caller's key is scoped to without a NerdGraph call: the
// key map's, else the one account this gateway has cached for it, else (with several
// and no default_account_id) the account the key belongs to as cached; with where it
// came from. 0 and "": none of them knows it.
func (g *Gateway) KeyAccount(key string) (int64, string) {
	hash := translate.HashKey(key)
	if mk, ok := g.cfg.Keys.lookup(hash); ok && mk.AccountID != 0 {
		return mk.AccountID, "the key map (keys:) of the caller's key"
	}
	if g.tr != nil {
		ids, ok := g.tr.CachedAccounts(hash)
		if ok && len(ids) == 1 {
			return ids[0], "the caller's key's only account (from this gateway's account cache)"
		}
		if ok && len(ids) > 1 && g.cfg.DefaultAccountID == 0 {
			if id, known := g.tr.CachedOwnAccount(hash); known && slices.Contains(ids, id) {
				return id, "the account the caller's key belongs to (from this gateway's account cache)"
			}
		}
	}
	return 0, ""
}

// DryRunState is what a request recorded in a dry run.
type DryRunState struct {
	// Route is the route that answered; "" when the router answered 404 or 405 itself.
	Route string
	// Account is the account the request was scoped to (0: none) and AccountSource
	// where it came from ("path" for the /accounts/{id}/v2 prefix).
	Account       int64
	AccountSource string
	// Degraded are the optional enrichments that failed.
	Degraded []string
}

// DryRun serves r through a gateway like g whose translator sends its operations to
// rec: the same configuration, every route in translate mode, no limits, no hooks,
// nothing forwarded, no middleware. A panic is returned as the error (a gateway bug).
func (g *Gateway) DryRun(w http.ResponseWriter, r *http.Request, rec *ng.Recorder) (DryRunState, error) {
	cfg := g.cfg
	cfg.Modes, cfg.UnmatchedPassthrough = nil, false
	cfg.Passthrough, cfg.Compare, cfg.Usage, cfg.Operator = nil, nil, nil, nil
	cfg.Keys, cfg.RejectUnmappedLegacyKeys, cfg.RateLimitPerMinute = nil, false, -1
	cfg.Ready = nil
	var tr *translate.Translator
	if g.tr != nil {
		tr = g.tr.DryRun(rec)
	} else {
		tr = translate.New(rec, translate.Options{Now: g.now})
	}
	xg := New(cfg, tr, nil)
	st := &reqState{start: time.Now()}
	ctx := context.WithValue(r.Context(), stateKey{}, st)
	ctx = ng.WithCalls(ctx, &st.calls)
	err := serveRecovered(xg.router, w, r.WithContext(ctx))
	st.mu.Lock()
	degraded := append([]string(nil), st.degraded...)
	st.mu.Unlock()
	return DryRunState{Route: st.route, Account: st.account, AccountSource: st.accountSource, Degraded: degraded}, err
}

// serveRecovered serves r, turning a panic into an error (a dry run has no middleware
// to recover it).
func serveRecovered(h http.Handler, w http.ResponseWriter, r *http.Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	h.ServeHTTP(w, r)
	return nil
}

// APIKey is the caller's key as the gateway reads it from Api-Key or X-Api-Key; "" when
// it sends none, or two different ones.
func APIKey(h http.Header) string {
	key, header, err := presentedKey(h)
	if err != nil || header == "X-License-Key" {
		return ""
	}
	return key
}
