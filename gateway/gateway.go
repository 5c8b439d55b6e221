package gateway

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/translate"
)

// Config is what the gateway needs to serve; zero fields take their defaults.
type Config struct {
	// PublicURL is the scheme://host[:port] callers use to reach the gateway; Link
	// headers point there. Empty: derived from each request (Host, TLS,
	// X-Forwarded-Proto).
	PublicURL string
	// DefaultAccountID scopes keys that reach several accounts when the request names
	// none (0: such requests go to the account the key belongs to, or get a 422 naming
	// the options when NerdGraph does not say; ownaccount.go).
	DefaultAccountID int64
	// MaxBodyBytes bounds request bodies, as sent and as decoded from their
	// Content-Encoding (default 1 MiB).
	MaxBodyBytes int64
	// RequestTimeout bounds the work done for one request (default 60s).
	RequestTimeout time.Duration
	// Keys maps legacy keys (by SHA-256) to user keys and accounts.
	Keys KeyMap
	// RejectUnmappedLegacyKeys answers 401 Invalid API key, without calling NerdGraph,
	// for a key that is neither mapped nor shaped like a user key (NRAK-...).
	RejectUnmappedLegacyKeys bool
	// RejectedKeyTTL is how long after NerdGraph's refusal a key is answered 401 without
	// a NerdGraph call; then one request a second per key checks it again (default
	// DefaultRejectedKeyTTL; negative disables).
	RejectedKeyTTL time.Duration
	// AuthFailuresPerMinute bounds the failed authentications of one client address;
	// beyond it, keys NerdGraph has not accepted get 429 with Retry-After until the
	// minute ends (default DefaultAuthFailuresPerMinute; negative disables).
	AuthFailuresPerMinute int
	// AuthTTL is how long after NerdGraph last accepted a key its cached answers are
	// served to it (default AuthTTL; negative: no check). A 401/403 from NerdGraph for a
	// key drops its cached answers at once (keyauth.go).
	AuthTTL time.Duration
	// RateLimitPerMinute is REST v2's per-key limit (default 1000; negative disables).
	RateLimitPerMinute int
	// UseCreateDeployment records deployments with changeTrackingCreateDeployment
	// (Deployment events) instead of changeTrackingCreateEvent.
	UseCreateDeployment bool
	// RESTUpstream is the REST v2 base URL pass-through routes forward to (default
	// RESTEndpointUS): /readyz?verbose probes it when a route depends on it.
	RESTUpstream string
	// Modes sets a route's mode by route name (default ModeTranslate).
	Modes map[string]Mode
	// RetainedAlerts is how the alerts namespaces New Relic keeps past the REST v2
	// end of life are answered: ModePassthrough forwards them to RESTUpstream unchanged
	// (no Sunset header: they are not retired), ModeTranslate (the default, "")
	// translates them. A route's own entry in Modes wins.
	RetainedAlerts Mode
	// UnmatchedPassthrough forwards /v2 paths the gateway does not translate (the alerts
	// namespaces New Relic keeps, for example) instead of answering 404.
	UnmatchedPassthrough bool
	// MaxInFlight bounds the requests answered at once (default 1000); beyond it the
	// gateway sheds load with 503 and Retry-After instead of queueing without bound.
	MaxInFlight int
	// MaxUnauthenticatedInFlight bounds, apart from MaxInFlight, the requests answered at
	// once whose key NerdGraph has not accepted (none, new, refused): they wait in a
	// pool of their own, so callers with unproven keys can never take the slots of
	// accepted ones (default min(64, MaxInFlight)).
	MaxUnauthenticatedInFlight int
	// TrustedProxies are the load balancers and proxies whose X-Forwarded-For is
	// believed: a request from one of them is attributed to the last address of the
	// header that is not itself trusted (the per-address authentication guard, the
	// access line's forwarded_for). Empty: every request is its connection's peer.
	TrustedProxies []netip.Prefix
	// BodyMinRate is the slowest a request body may arrive, in bytes a second, after
	// BodyGrace (defaults 1024 and 10s): a body slower than BodyGrace + read/BodyMinRate
	// is cut and answered 408, as nginx's client_body_timeout cuts a stalled body.
	// Negative: no bound beyond the server's read timeout.
	BodyMinRate int64
	BodyGrace   time.Duration
	// Now is the clock (default time.Now), also of the per-key rate limit's and the
	// failed-authentication limit's minute windows; tests share one with the simulator.
	Now func() time.Time
	// BrowserLoader is the loader type of browser applications created through
	// POST /v2/browser_applications (default LITE: REST v2 created basic page-load apps).
	BrowserLoader string
	// Metrics receives the gateway's series (default: a new registry).
	Metrics *Metrics
	// Store, when set, is the shared fleet store (fleet mode): the per-key rate limit
	// is counted fleet-wide, and /readyz?verbose and the metrics report the store's
	// health. Nil: every replica on its own.
	Store FleetStore
	// Ready reports whether NerdGraph is reachable; /readyz?verbose and the
	// v2bridge_nerdgraph_reachable gauge call it at most every ReadyCacheFor. Readiness
	// itself does not depend on it. Nil: always reachable.
	Ready func(ctx context.Context) error

	// Passthrough forwards a request unchanged to the REST v2 API at RESTUpstream: it
	// answers the routes in passthrough mode, the REST side of compare mode and the
	// unmatched paths forwarded. The gateway records the route before calling it;
	// PublicBase gives the base the caller reached, for the answer's Link header. A
	// request REST does not answer is answered by WriteError with a
	// *PassthroughError. Nil: those requests are answered 502.
	Passthrough http.Handler
	// Compare serves a route in compare mode from its two sides: translated (the
	// route's translate handler) and rest (the route forwarded through Passthrough).
	// Nil: compare-mode routes translate.
	Compare func(rt Route, translated, rest http.Handler) http.Handler
	// Usage receives every answered v2 request of a known caller (a key NerdGraph, or
	// in passthrough the REST API, accepted), after the answer. Nil: none.
	Usage func(Call)
	// Operator builds the handler of the operator pages /v2bridge/report,
	// /v2bridge/report.json, /v2bridge/report.csv and /v2bridge/explain, served by
	// Handler (the report pages by AdminHandler too). New calls it once, last, with
	// the gateway it built. Nil: those paths are not served.
	Operator func(*Gateway) http.Handler
}

// Gateway answers REST v2 requests. Build it with New and serve Handler().
type Gateway struct {
	cfg Config
	tr  *translate.Translator
	// keys is the acceptance of callers' keys (keyauth.go).
	keys   *keyAuth
	log    *zap.Logger
	router http.Handler
	now    func() time.Time
	limit  *rateLimiter
	ready  readiness
	slots  chan struct{}
	// unauthSlots is the in-flight pool of requests whose key NerdGraph has not
	// accepted (admission.go).
	unauthSlots chan struct{}

	guard *authGuard
	// logFields recycles the access log's field slices (*[]zap.Field): zap encodes
	// fields before Write returns and keeps none of them.
	logFields sync.Pool
	// gzipWriters recycles the answers' compressors (*gzip.Writer; compress.go).
	gzipWriters sync.Pool

	// upstreams are what /readyz?verbose reports.
	upstreams []*upstreamProbe

	// operator serves the operator pages (Config.Operator; nil without one).
	operator http.Handler

	// replays keeps answers read from the caches alone, for replay (replay.go).
	replays *replays
}

// New returns a gateway translating through tr and logging to log.
func New(cfg Config, tr *translate.Translator, log *zap.Logger) *Gateway {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 60 * time.Second
	}
	if log == nil {
		log = zap.NewNop()
	}
	if cfg.RateLimitPerMinute == 0 {
		cfg.RateLimitPerMinute = 1000
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 1000
	}
	if cfg.MaxUnauthenticatedInFlight <= 0 {
		cfg.MaxUnauthenticatedInFlight = min(64, cfg.MaxInFlight)
	}
	if cfg.BodyMinRate == 0 {
		cfg.BodyMinRate = 1024
	}
	if cfg.BodyGrace <= 0 {
		cfg.BodyGrace = 10 * time.Second
	}
	g := &Gateway{cfg: cfg, tr: tr, log: log, now: cfg.Now, ready: readiness{check: cfg.Ready},
		slots: make(chan struct{}, cfg.MaxInFlight), unauthSlots: make(chan struct{}, cfg.MaxUnauthenticatedInFlight)}
	if cfg.RateLimitPerMinute > 0 {
		g.limit = newRateLimiter(cfg.RateLimitPerMinute, cfg.Now)
		if cfg.Store != nil {
			g.limit.shared = cfg.Store
		}
	}
	if cfg.Store != nil {
		for _, c := range storeCollector(cfg.Store) {
			_ = cfg.Metrics.reg.Register(c) // a shared registry keeps the first gateway's
		}
	}
	if cfg.Ready != nil {
		_ = cfg.Metrics.reg.Register(g.ready.gauge()) // a shared registry keeps the first gateway's
	}
	g.keys = newKeyAuth(cfg.AuthTTL, cfg.Now, tr)
	g.replays = newReplays(tr, g.keys, cfg.Metrics)
	if tr != nil {
		_ = cfg.Metrics.reg.Register(cacheCollector{tr: tr, replay: g.replays.store})
	}
	g.guard = newAuthGuard(cfg)
	g.upstreams = g.upstreamProbes()
	g.router = g.routes()
	if cfg.Operator != nil {
		g.operator = cfg.Operator(g)
	}
	return g
}

// Metrics are the gateway's Prometheus series.
func (g *Gateway) Metrics() *Metrics { return g.cfg.Metrics }

// NoteDegraded is a translate.Options.Warn: it records a failed optional enrichment on
// the request, and the access-log line lists it (the answer is served without it).
func NoteDegraded(ctx context.Context, what string, err error) {
	noteDegraded(ctx, what, err)
}

// FleetStore is what the gateway uses of the fleet's shared store (state/fleet.Store
// in the wiring): the per-key rate limit's windows and the store's health.
type FleetStore interface {
	state.SharedLimits
	state.StoreHealth
}

// MappedKey is what a legacy key (REST API key, admin key, license key — none of which
// NerdGraph accepts) stands for: a user key, and optionally the account it is scoped to.
type MappedKey struct {
	UserKey   string
	AccountID int64
}

// KeyMap maps the hex SHA-256 of a presented key to its MappedKey. The configuration
// holds only hashes; the user keys come from the environment or files.
type KeyMap map[string]MappedKey

// lookup finds the mapping of a key hash. The map is keyed by the SHA-256 of the key,
// never the key, so the lookup time does not depend on how much of a guessed key is
// right (a timing probe learns nothing about the key itself).
func (m KeyMap) lookup(keyHash string) (MappedKey, bool) {
	mk, ok := m[keyHash]
	return mk, ok
}

// isUserKey reports whether a key has the shape of a NerdGraph user key.
func isUserKey(key string) bool { return strings.HasPrefix(key, "NRAK-") }
