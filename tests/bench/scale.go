package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
)

// The scale scenarios: the same v2 requests on a generated account of the
// default demo size and on a large one (sim.ParseScale), each against the simulator
// itself (not a canned answer: the round trips are the point), the gateway in a process
// of its own so its CPU time is its own. Round trips are counted by the gateway
// (X-V2bridge-Upstream-Calls) and do not depend on the machine's load; CPU and latency
// do, and the simulator's own work (it generates every metric row it scans) is in the
// latency.

// scaleScenario is one request of the scale table; {mid}, {app0}, {app1} and {ids} are
// filled in per account. Like scenarios are served by a gateway with name_filter: like.
type scaleScenario struct {
	Name string
	Path string
	Like bool
}

var scaleScenarios = []scaleScenario{
	{Name: "list page 1", Path: "/v2/applications.json"},
	{Name: "list middle page", Path: "/v2/applications.json?page={mid}"},
	{Name: "filter[name] matching 1", Path: "/v2/applications.json?filter[name]={name1}"},
	{Name: "filter[name] matching apps/100", Path: "/v2/applications.json?filter[name]=team007"},
	{Name: "filter[name] matching 1, like", Path: "/v2/applications.json?filter[name]={name1}", Like: true},
	{Name: "filter[name] matching apps/100, like", Path: "/v2/applications.json?filter[name]=team007", Like: true},
	// A page of 200 matches on both accounts (all 264 of the small one, the first 1000
	// of the large): the filtered page's cost side by side, which apps/100 (3 matches
	// on the small account) cannot show.
	{Name: "filter[name] matching a full page", Path: "/v2/applications.json?filter[name]=large-app-0"},
	{Name: "filter[ids] of 200", Path: "/v2/applications.json?filter[ids]={ids}"},
	{Name: "hosts of one application", Path: "/v2/applications/{app1}/hosts.json"},
	{Name: "metric names (5000+ names)", Path: "/v2/applications/{app0}/metrics.json"},
}

// scaleResult is one scenario on one account.
type scaleResult struct {
	Scenario string `json:"scenario"`
	Apps     int    `json:"apps"`
	Status   int    `json:"status"`
	// ColdCalls is the first request's NerdGraph round trips (no cursor cached), Calls
	// the following requests' (what a client paging with the Link header pays).
	ColdCalls int64 `json:"cold_round_trips"`
	Calls     int64 `json:"round_trips"`
	// ColdCPUus is the gateway's CPU for the first request alone; CPUus is per request
	// of the following ones (answered from the list cache where Calls is 0: a filtered
	// list and the metric names are kept for a minute).
	ColdCPUus float64 `json:"gateway_cold_cpu_us"`
	Degraded  string  `json:"degraded,omitempty"`
	Requests  int     `json:"requests"`
	CPUus     float64 `json:"gateway_cpu_us_per_req"`
	P50ms     float64 `json:"p50_ms"`
	MaxMs     float64 `json:"max_ms"`
	Items     int     `json:"items"`
	// ReplayedCPUus and ReplayedP50ms are Replays more of the same request (at least
	// -scale-replays, for at least minReplayTime) with the simulator's answers
	// replayed at once (replayer): the gateway's own cost of the page.
	// ReplayMisses counts the requests they made that had no recorded answer (0, or
	// the figures are partly the simulator's again).
	Replays       int     `json:"replays"`
	ReplayedCPUus float64 `json:"gateway_cpu_us_per_req_replayed"`
	ReplayedP50ms float64 `json:"p50_ms_replayed"`
	ReplayMisses  int64   `json:"replay_misses"`
}

func (s scaleScenario) path(l sim.LargeAccount) string {
	pages := (l.Apps + 199) / 200
	ids := make([]string, 0, 200)
	for i := 0; i < min(200, l.Apps); i++ {
		ids = append(ids, strconv.Itoa(l.LargeAppID((l.Apps-min(200, l.Apps))/2+i)))
	}
	r := strings.NewReplacer(
		"{mid}", strconv.Itoa(max(pages/2, 1)+pages%2),
		"{name1}", l.LargeAppName(min(42, l.Apps-1))[:len("large-app-0042-")],
		"{ids}", strings.Join(ids, ","),
		"{app0}", strconv.Itoa(l.LargeAppID(0)),
		"{app1}", strconv.Itoa(l.LargeAppID(min(1, l.Apps-1))),
	)
	return r.Replace(s.Path)
}

// runScale measures every scale scenario on each spec's account, n requests each after
// the first, then replays requests with the simulator's answers replayed. With a
// profileDir, each account's gateway writes its CPU profile to
// profileDir/scale-<apps>/gateway-scale.pprof.
func runScale(specs []string, n, replays int, profileDir string) ([]scaleResult, error) {
	var out []scaleResult
	for _, spec := range specs {
		start := time.Now()
		l, s, err := largeSim(spec)
		if err != nil {
			return nil, err
		}
		rp := newReplayer(s)
		simURL, stopSim := serve(rp)
		fmt.Printf("scale %s: simulator ready in %.1f s\n", spec, time.Since(start).Seconds())
		dir := ""
		if profileDir != "" {
			dir = filepath.Join(profileDir, fmt.Sprintf("scale-%d", l.Apps))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				stopSim()
				return nil, err
			}
		}
		gw, err := startChild("gateway-scale", simURL+sim.Path, "", dir)
		if err != nil {
			stopSim()
			return nil, err
		}
		var like *child // the gateway with name_filter: like, started for its first scenario
		stop := func() {
			gw.stop()
			if like != nil {
				like.stop()
			}
			stopSim()
		}
		for _, sc := range scaleScenarios {
			on := gw
			if sc.Like {
				if like == nil {
					if like, err = startChild("gateway-scale-like", simURL+sim.Path, "", dir); err != nil {
						stop()
						return nil, err
					}
				}
				on = like
			}
			r, err := measureScale(on, rp, sc, l, n, replays)
			if err != nil {
				stop()
				return nil, err
			}
			out = append(out, r)
		}
		stop()
	}
	return out, nil
}

// largeSim is the demo simulator with spec's generated account (sim.ParseScale), at the
// harness's fixed clock.
func largeSim(spec string, opts ...sim.Option) (sim.LargeAccount, *sim.Server, error) {
	l, err := sim.ParseScale(spec)
	if err != nil {
		return l, nil, err
	}
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		return l, nil, err
	}
	s, err := sim.NewDemo(data, append([]sim.Option{sim.WithClock(func() time.Time { return clock }), sim.WithLargeAccount(l)}, opts...)...)
	return l, s, err
}

func scaleRequest(base, path string, l sim.LargeAccount) (status int, calls int64, degraded string, items int, err error) {
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("X-Api-Key", l.Key)
	req.Header.Set("X-Account-ID", strconv.Itoa(l.ID))
	resp, err := transport.RoundTrip(req)
	if err != nil {
		return 0, 0, "", 0, err
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		k, rerr := resp.Body.Read(buf)
		b.Write(buf[:k])
		if rerr != nil {
			break
		}
	}
	calls, _ = strconv.ParseInt(resp.Header.Get("X-V2bridge-Upstream-Calls"), 10, 64)
	// Items: the objects of the answer's list (applications, application_hosts, metrics).
	items = strings.Count(b.String(), `"id":`)
	if strings.Contains(path, "/metrics.json") {
		items = strings.Count(b.String(), `"name":`)
	}
	return resp.StatusCode, calls, resp.Header.Get("X-V2bridge-Degraded"), items, nil
}

// minReplayTime is the least time the replayed requests of a scale scenario take.
const minReplayTime = 2 * time.Second

func measureScale(gw *child, rp *replayer, sc scaleScenario, l sim.LargeAccount, n, replays int) (scaleResult, error) {
	path := sc.path(l)
	r := scaleResult{Scenario: sc.Name, Apps: l.Apps, Requests: n}
	first, err := gw.mem()
	if err != nil {
		return r, err
	}
	status, cold, degraded, items, err := scaleRequest(gw.url, path, l)
	if err != nil {
		return r, fmt.Errorf("%s: %w", sc.Name, err)
	}
	r.Status, r.ColdCalls, r.Degraded, r.Items = status, cold, degraded, items
	before, err := gw.mem()
	if err != nil {
		return r, err
	}
	r.ColdCPUus = float64(before.CPUNanos-first.CPUNanos) / 1e3
	lat := make([]time.Duration, 0, n)
	for range n {
		t0 := time.Now()
		_, calls, _, _, err := scaleRequest(gw.url, path, l)
		if err != nil {
			return r, fmt.Errorf("%s: %w", sc.Name, err)
		}
		lat = append(lat, time.Since(t0))
		r.Calls = max(r.Calls, calls)
	}
	after, err := gw.mem()
	if err != nil {
		return r, err
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if n > 0 {
		r.CPUus = float64(after.CPUNanos-before.CPUNanos) / 1e3 / float64(n)
		r.P50ms, r.MaxMs = ms(lat[n/2]), ms(lat[n-1])
	}
	// The same requests with the answers replayed at once.
	rp.on.Store(true)
	defer rp.on.Store(false)
	misses := rp.misses.Load()
	lat = lat[:0]
	// At least replays requests and at least minReplayTime: 200 requests alone took
	// 0.03–0.4 s, and the 50,000 ÷ 264 ratios of the same build spread 0.87–1.33 over
	// three runs (a process's CPU time moves in scheduler ticks and garbage-collection
	// cycles; a request answered from the list cache costs ~0.1 ms).
	for start := time.Now(); len(lat) < replays || time.Since(start) < minReplayTime; {
		t0 := time.Now()
		if _, _, _, _, err := scaleRequest(gw.url, path, l); err != nil {
			return r, fmt.Errorf("%s replayed: %w", sc.Name, err)
		}
		lat = append(lat, time.Since(t0))
	}
	r.Replays = len(lat)
	replayed, err := gw.mem()
	if err != nil {
		return r, err
	}
	r.ReplayMisses = rp.misses.Load() - misses
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r.ReplayedCPUus = float64(replayed.CPUNanos-after.CPUNanos) / 1e3 / float64(len(lat))
	r.ReplayedP50ms = ms(lat[len(lat)/2])
	return r, nil
}

func reportScale(rs []scaleResult) {
	fmt.Printf("\n%-38s %7s %6s %10s %12s %11s %12s %9s %9s %6s %13s %10s %7s  %s\n", "scale scenario", "apps", "status", "cold trips", "cold CPU µs", "round trips", "CPU µs/req", "p50 ms", "max ms", "items", "replayed µs", "repl. p50", "misses", "degraded")
	for _, r := range rs {
		fmt.Printf("%-38s %7d %6d %10d %12.0f %11d %12.0f %9.2f %9.2f %6d %13.0f %10.2f %7d  %s\n", r.Scenario, r.Apps, r.Status, r.ColdCalls, r.ColdCPUus, r.Calls, r.CPUus, r.P50ms, r.MaxMs, r.Items, r.ReplayedCPUus, r.ReplayedP50ms, r.ReplayMisses, r.Degraded)
	}
	// Page cost across account sizes: the gateway's CPU per request on the largest
	// account over the smallest, per scenario.
	by := map[string][]scaleResult{}
	var order []string
	for _, r := range rs {
		if by[r.Scenario] == nil {
			order = append(order, r.Scenario)
		}
		by[r.Scenario] = append(by[r.Scenario], r)
	}
	fmt.Println()
	for _, name := range order {
		v := by[name]
		if len(v) < 2 || v[0].CPUus == 0 || v[0].ColdCPUus == 0 {
			continue
		}
		a, b := v[0], v[len(v)-1]
		replayed := "-"
		if a.ReplayedCPUus > 0 {
			replayed = fmt.Sprintf("%.2f", b.ReplayedCPUus/a.ReplayedCPUus)
		}
		differ := "" // a page's cost compares pages of one size only
		if a.Items != b.Items {
			differ = fmt.Sprintf(" (not the same page: %d items → %d)", a.Items, b.Items)
		}
		fmt.Printf("%-38s %d apps ÷ %d apps: gateway CPU per request %.2f (answers replayed: %s), of the first request %.2f, round trips %d → %d%s\n",
			name, b.Apps, a.Apps, b.CPUus/a.CPUus, replayed, b.ColdCPUus/a.ColdCPUus, a.ColdCalls, b.ColdCalls, differ)
	}
}
