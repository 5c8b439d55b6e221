package gateway

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"time"
)

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
	rec := &recorder{header: http.Header{}}
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
	rec.replay(w)
}
