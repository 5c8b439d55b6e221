package gateway

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/v2bridge/v2bridge/restv2"
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
		w.WriteHeader(restv2.StatusServiceUnavailable)
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

// storeLine is /readyz?verbose's line about the shared store ("" without one). The
// store's state never changes readiness: a replica without it still answers.
func (g *Gateway) storeLine() string {
	if g.cfg.Store == nil {
		return ""
	}
	if err := g.cfg.Store.Status(); err != nil {
		return "store: unreachable (rate limits, write retirement and the shared cache per replica until it returns): " + err.Error() + "\n"
	}
	return "store: ok (fleet mode)\n"
}

// upstreamProbe is the reachability of one upstream, probed at most every
// ReadyCacheFor.
type upstreamProbe struct {
	name, target string
	check        func(ctx context.Context) error

	mu      sync.Mutex
	checked time.Time
	err     error
}

func (u *upstreamProbe) state(ctx context.Context) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.checked.IsZero() && time.Since(u.checked) < ReadyCacheFor {
		return u.err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	u.err = u.check(ctx)
	u.checked = time.Now()
	return u.err
}

// dependsOnREST reports whether the configuration sends any call to the REST v2 API:
// a route in passthrough or compare mode, unmatched pass-through, or the retained
// alerts namespaces passed through.
func (c *Config) dependsOnREST() bool {
	if c.UnmatchedPassthrough || c.RetainedAlerts == ModePassthrough {
		return true
	}
	for _, m := range c.Modes {
		if m == ModePassthrough || m == ModeCompare {
			return true
		}
	}
	return false
}

// restProbe checks that the REST v2 API answers HTTP at all: any status (a keyless
// request gets 401 or 404) is reachable; only a failure to get an answer is not.
func restProbe(base string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		u, err := url.Parse(base)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodHead, u.String()+"/applications.json", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		return nil
	}
}

// upstreamProbes lists every upstream the configuration depends on, by name.
func (g *Gateway) upstreamProbes() []*upstreamProbe {
	out := []*upstreamProbe{{name: "nerdgraph", check: func(ctx context.Context) error {
		if g.cfg.Ready == nil {
			return nil
		}
		return g.cfg.Ready(ctx)
	}}}
	if g.cfg.dependsOnREST() {
		base := g.cfg.RESTUpstream
		if base == "" {
			base = RESTEndpointUS
		}
		out = append(out, &upstreamProbe{name: "rest", target: base, check: restProbe(base)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// serveReadyz is /readyz: the readiness verdict, and with ?verbose every upstream the
// configuration depends on (NerdGraph, and the REST v2 API when a route, unmatched
// paths or the retained alerts namespaces reach it) with its state, one a line:
// "upstream rest https://api.newrelic.com/v2: unreachable: <why>". An upstream's state
// never changes the verdict's status code.
func (g *Gateway) serveReadyz(w http.ResponseWriter, r *http.Request) {
	if _, verbose := r.URL.Query()["verbose"]; !verbose {
		g.ready.serve(w, r)
		return
	}
	rec := NewRecorder(0)
	g.ready.serve(rec, r)
	for _, u := range g.upstreams {
		line := "upstream " + u.name
		if u.target != "" {
			line += " " + u.target
		}
		if err := u.state(r.Context()); err != nil {
			line += ": unreachable: " + err.Error()
		} else {
			line += ": ok"
		}
		rec.buf.WriteString(line + "\n")
	}
	rec.buf.WriteString(g.storeLine())
	rec.Replay(w)
}

// Recorder keeps an answer to read or replay later: its header, status and body, cut
// at Limit bytes (0: all). Every write reports all its bytes written.
type Recorder struct {
	Limit  int
	header http.Header
	status int
	buf    bytes.Buffer
}

// NewRecorder returns a Recorder keeping at most limit bytes of body (0: all).
func NewRecorder(limit int) *Recorder { return &Recorder{Limit: limit, header: http.Header{}} }

// Header is the answer's header.
func (r *Recorder) Header() http.Header { return r.header }

// WriteHeader keeps the first status written.
func (r *Recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

// Write keeps as much of p as fits within Limit.
func (r *Recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = restv2.StatusOK
	}
	keep := p
	if r.Limit > 0 {
		keep = p[:min(len(p), max(r.Limit-r.buf.Len(), 0))]
	}
	r.buf.Write(keep)
	return len(p), nil
}

// Status is the status written (200 when only a body was, 0 when nothing was).
func (r *Recorder) Status() int { return r.status }

// Body is the body kept.
func (r *Recorder) Body() []byte { return r.buf.Bytes() }

// Replay writes the kept answer to w.
func (r *Recorder) Replay(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range r.header {
		h[k] = v
	}
	status := r.status
	if status == 0 {
		status = restv2.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(r.buf.Bytes())
}
