package gateway

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

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
