package main

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"time"
)

// The load curve: application show and metric data at 1, 10, 50 and 200
// connections, the gateway beside the (fair) ReverseProxy, so the knee — where more
// connections stop buying throughput and only add latency — is visible.

// curvePoint is one server at one load.
type curvePoint struct {
	Scenario string  `json:"scenario"`
	Server   string  `json:"server"`
	Conns    int     `json:"connections"`
	RPS      float64 `json:"req_per_s"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	Errors   int64   `json:"errors"`
}

var curveScenarios = []string{"application show", "metric data 3 names x 30 slices"}

func runCurve(gw, rp *child, gql map[string][]byte, scenarios []scenario, points []int, d, warm time.Duration) ([]curvePoint, error) {
	var out []curvePoint
	for _, name := range curveScenarios {
		var sc scenario
		for _, s := range scenarios {
			if s.Name == name {
				sc = s
			}
		}
		if sc.Name == "" {
			return nil, fmt.Errorf("curve: no scenario %q", name)
		}
		servers := []struct {
			name string
			url  string
			sc   scenario
		}{
			{"gateway", gw.url, sc},
			{"ReverseProxy", rp.url, scenario{Name: sc.Name, Method: "POST", Path: "/graphql", Body: string(gql[sc.Name])}},
		}
		for _, c := range points {
			for _, srv := range servers {
				load(srv.url, srv.sc, c, min(warm, d))
				var s sample
				s.add(measure(srv.url, srv.sc, c, d), memory{}, memory{})
				r := s.result()
				out = append(out, curvePoint{Scenario: name, Server: srv.name, Conns: c, RPS: r.RPS, P50ms: r.P50ms, P99ms: r.P99ms, Errors: r.Errors})
			}
		}
	}
	return out, nil
}

func reportCurve(ps []curvePoint) {
	fmt.Printf("\n%-34s %-13s %6s %10s %9s %9s %7s\n", "load curve", "server", "conns", "req/s", "p50 ms", "p99 ms", "errors")
	for _, p := range ps {
		fmt.Printf("%-34s %-13s %6d %10.0f %9.2f %9.2f %7d\n", p.Scenario, p.Server, p.Conns, p.RPS, p.P50ms, p.P99ms, p.Errors)
	}
}

// curveSVG draws throughput (left) and p99 latency (right) against connections (log
// scale), a line per scenario and server.
func curveSVG(ps []curvePoint) []byte {
	const w, h, pad, panel = 980, 380, 60, 420
	type key struct{ sc, srv string }
	lines := map[key][]curvePoint{}
	var keys []key
	var conns []int
	seen := map[int]bool{}
	maxRPS, maxP99 := 1.0, 1.0
	for _, p := range ps {
		k := key{p.Scenario, p.Server}
		if lines[k] == nil {
			keys = append(keys, k)
		}
		lines[k] = append(lines[k], p)
		if !seen[p.Conns] {
			seen[p.Conns] = true
			conns = append(conns, p.Conns)
		}
		maxRPS, maxP99 = math.Max(maxRPS, p.RPS), math.Max(maxP99, p.P99ms)
	}
	sort.Ints(conns)
	lo, hi := math.Log10(float64(max(conns[0], 1))), math.Log10(float64(max(conns[len(conns)-1], 2)))
	if hi == lo {
		hi = lo + 1
	}
	x := func(origin float64, c int) float64 {
		return origin + (math.Log10(float64(c))-lo)/(hi-lo)*(panel-pad)
	}
	y := func(v, top float64) float64 { return h - pad - v/top*(h-2*pad) }
	colors := []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"}
	dash := map[string]string{"gateway": "", "ReverseProxy": ` stroke-dasharray="6 4"`}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h+20*len(keys))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for i, panelName := range []string{"throughput (req/s)", "p99 latency (ms)"} {
		origin := float64(pad + i*(panel+80))
		top := maxRPS
		if i == 1 {
			top = maxP99
		}
		fmt.Fprintf(&b, `<text x="%.0f" y="20">%s vs connections</text>`+"\n", origin, panelName)
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%d" x2="%.0f" y2="%d" stroke="black"/>`+"\n", origin, h-pad, origin+panel-pad, h-pad)
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%d" x2="%.0f" y2="%d" stroke="black"/>`+"\n", origin, pad, origin, h-pad)
		fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="end">%.0f</text>`+"\n", origin-4, pad+4, top)
		fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="end">0</text>`+"\n", origin-4, h-pad+4)
		for _, c := range conns {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(origin, c), h-pad+16, c)
		}
		for k, key := range keys {
			var pts []string
			for _, p := range lines[key] {
				v := p.RPS
				if i == 1 {
					v = p.P99ms
				}
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(origin, p.Conns), y(v, top)))
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", colors[(k/2)%len(colors)], dash[key.srv], join(pts))
		}
	}
	for k, key := range keys {
		yy := h + 14*k - 10
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`, pad, yy, pad+30, yy, colors[(k/2)%len(colors)], dash[key.srv])
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s — %s</text>`+"\n", pad+36, yy+4, key.sc, key.srv)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func join(s []string) string {
	var b bytes.Buffer
	for i, v := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(v)
	}
	return b.String()
}
