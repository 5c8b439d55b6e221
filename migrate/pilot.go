package migrate

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/state"
)

// Config is what a migration pilot needs; zero fields take their defaults.
type Config struct {
	// RESTUpstream is the REST v2 base URL pass-through routes forward to (default
	// gateway.RESTEndpointUS).
	RESTUpstream string
	// Compare configures routes in compare mode.
	Compare CompareSettings
	// MaxBodyBytes bounds the request bodies compare mode keeps for its second side,
	// and explain's (default 1 MiB, as the gateway's).
	MaxBodyBytes int64
	// ReportToken protects /v2bridge/report and /v2bridge/explain (Bearer token);
	// empty disables them.
	ReportToken string
	// ReportPrometheusURL, when set, makes the report show fleet-wide totals read from
	// that Prometheus (sum of every replica's v2bridge_v2_calls_total).
	ReportPrometheusURL string
	// ReportStateFile keeps the usage counts across restarts (see RunReportState).
	ReportStateFile string
	// ReportVerifyFile is the JSON report of the last `v2bridge verify` run; the usage
	// report shows its result per route (cutover.go). Empty: none.
	ReportVerifyFile string
	// ReportMaxCallers and ReportMaxAgents bound the usage report and the per-caller
	// series: callers (or User-Agent products) beyond them count as "other"
	// (defaults DefaultReportMaxCallers, DefaultReportMaxAgents).
	ReportMaxCallers, ReportMaxAgents int
	// Store, when set, is the fleet's shared store (state/fleet.Store in the wiring):
	// the usage report shows every replica's rows (fleetusage.go).
	Store state.SharedUsage
	// Metrics are the gateway's series, which the pilot counts in (default: new ones).
	Metrics *gateway.Metrics
	// Now is the report's clock: the days left to the sunset (default time.Now). The
	// usage rows take the gateway's (gateway.Call.At).
	Now func() time.Time
}

// Pilot is the migration-pilot tooling a gateway is wired to through its hooks:
// pass-through, compare mode, the usage report and explain. Build it with New, set the
// gateway's hooks with Wire, and build the gateway.
type Pilot struct {
	cfg   Config
	log   *zap.Logger
	proxy http.Handler
	cmp   *comparer
	usage *usageBook
	// fleetRows shares the usage rows through Config.Store (nil without one).
	fleetRows *fleetUsage
	report    *reporter
	// explain explains requests through the gateway the pilot is wired to, set when
	// that gateway builds the operator pages.
	explain *explainer
	// gate checks the admin token of both operator endpoints (admin.go).
	gate *adminGate
}

// New returns a pilot logging to log. It restores the usage counts of
// ReportStateFile (a file that cannot be read is logged and left).
func New(cfg Config, log *zap.Logger) *Pilot {
	if log == nil {
		log = zap.NewNop()
	}
	if cfg.Metrics == nil {
		cfg.Metrics = gateway.NewMetrics()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	p := &Pilot{cfg: cfg, log: log, cmp: newComparer(cfg.Compare, cfg.MaxBodyBytes, cfg.Metrics, log)}
	p.usage = newUsageBook(cfg.Metrics, cfg.ReportMaxCallers, cfg.ReportMaxAgents)
	if cfg.ReportStateFile != "" {
		if err := p.usage.load(cfg.ReportStateFile); err != nil {
			log.Warn("usage report state not loaded", zap.Error(err))
		}
	}
	if cfg.Store != nil {
		p.fleetRows = newFleetUsage(cfg.Store, p.usage, log) // fleetusage.go
	}
	p.gate = newAdminGate(cfg.ReportToken, nil, log) // one gate, on the wall clock: report and explain share the failures
	p.report = &reporter{book: p.usage, fleetRows: p.fleetRows, token: cfg.ReportToken, gate: p.gate, prometheusURL: cfg.ReportPrometheusURL,
		verifyFile: cfg.ReportVerifyFile, now: cfg.Now, metrics: cfg.Metrics, log: log}
	rest := cfg.RESTUpstream
	if rest == "" {
		rest = gateway.RESTEndpointUS
	}
	if u, err := url.Parse(rest); err == nil {
		p.proxy = NewPassthrough(u)
	}
	return p
}

// Wire sets the gateway configuration's hooks to the pilot's: Passthrough, Compare,
// Usage and Operator; and its Metrics to the pilot's, the series the pilot counts in
// (build the pilot with the gateway's Metrics, or leave the gateway's unset).
func (p *Pilot) Wire(c *gateway.Config) {
	c.Metrics = p.cfg.Metrics
	c.Passthrough = p.proxy
	c.Compare = p.cmp.route
	c.Usage = p.usage.record
	c.Operator = p.operator
}

// operator is the gateway.Config.Operator hook: the report and explain pages.
func (p *Pilot) operator(g *gateway.Gateway) http.Handler {
	p.explain = &explainer{g: g, primaryGraph: p.cfg.Compare.PrimaryGraph, token: p.cfg.ReportToken, gate: p.gate, maxBody: p.cfg.MaxBodyBytes, log: p.log}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2bridge/explain" {
			p.explain.serveExplain(w, r)
			return
		}
		p.report.serveReport(w, r)
	})
}

// Explain says what a REST v2 request becomes on the gateway the pilot is wired to
// (explainer.Explain); call it once that gateway is built.
func (p *Pilot) Explain(ctx context.Context, in ExplainRequest) (*Explanation, error) {
	return p.explain.Explain(ctx, in)
}

// RunReportState saves the usage report to cfg.ReportStateFile every interval until
// ctx ends, then once more. It returns at once when no state file is configured.
func (p *Pilot) RunReportState(ctx context.Context, interval time.Duration) error {
	if p.cfg.ReportStateFile == "" {
		return nil
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return p.usage.save(p.cfg.ReportStateFile)
		case <-t.C:
			if err := p.usage.save(p.cfg.ReportStateFile); err != nil {
				p.log.Warn("report state not saved", zap.Error(err))
			}
		}
	}
}
