package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/state/fleet"
	"github.com/v2bridge/v2bridge/translate"
)

// demoReportToken opens the demo's usage report (the demo only; production reads the
// token from the environment).
const demoReportToken = "demo-report"

// Set by -ldflags in the Makefile.
var (
	version = "dev"
	commit  = "unknown"
	date    = "unknown"
)

const usage = `v2bridge — New Relic REST API v2 answered from NerdGraph

usage:
  v2bridge demo    [--listen 127.0.0.1:8080] [--routes R=MODE,...]  gateway + NerdGraph simulator + REST double, demo data
  v2bridge serve   [--config FILE] [--listen ADDR] [--upstream us|eu|URL]
  v2bridge sim     [--listen 127.0.0.1:4000] [--scale apps=N,...]  the NerdGraph simulator alone
  v2bridge explain [--account N] [--data BODY] 'METHOD /v2/...'  the NerdGraph calls of a request, sent nowhere
  v2bridge verify  [--account ID] [--sample N]      compare REST v2 and the translation on your account
  v2bridge config check FILE                       validate a configuration, print it (secrets redacted)
  v2bridge hash-key < keyfile                      SHA-256 of a legacy key, for the keys: section
  v2bridge version
  v2bridge help COMMAND                            a command's flags and environment variables

serve reads V2BRIDGE_<KEY> for every scalar key of the configuration file
(V2BRIDGE_LISTEN, V2BRIDGE_UPSTREAM, ...; see v2bridge help serve). serve and demo send
traces by OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "v2bridge:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := dispatch(ctx, args, stdin, stdout, stderr); !errors.Is(err, errHelpShown) {
		return err
	}
	return nil
}

func dispatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("missing command")
	}
	switch args[0] {
	case "demo":
		return runDemo(ctx, args[1:], stdout, stderr)
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "sim":
		return runSim(ctx, args[1:], stdout, stderr)
	case "explain":
		return runExplain(ctx, args[1:], stdin, stdout, stderr)
	case "verify":
		if wantsHelp(args[1:]) {
			return writeHelp(stdout, "verify")
		}
		return runVerify(ctx, args[1:], os.Getenv, stdout, stderr)
	case "config":
		if wantsHelp(args[1:]) {
			return writeHelp(stdout, "config check")
		}
		if len(args) != 3 || args[1] != "check" {
			_ = writeHelp(stderr, "config check")
			return errors.New("usage: v2bridge config check FILE")
		}
		cfg, err := loadEffective(args[2], os.Environ(), nil)
		err = errors.Join(err, cfg.unknownEnv(os.Environ()))
		if _, terr := tracingOn(os.Getenv); terr != nil {
			err = errors.Join(err, terr)
		}
		if err != nil {
			return fmt.Errorf("config %s:\n%w", args[2], err)
		}
		fmt.Fprintf(stdout, "# %s is valid; effective configuration (user keys are never printed):\n%s", args[2], cfg.redacted())
		return nil
	case "hash-key":
		if wantsHelp(args[1:]) {
			return writeHelp(stdout, "hash-key")
		}
		b, err := io.ReadAll(io.LimitReader(stdin, 4096))
		if err != nil {
			return fmt.Errorf("read key: %w", err)
		}
		key := strings.TrimSpace(string(b))
		if key == "" {
			return errors.New("hash-key: give the key on standard input")
		}
		fmt.Fprintln(stdout, translate.HashKey(key))
		return nil
	case "version", "--version", "-v":
		if wantsHelp(args[1:]) {
			return writeHelp(stdout, "version")
		}
		fmt.Fprintf(stdout, "v2bridge %s (commit %s, built %s)\n", version, commit, date)
		return nil
	case "help", "-h", "--help":
		if wantsHelp(args[1:]) {
			return writeHelp(stdout, "help")
		}
		if len(args) > 1 {
			return writeHelp(stdout, helpName(args[1:]))
		}
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// newLogger logs to w as each line comes (the demo and the simulator, watched in a
// terminal).
func newLogger(level string, console bool, w io.Writer) (*zap.Logger, error) {
	return newLoggerTo(level, console, zapcore.AddSync(w))
}

// newBufferedLogger logs to w through gateway.LogSink (serve: a line a request); stop
// flushes what is buffered and ends the sink's flushing.
func newBufferedLogger(level string, console bool, w io.Writer) (log *zap.Logger, stop func(), err error) {
	sink := gateway.LogSink(w)
	if log, err = newLoggerTo(level, console, sink); err != nil {
		return nil, nil, err
	}
	return log, func() { _ = sink.Stop() }, nil
}

func newLoggerTo(level string, console bool, ws zapcore.WriteSyncer) (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, fmt.Errorf("log level: %w", err)
	}
	encCfg := gateway.LogEncoderConfig()
	var enc zapcore.Encoder
	if console {
		encCfg.EncodeLevel = zapcore.CapitalLevelEncoder
		enc = zapcore.NewConsoleEncoder(encCfg)
	} else {
		enc = zapcore.NewJSONEncoder(encCfg)
	}
	return zap.New(zapcore.NewCore(enc, ws, lvl)), nil
}

// newSimulator builds the simulator over the embedded demo data.
func newSimulator(opts ...sim.Option) (*sim.Server, error) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		return nil, fmt.Errorf("demo data: %w", err)
	}
	return sim.NewDemo(data, opts...)
}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	opts := demoFlags(fs)
	if err := parseFlags(fs, "demo", args, stdout, stderr); err != nil {
		return err
	}
	listen, logLevel := opts.listen, opts.logLevel
	modes, err := demoModes(*opts.routes)
	if err != nil {
		return err
	}
	log, err := newLogger(*logLevel, true, stderr)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	s, err := newSimulator()
	if err != nil {
		return err
	}
	gwLn, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("gateway listener: %w", err)
	}
	tp, stopTracing, err := setupTracing(ctx, os.Getenv, log)
	if err != nil {
		return err
	}
	defer flushTraces(stopTracing, log)
	// One listener serves the gateway, the REST double under /rest/v2 and the simulator
	// at /graphql, so every address the banner prints is the one --listen names.
	base := "http://" + gwLn.Addr().String()
	endpoint := base + demoGraphQLPath
	g, _ := newGateway(endpoint, nil, gateway.Config{RESTUpstream: base + demoRESTPrefix + "/v2", Modes: modes},
		migrate.Config{ReportToken: demoReportToken, Compare: migrate.CompareSettings{Options: migrate.CompareOptions{Tolerance: 0.05}}},
		ng.Options{Timeout: 30 * time.Second}, log, translate.Options{}, tp)
	fmt.Fprint(stdout, demoBanner(demoPrinted{base: base, endpoint: endpoint, prog: programName(os.Args[0]),
		restart: demoRestart(os.Getenv, programName(os.Args[0]), *listen), modes: modes}))
	log.Info("serving", zap.String("version", version), zap.String("commit", commit),
		zap.String("listen", gwLn.Addr().String()), zap.String("upstream", endpoint), zap.Bool("tracing", tp != nil))
	h, err := demoHandler(gateway.Traced(g.Handler(), tp), s, gateway.Config{})
	if err != nil {
		return err
	}
	return serveUntil(ctx, gwLn, h, log)
}

// newGateway builds the gateway over the NerdGraph client at endpoint, wired to a
// migration pilot built from mcfg (pass-through, compare, the usage report, explain)
// and, in fleet mode, to the fleet's store (nil: none);
// copts holds the client's configured limits (upstreamOptions), to which it adds the
// user agent, the metrics' hooks and tracing.
func newGateway(endpoint string, store *fleet.Store, cfg gateway.Config, mcfg migrate.Config, copts ng.Options, log *zap.Logger, topts translate.Options,
	tp trace.TracerProvider) (*gateway.Gateway, *migrate.Pilot) {
	m := gateway.NewMetrics()
	copts.UserAgent, copts.Observe, copts.ObserveAnswerWait, copts.TracerProvider = "v2bridge/"+version, m.ObserveUpstream, m.ObserveAnswerWait, tp
	if store != nil { // fleet mode: limits, write counts, attempt records and usage rows shared (config.go)
		cfg.Store, mcfg.Store = store, store
		copts.Leases, topts.Writes, topts.Attempts, topts.Deployments = store, store, store, store
		if store.SharesCache() {
			topts.SharedCache = store
		}
	}
	client := ng.NewClient(endpoint, copts)
	m.WatchBreaker(client.BreakerOpen)
	topts.Warn, topts.ObserveCache = gateway.NoteDegraded, m.ObserveCache
	topts.Background = func(what string, err error) { log.Warn(what, zap.Error(err)) }
	tr := translate.New(client, topts)
	mcfg.Metrics, mcfg.RESTUpstream, mcfg.MaxBodyBytes, mcfg.Now = m, cfg.RESTUpstream, cfg.MaxBodyBytes, cfg.Now
	p := migrate.New(mcfg, log)
	p.Wire(&cfg)
	cfg.Ready = client.Ping
	return gateway.New(cfg, tr, log), p
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	opts := serveFlags(fs)
	if err := parseFlags(fs, "serve", args, stdout, stderr); err != nil {
		return err
	}
	cfgPath, listen, upstream, logLevel := opts.cfgPath, opts.listen, opts.upstream, opts.logLevel
	cfg, err := loadEffective(*cfgPath, os.Environ(), func(cfg *fileConfig) {
		if *listen != "" {
			cfg.Listen = *listen
		}
		if *upstream != "" {
			cfg.Upstream = *upstream
		}
		if *logLevel != "" {
			cfg.LogLevel = *logLevel
		}
	})
	if err != nil {
		return err
	}
	endpoint, err := ng.ResolveEndpoint(cfg.Upstream)
	if err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	keys, err := cfg.keyMap(os.Getenv)
	if err != nil {
		return err
	}
	rest, _ := cfg.restUpstream()
	reportToken := ""
	if cfg.Report.AdminTokenEnv != "" {
		reportToken = strings.TrimSpace(os.Getenv(cfg.Report.AdminTokenEnv))
	}
	modes, _ := cfg.modes()
	retained, _ := cfg.retainedAlerts()
	log, stopLog, err := newBufferedLogger(cfg.LogLevel, cfg.LogFormat == "console", stderr)
	if err != nil {
		return err
	}
	defer stopLog() // flushes the buffered lines
	if err := cfg.unknownEnv(os.Environ()); err != nil {
		log.Warn("environment variables v2bridge does not read", zap.Error(err))
	}
	tp, stopTracing, err := setupTracing(ctx, os.Getenv, log)
	if err != nil {
		return err
	}
	defer flushTraces(stopTracing, log)
	store, err := cfg.Store.open(os.Getenv, log, cfg.Cache.sharedWindow()) // fleet mode (config.go); nil without store.url
	if err != nil {
		return err
	}
	if store != nil {
		defer func() { _ = store.Close() }()
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	choices, summaryAll := cfg.metricChoices()
	warnIfUpstreamIsSelf(rest, ln, log) // loopcheck.go
	g, pilot := newGateway(endpoint, store, gateway.Config{
		PublicURL:        cfg.PublicURL,
		DefaultAccountID: cfg.DefaultAccountID,
		RequestTimeout:   cfg.RequestTimeout,
		Keys:             keys,

		RejectUnmappedLegacyKeys:   cfg.RejectUnmappedLegacyKeys,
		RateLimitPerMinute:         rateLimit(cfg.RateLimitPerMinute),
		UseCreateDeployment:        cfg.UseCreateDeployment,
		RESTUpstream:               rest,
		Modes:                      modes,
		UnmatchedPassthrough:       cfg.UnmatchedPassthrough,
		RetainedAlerts:             retained,
		MaxInFlight:                cfg.MaxInFlight,
		MaxUnauthenticatedInFlight: cfg.MaxUnauthInFlight,
		BodyMinRate:                offWhenZeroRate(cfg.BodyMinRate),
		BodyGrace:                  cfg.BodyGrace,
		TrustedProxies:             mustTrusted(cfg.TrustedProxies),
		BrowserLoader:              cfg.BrowserLoader,
		RejectedKeyTTL:             offWhenZero(cfg.RejectedKeyTTL),
		AuthTTL:                    cfg.Cache.AuthTTL,
		AuthFailuresPerMinute:      rateLimit(cfg.AuthFailuresPerMinute),
	}, migrate.Config{
		ReportStateFile:     cfg.Report.StateFile,
		ReportToken:         reportToken,
		ReportPrometheusURL: cfg.Report.PrometheusURL,
		ReportMaxCallers:    cfg.Report.MaxCallers,
		ReportMaxAgents:     cfg.Report.MaxAgents,
		ReportVerifyFile:    cfg.Report.VerifyFile,
		Compare: migrate.CompareSettings{
			PrimaryGraph: cfg.Compare.Primary == "graph",
			Timeout:      cfg.Compare.Timeout,
			Options:      migrate.CompareOptions{Tolerance: cfg.Compare.Tolerance, Ignore: cfg.Compare.Ignore},
			PerRoute:     perRouteCompare(cfg.Compare),
			Fallback:     cfg.Compare.Fallback,
			FallbackFor:  perRouteFallback(cfg.Compare),
		},
	}, cfg.upstreamOptions(), log, translate.Options{
		CursorTTL: cfg.Cache.CursorTTL, ListTTL: cfg.Cache.ListTTL, AccountTTL: cfg.Cache.AccountTTL,
		MetricDataTTL: offWhenZero(cfg.Cache.MetricDataTTL), EntityTTL: offWhenZero(cfg.Cache.EntityTTL),
		MaxEntries: cfg.Cache.MaxEntries, MetricNamesWindow: cfg.MetricNamesWindow,
		MaxCacheBytes: cfg.Cache.MaxBytes, WriteAttemptWindow: cfg.WriteAttemptWindow,
		NameLike: cfg.NameFilter == "like", NameIndexRefresh: cfg.Cache.NameIndexRefresh, NameIndexMaxStale: cfg.Cache.NameIndexMaxStale,
		NameIndexMaxApps: cfg.Cache.NameIndexMaxApps, NameIndexes: cfg.Cache.NameIndexes,
		MetricChoices: choices, SummaryAllTransactions: summaryAll,
	}, tp)
	applyMemoryLimit(os.Getenv, log) // memlimit.go
	if cfg.AdminListen != "" {
		al, err := net.Listen("tcp", cfg.AdminListen)
		if err != nil {
			return fmt.Errorf("admin_listen: %w", err)
		}
		asrv := &http.Server{Handler: g.AdminHandler(), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = asrv.Serve(al) }()
		defer asrv.Close()
	}
	if cfg.PprofListen != "" {
		pl, err := net.Listen("tcp", cfg.PprofListen)
		if err != nil {
			return fmt.Errorf("pprof_listen: %w", err)
		}
		pm := http.NewServeMux()
		pm.HandleFunc("/debug/pprof/", pprof.Index)
		pm.HandleFunc("/debug/pprof/profile", pprof.Profile)
		pm.HandleFunc("/debug/pprof/trace", pprof.Trace)
		pm.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		pm.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		psrv := &http.Server{Handler: pm, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = psrv.Serve(pl) }()
		defer psrv.Close()
	}
	saved := make(chan error, 1)
	go func() { saved <- pilot.RunReportState(ctx, 5*time.Second) }()
	defer func() {
		if err := <-saved; err != nil {
			log.Warn("usage report state not saved", zap.Error(err))
		}
	}()
	log.Info("serving", zap.String("version", version), zap.String("commit", commit),
		zap.String("listen", ln.Addr().String()), zap.String("upstream", endpoint), zap.Bool("tls", cfg.TLSCertFile != ""),
		zap.Bool("tracing", tp != nil))
	if cfg.TLSCertFile != "" {
		certs, err := newCertReloader(cfg.TLSCertFile, cfg.TLSKeyFile, log) // tlsreload.go
		if err != nil {
			return err
		}
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		defer signal.Stop(hup)
		tick := time.NewTicker(certCheckEvery)
		defer tick.Stop()
		go certs.watch(ctx, tick.C, hup, nil)
		ln = tls.NewListener(ln, &tls.Config{GetCertificate: certs.GetCertificate, MinVersion: tls.VersionTLS12})
	}
	return serveUntil(drainFirst(ctx, g, cfg.ShutdownDelay, log), ln, gateway.Traced(g.Handler(), tp), log)
}

// flushTraces sends the spans still queued, for up to 5 s, after the server stopped.
func flushTraces(shutdown func(context.Context) error, log *zap.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := shutdown(ctx); err != nil {
		log.Warn("traces not flushed", zap.Error(err))
	}
}

func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	opts := simFlags(fs)
	listen, scale := opts.listen, opts.scale
	if err := parseFlags(fs, "sim", args, stdout, stderr); err != nil {
		return err
	}
	log, err := newLogger("info", true, stderr)
	if err != nil {
		return err
	}
	var simOpts []sim.Option
	if *scale != "" {
		l, err := sim.ParseScale(*scale)
		if err != nil {
			return err
		}
		simOpts = append(simOpts, sim.WithLargeAccount(l))
	}
	s, err := newSimulator(simOpts...)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	fmt.Fprintf(stdout, "NerdGraph simulator on http://%s/graphql (keys NRAK-DEMO-ACCOUNT-1, NRAK-DEMO-ACCOUNT-2, NRAK-DEMO-MULTI)\n", ln.Addr())
	return serveUntil(ctx, ln, s, log)
}

// serveUntil serves h on ln until ctx ends, then shuts down gracefully: no new
// connections, in-flight requests get up to 30 s to finish.
func serveUntil(ctx context.Context, ln net.Listener, h http.Handler, log *zap.Logger) error {
	srv := gateway.NewServer(h, log)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// rateLimit turns the file's "0 disables" into the gateway's "negative disables".
func rateLimit(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

func perRouteCompare(c compareConfig) map[string]migrate.CompareOptions {
	out := map[string]migrate.CompareOptions{}
	for name, rc := range c.Routes {
		o := migrate.CompareOptions{Tolerance: rc.Tolerance, Ignore: rc.Ignore}
		if o.Tolerance == 0 {
			o.Tolerance = c.Tolerance
		}
		if o.Ignore == nil {
			o.Ignore = c.Ignore
		}
		out[name] = o
	}
	return out
}

func perRouteFallback(c compareConfig) map[string]bool {
	out := map[string]bool{}
	for name, rc := range c.Routes {
		if rc.Fallback != nil {
			out[name] = *rc.Fallback
		}
	}
	return out
}

// offWhenZero maps a configured TTL of 0 (cache off) to translate's "off" (negative).
func offWhenZero(ttl time.Duration) time.Duration {
	if ttl == 0 {
		return -1
	}
	return ttl
}

// offWhenZeroRate maps body_min_rate: 0 (no minimum rate) to the gateway's off value.
func offWhenZeroRate(rate int64) int64 {
	if rate == 0 {
		return -1
	}
	return rate
}

// mustTrusted is trustedProxies for a configuration validate has accepted.
func mustTrusted(list []string) []netip.Prefix {
	p, _ := trustedProxies(list)
	return p
}
