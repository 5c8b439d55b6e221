package gateway

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
)

// Server timeouts: a caller that sends its header slowly, its body slowly or reads the
// answer slowly holds a connection for at most these (hostile callers), and an idle
// keep-alive connection is closed after idleTimeout.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 60 * time.Second
	writeTimeout      = 120 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
)

// NewServer is the HTTP server the gateway answers on (`v2bridge serve` and `demo`),
// with the timeouts above and net/http's own errors logged to log. The load harness
// (tests/bench) serves the measured gateway and its ReverseProxy peer on it too, so
// both pay for these deadlines as a deployed gateway does.
func NewServer(h http.Handler, log *zap.Logger) *http.Server {
	if log == nil {
		log = zap.NewNop()
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          zap.NewStdLog(log),
	}
}

// Handler is the gateway's root handler: the REST v2 routes with their middleware,
// plus /metrics, /healthz and /readyz.
func (g *Gateway) Handler() http.Handler {
	v2 := g.middleware(g.router)
	metrics := promhttp.HandlerFor(g.cfg.Metrics.reg, promhttp.HandlerOpts{})
	// A switch on the exact path, as net/http's ServeMux would match these patterns (no
	// trailing slash: exact; "/" takes the rest), without a pattern match on the way to
	// every v2 route.
	return g.edges(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/metrics":
			metrics.ServeHTTP(w, r)
		case "/healthz":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("ok\n"))
		case "/readyz":
			g.serveReadyz(w, r)
		case "/v2bridge/report", "/v2bridge/report.json", "/v2bridge/report.csv", "/v2bridge/explain":
			if g.operator == nil {
				v2.ServeHTTP(w, r)
				return
			}
			g.operator.ServeHTTP(w, r)
		default:
			v2.ServeHTTP(w, r)
		}
	}))
}

// AdminHandler serves the operator endpoints — /metrics, /healthz, /readyz and the
// usage report (/v2bridge/report, .json, .csv) — for a separate admin listener
// (admin_listen), so they can be kept off the API port's network path. The API port
// keeps serving them too.
func (g *Gateway) AdminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(g.cfg.Metrics.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", g.ready.serve)
	if g.operator != nil {
		mux.Handle("/v2bridge/report", g.operator)
		mux.Handle("/v2bridge/report.json", g.operator)
		mux.Handle("/v2bridge/report.csv", g.operator)
	}
	return mux
}
