package gateway

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// ReadyCacheFor is how long a NerdGraph reachability verdict is reused, so probes and
// scrapes do not hammer NerdGraph.
const ReadyCacheFor = 5 * time.Second

// readiness is /readyz. It reflects this replica's ability to answer
// — it is listening (it answers at all), its configuration is loaded (the gateway
// exists) and it is not draining — and never NerdGraph's health: a NerdGraph incident
// must not make every replica unready at once (callers would get connection errors
// instead of v2 502/503 bodies). NerdGraph's reachability is reported by
// /readyz?verbose and the v2bridge_nerdgraph_reachable gauge.
type readiness struct {
	check    func(ctx context.Context) error
	draining atomic.Bool

	mu      sync.Mutex
	checked time.Time
	err     error
}

func (rd *readiness) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, verbose := r.URL.Query()["verbose"]
	if rd.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready: draining (shutting down)\n"))
		return
	}
	if !verbose {
		_, _ = w.Write([]byte("ready\n"))
		return
	}
	nerdgraph := "nerdgraph: reachable\n"
	if err := rd.upstream(r.Context()); err != nil {
		nerdgraph = "nerdgraph: unreachable: " + err.Error() + "\n"
	}
	_, _ = w.Write([]byte("ready\nlistening: yes\nconfig: loaded\ndraining: no\n" + nerdgraph))
}

// upstream is NerdGraph's reachability, checked at most every ReadyCacheFor.
func (rd *readiness) upstream(ctx context.Context) error {
	if rd.check == nil {
		return nil
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if time.Since(rd.checked) < ReadyCacheFor {
		return rd.err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	rd.err = rd.check(ctx)
	rd.checked = time.Now()
	return rd.err
}

// gauge is v2bridge_nerdgraph_reachable: 1 when NerdGraph answered the last check.
func (rd *readiness) gauge() prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "v2bridge_nerdgraph_reachable",
		Help: "1 when NerdGraph answered this replica's last reachability check (at most every 5 s), else 0. Readiness does not depend on it.",
	}, func() float64 {
		if rd.upstream(context.Background()) != nil {
			return 0
		}
		return 1
	})
}

// Drain marks the replica as shutting down: /readyz answers 503 so the endpoint is
// removed from load balancing, while requests keep being served until the server
// shuts down (in-flight ones finish).
func (g *Gateway) Drain() { g.ready.draining.Store(true) }
