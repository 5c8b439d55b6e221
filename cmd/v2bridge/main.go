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
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/graphql/sim"
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
  v2bridge demo    [--listen 127.0.0.1:8080]        gateway + NerdGraph simulator with demo data
  v2bridge serve   [--config FILE] [--listen ADDR] [--upstream us|eu|URL]
  v2bridge sim     [--listen 127.0.0.1:4000]        the NerdGraph simulator alone
  v2bridge config check FILE                       validate a configuration, print it (secrets redacted)
  v2bridge hash-key < keyfile                      SHA-256 of a legacy key, for the keys: section
  v2bridge version
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
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("missing command")
	}
	switch args[0] {
	case "demo":
		return runDemo(ctx, args[1:], stdout, stderr)
	case "serve":
		return runServe(ctx, args[1:], stderr)
	case "sim":
		return runSim(ctx, args[1:], stdout, stderr)
	case "config":
		if len(args) != 3 || args[1] != "check" {
			return errors.New("usage: v2bridge config check FILE")
		}
		cfg, err := loadConfig(args[2])
		if err != nil {
			return err
		}
		if err := cfg.applyEnv(os.Getenv); err != nil {
			return err
		}
		if err := cfg.validate(os.Getenv); err != nil {
			return fmt.Errorf("config %s:\n%w", args[2], err)
		}
		fmt.Fprintf(stdout, "# %s is valid; effective configuration (user keys are never printed):\n%s", args[2], cfg.redacted())
		return nil
	case "hash-key":
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
		fmt.Fprintf(stdout, "v2bridge %s (commit %s, built %s)\n", version, commit, date)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func newLogger(level string, console bool, w io.Writer) (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, fmt.Errorf("log level: %w", err)
	}
	encCfg := zap.NewProductionEncoderConfig()
	encCfg.EncodeTime = zapcore.ISO8601TimeEncoder
	var enc zapcore.Encoder
	if console {
		encCfg.EncodeLevel = zapcore.CapitalLevelEncoder
		enc = zapcore.NewConsoleEncoder(encCfg)
	} else {
		enc = zapcore.NewJSONEncoder(encCfg)
	}
	return zap.New(zapcore.NewCore(enc, zapcore.AddSync(w), lvl)), nil
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
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8080", "gateway listen address")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
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
	simLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("simulator listener: %w", err)
	}
	simSrv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = simSrv.Serve(simLn) }()
	defer simSrv.Close()

	gwLn, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("gateway listener: %w", err)
	}
	endpoint := "http://" + simLn.Addr().String() + "/graphql"
	g := newGateway(endpoint, gateway.Config{ReportToken: demoReportToken}, 30*time.Second, log, translate.Options{})
	base := "http://" + gwLn.Addr().String()
	fmt.Fprintf(stdout, `v2bridge demo: REST API v2 on %s, answered from the NerdGraph simulator at %s

Try:
  curl -i -H 'X-Api-Key: NRAK-DEMO-ACCOUNT-1' %s/v2/applications.json
  curl -H 'X-Api-Key: NRAK-DEMO-ACCOUNT-1' '%s/v2/applications.xml?filter[name]=checkout'
  curl -H 'X-Api-Key: NRAK-DEMO-MULTI' -H 'X-Account-ID: 1000002' %s/v2/applications.json

Keys: NRAK-DEMO-ACCOUNT-1 (account 1000001), NRAK-DEMO-ACCOUNT-2 (1000002), NRAK-DEMO-MULTI (both).
Usage report: curl -H 'Authorization: Bearer %s' %s/v2bridge/report
`, base, endpoint, base, base, base, demoReportToken, base)
	return serveUntil(ctx, gwLn, g.Handler(), log)
}

func newGateway(endpoint string, cfg gateway.Config, upstreamTimeout time.Duration, log *zap.Logger, topts translate.Options) *gateway.Gateway {
	m := gateway.NewMetrics()
	client := ng.NewClient(endpoint, ng.Options{Timeout: upstreamTimeout, UserAgent: "v2bridge/" + version, Observe: m.ObserveUpstream})
	topts.Warn, topts.ObserveCache = gateway.NoteDegraded, m.ObserveCache
	tr := translate.New(client, topts)
	cfg.Metrics = m
	cfg.Ready = client.Ping
	return gateway.New(cfg, tr, log)
}

func runServe(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "YAML configuration file (see configs/v2bridge.yaml)")
	listen := fs.String("listen", "", "listen address (overrides the file)")
	upstream := fs.String("upstream", "", "NerdGraph: us, eu or a URL (overrides the file)")
	logLevel := fs.String("log-level", "", "debug, info, warn or error (overrides the file)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	if err := cfg.applyEnv(os.Getenv); err != nil {
		return err
	}
	if *listen != "" {
		cfg.Listen = *listen
	}
	if *upstream != "" {
		cfg.Upstream = *upstream
	}
	if *logLevel != "" {
		cfg.LogLevel = *logLevel
	}
	if err := cfg.validate(os.Getenv); err != nil {
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
	log, err := newLogger(cfg.LogLevel, cfg.LogFormat == "console", stderr)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	g := newGateway(endpoint, gateway.Config{
		PublicURL:        cfg.PublicURL,
		DefaultAccountID: cfg.DefaultAccountID,
		RequestTimeout:   cfg.RequestTimeout,
		Keys:             keys,

		RejectUnmappedLegacyKeys: cfg.RejectUnmappedLegacyKeys,
		RateLimitPerMinute:       rateLimit(cfg.RateLimitPerMinute),
		UseCreateDeployment:      cfg.UseCreateDeployment,
		RESTUpstream:             rest,
		Modes:                    modes,
		UnmatchedPassthrough:     cfg.UnmatchedPassthrough,
		MaxInFlight:              cfg.MaxInFlight,
		BrowserLoader:            cfg.BrowserLoader,
		ReportStateFile:          cfg.Report.StateFile,
		ReportToken:              reportToken,
		ReportPrometheusURL:      cfg.Report.PrometheusURL,
		Compare: gateway.CompareSettings{
			PrimaryGraph: cfg.Compare.Primary == "graph",
			Timeout:      cfg.Compare.Timeout,
			Options:      gateway.CompareOptions{Tolerance: cfg.Compare.Tolerance, Ignore: cfg.Compare.Ignore},
			PerRoute:     perRouteCompare(cfg.Compare),
		},
	}, cfg.UpstreamTimeout, log, translate.Options{
		CursorTTL: cfg.Cache.CursorTTL, ListTTL: cfg.Cache.ListTTL, AccountTTL: cfg.Cache.AccountTTL,
		MetricDataTTL: offWhenZero(cfg.Cache.MetricDataTTL), EntityTTL: offWhenZero(cfg.Cache.EntityTTL),
		MaxEntries: cfg.Cache.MaxEntries, MetricNamesWindow: cfg.MetricNamesWindow,
	})
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
	go func() { saved <- g.RunReportState(ctx, 5*time.Second) }()
	defer func() {
		if err := <-saved; err != nil {
			log.Warn("usage report state not saved", zap.Error(err))
		}
	}()
	log.Info("serving", zap.String("listen", ln.Addr().String()), zap.String("upstream", endpoint),
		zap.Bool("tls", cfg.TLSCertFile != ""))
	if cfg.TLSCertFile != "" {
		cert, err := tls.LoadX509KeyPair(cfg.TLSCertFile, cfg.TLSKeyFile)
		if err != nil {
			return fmt.Errorf("tls_cert_file/tls_key_file: %w", err)
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	return serveUntil(ctx, ln, g.Handler(), log)
}

func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:4000", "simulator listen address")
	scale := fs.String("scale", "", "add a generated large account, e.g. apps=50000,hosts=3,names=5000 (account "+fmt.Sprint(sim.ScaleAccountID)+", key "+sim.ScaleKey+")")
	if err := fs.Parse(args); err != nil {
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
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          zap.NewStdLog(log),
	}
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

func perRouteCompare(c compareConfig) map[string]gateway.CompareOptions {
	out := map[string]gateway.CompareOptions{}
	for name, rc := range c.Routes {
		o := gateway.CompareOptions{Tolerance: rc.Tolerance, Ignore: rc.Ignore}
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

// offWhenZero maps a configured TTL of 0 (cache off) to translate's "off" (negative).
func offWhenZero(ttl time.Duration) time.Duration {
	if ttl == 0 {
		return -1
	}
	return ttl
}
