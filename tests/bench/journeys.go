package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// The journeys: what a caller's script feels on an account, as round trips to
// NerdGraph times NerdGraph's latency. The simulator answers behind upstreamProxy,
// which adds a fixed latency to every request and counts them (at the upstream, not
// from the gateway's X-V2bridge-Upstream-Calls header); the gateway runs in a process
// of its own with its default caches and timeouts, and each journey runs as one caller
// would, one request after another. The first run of a journey on an account is its
// cold run (nothing of it cached yet); the later runs touch other applications where
// the journey names some, so they show what the gateway keeps (a name index, cursors),
// not a cached answer to the same request.

// upstreamProxy adds latency to each request before next answers it and counts the
// requests. sleep waits for the latency (or the request's end); tests give their own.
type upstreamProxy struct {
	next    http.Handler
	latency time.Duration
	sleep   func(ctx context.Context, d time.Duration)
	trips   atomic.Int64
}

func newUpstreamProxy(next http.Handler, latency time.Duration) *upstreamProxy {
	return &upstreamProxy{next: next, latency: latency, sleep: sleepCtx}
}

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func (p *upstreamProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.trips.Add(1)
	p.sleep(r.Context(), p.latency)
	p.next.ServeHTTP(w, r)
}

// journeyClient is one caller's v2 requests to a gateway, as the key of account l.
type journeyClient struct {
	base string
	l    sim.LargeAccount
	// errs counts the requests answered with an unexpected status; calls sums the
	// answers' X-V2bridge-Upstream-Calls (the gateway's own count, for comparison).
	errs  int
	calls int64
}

type journeyAnswer struct {
	status int
	header http.Header
	body   []byte
}

// do sends one request; an answer other than want counts as an error and fails the
// journey's run.
func (c *journeyClient) do(method, path, body string, want int) (journeyAnswer, error) {
	req, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if err != nil {
		return journeyAnswer{}, err
	}
	req.Header.Set("X-Api-Key", c.l.Key)
	req.Header.Set("X-Account-ID", strconv.Itoa(c.l.ID))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := transport.RoundTrip(req)
	if err != nil {
		c.errs++
		return journeyAnswer{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.errs++
		return journeyAnswer{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	a := journeyAnswer{status: resp.StatusCode, header: resp.Header, body: b}
	n, _ := strconv.ParseInt(resp.Header.Get("X-V2bridge-Upstream-Calls"), 10, 64)
	c.calls += n
	if resp.StatusCode != want {
		c.errs++
		return a, fmt.Errorf("%s %s: status %d, want %d: %.200s", method, path, resp.StatusCode, want, b)
	}
	return a, nil
}

func (c *journeyClient) get(path string, out any) (journeyAnswer, error) {
	a, err := c.do(http.MethodGet, path, "", http.StatusOK)
	if err != nil || out == nil {
		return a, err
	}
	if err := json.Unmarshal(a.body, out); err != nil {
		return a, fmt.Errorf("GET %s: %w", path, err)
	}
	return a, nil
}

type idName struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// journey is one caller's script; run is its run-th run (0: the cold one).
type journey struct {
	name string
	do   func(c *journeyClient, run int) error
}

// journeyWindow is the metric data window of the dashboard script: the last 30
// minutes of the harness's clock.
const journeyWindow = "&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"

// journeyConditionName is the NRQL condition the alerts script adds applications to.
const journeyConditionName = "journeys apdex by app"

func journeys() []journey {
	return []journey{
		{"deploy hook (lookup by exact name, POST deployment)", deployHook},
		{"paging script (pages 1-10 by Link)", pagingScript},
		{"dashboard script (list, 5 x show, metric data, hosts)", dashboardScript},
		{"alerts script (policy by name, conditions, entity add+remove)", alertsScript},
		{"key transactions and violations read", func(c *journeyClient, _ int) error {
			if _, err := c.get("/v2/key_transactions.json", nil); err != nil {
				return err
			}
			_, err := c.get("/v2/alerts_violations.json?only_open=true", nil)
			return err
		}},
	}
}

// journeyApp is the application a run of a journey names: another one each run,
// spread over the account.
func journeyApp(l sim.LargeAccount, run, k int) int {
	return (run*7919 + k*104729 + 42) % l.Apps
}

func deployHook(c *journeyClient, run int) error {
	name := c.l.LargeAppName(journeyApp(c.l, run, 0))
	var list struct {
		Applications []idName `json:"applications"`
	}
	if _, err := c.get("/v2/applications.json?filter[name]="+url.QueryEscape(name), &list); err != nil {
		return err
	}
	var id int64
	for _, a := range list.Applications {
		if a.Name == name {
			id = a.ID
		}
	}
	if id == 0 {
		return fmt.Errorf("deploy hook: %s not found among %d applications", name, len(list.Applications))
	}
	_, err := c.do(http.MethodPost, fmt.Sprintf("/v2/applications/%d/deployments.json", id),
		fmt.Sprintf(`{"deployment":{"revision":"journey-%d"}}`, run), http.StatusCreated)
	return err
}

var linkNext = regexp.MustCompile(`<([^>]+)>;\s*rel="next"`)

// nextLink is the path and query of the Link header's rel="next" ("" when none).
func nextLink(h http.Header) string {
	for _, v := range h.Values("Link") {
		if m := linkNext.FindStringSubmatch(v); m != nil {
			u, err := url.Parse(m[1])
			if err != nil {
				return ""
			}
			return u.RequestURI()
		}
	}
	return ""
}

func pagingScript(c *journeyClient, _ int) error {
	path := "/v2/applications.json"
	for page := 1; page <= 10 && path != ""; page++ {
		a, err := c.get(path, nil)
		if err != nil {
			return err
		}
		path = nextLink(a.header)
	}
	return nil
}

func dashboardScript(c *journeyClient, run int) error {
	var list struct {
		Applications []idName `json:"applications"`
	}
	if _, err := c.get("/v2/applications.json", &list); err != nil {
		return err
	}
	if len(list.Applications) == 0 {
		return errors.New("dashboard: no applications")
	}
	for k := range 5 {
		id := list.Applications[(run*5+k)%len(list.Applications)].ID
		for _, p := range []string{
			fmt.Sprintf("/v2/applications/%d.json", id),
			fmt.Sprintf("/v2/applications/%d/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all%s", id, journeyWindow),
			fmt.Sprintf("/v2/applications/%d/hosts.json", id),
		} {
			if _, err := c.get(p, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// journeyPolicy is the generated account's first alert policy (sim.WithLargeAccount).
func journeyPolicy(l sim.LargeAccount) (id int, name string) {
	return l.ID%1000*10_000 + 1, "Large policy 0000"
}

// setupAlerts gives the account's first policy an NRQL condition whose WHERE clause
// lists applications, which the alerts script adds applications to and removes them
// from (not measured).
func setupAlerts(c *journeyClient) error {
	pid, _ := journeyPolicy(c.l)
	body := fmt.Sprintf(`{"nrql_condition":{"name":%q,"enabled":true,"value_function":"single_value",
		"terms":[{"duration":"5","operator":"below","priority":"critical","threshold":"0.7","time_function":"all"}],
		"nrql":{"query":"SELECT apdex(duration, t: 0.5) FROM Transaction WHERE appId IN (%d) AND transactionType = 'Web'"}}}`,
		journeyConditionName, c.l.LargeAppID(0))
	_, err := c.do(http.MethodPost, fmt.Sprintf("/v2/alerts_nrql_conditions/policies/%d.json", pid), body, http.StatusCreated)
	return err
}

func alertsScript(c *journeyClient, run int) error {
	_, policy := journeyPolicy(c.l)
	var pols struct {
		Policies []idName `json:"policies"`
	}
	if _, err := c.get("/v2/alerts_policies.json?filter[name]="+url.QueryEscape(policy), &pols); err != nil {
		return err
	}
	var pid int64
	for _, p := range pols.Policies {
		if p.Name == policy {
			pid = p.ID
		}
	}
	var conds struct {
		Conditions []idName `json:"nrql_conditions"`
	}
	if _, err := c.get(fmt.Sprintf("/v2/alerts_nrql_conditions.json?policy_id=%d", pid), &conds); err != nil {
		return err
	}
	var cid int64
	for _, k := range conds.Conditions {
		if k.Name == journeyConditionName {
			cid = k.ID
		}
	}
	if pid == 0 || cid == 0 {
		return fmt.Errorf("alerts: policy %d, condition %d", pid, cid)
	}
	if c.l.Apps < 2 {
		return errors.New("alerts: the account needs two applications")
	}
	app := c.l.LargeAppID(1 + journeyApp(c.l, run, 1)%(c.l.Apps-1))
	path := fmt.Sprintf("/v2/alerts_entity_conditions/%d.json?entity_type=Application&condition_id=%d", app, cid)
	if _, err := c.do(http.MethodPut, path, "", http.StatusOK); err != nil {
		return err
	}
	_, err := c.do(http.MethodDelete, path, "", http.StatusOK)
	return err
}

// journeyResult is one journey's runs on one account.
type journeyResult struct {
	Journey string `json:"journey"`
	Apps    int    `json:"apps"`
	Runs    int    `json:"runs"`
	// Trips are each run's round trips, the cold run's first; ColdTrips are the cold
	// run's, WarmTrips the most of any later run.
	Trips     []int64 `json:"round_trips"`
	ColdTrips int64   `json:"cold_round_trips"`
	// ColdHeaderTrips are the cold run's round trips as the gateway's answers count
	// them (X-V2bridge-Upstream-Calls), beside the upstream's count.
	ColdHeaderTrips int64   `json:"cold_round_trips_by_header"`
	WarmTrips       int64   `json:"warm_round_trips"`
	ColdMs          float64 `json:"cold_ms"`
	// P50ms and P99ms are over the later runs (with few runs, P99ms is their slowest).
	P50ms  float64 `json:"warm_p50_ms"`
	P99ms  float64 `json:"warm_p99_ms"`
	Errors int     `json:"errors"`
	// Err is the first failed run's error.
	Err string `json:"error,omitempty"`
}

// runJourneys runs every journey runs times, one after the other, against the gateway
// at base whose upstream is p, on account l. now gives the wall time.
func runJourneys(base string, p *upstreamProxy, l sim.LargeAccount, runs int, now func() time.Time) ([]journeyResult, error) {
	setup := &journeyClient{base: base, l: l}
	if err := setupAlerts(setup); err != nil {
		return nil, fmt.Errorf("journeys setup: %w", err)
	}
	var out []journeyResult
	for _, j := range journeys() {
		r := journeyResult{Journey: j.name, Apps: l.Apps, Runs: runs}
		var warm []time.Duration
		for run := range runs {
			c := &journeyClient{base: base, l: l}
			before, t0 := p.trips.Load(), now()
			err := j.do(c, run)
			took, trips := now().Sub(t0), p.trips.Load()-before
			r.Errors += c.errs
			r.Trips = append(r.Trips, trips)
			if err != nil && r.Err == "" {
				r.Err = err.Error()
			}
			if run == 0 {
				r.ColdTrips, r.ColdHeaderTrips, r.ColdMs = trips, c.calls, ms(took)
				continue
			}
			r.WarmTrips = max(r.WarmTrips, trips)
			warm = append(warm, took)
		}
		if n := len(warm); n > 0 {
			sort.Slice(warm, func(i, k int) bool { return warm[i] < warm[k] })
			r.P50ms, r.P99ms = ms(warm[nearestRank(n, 50)]), ms(warm[nearestRank(n, 99)])
		}
		out = append(out, r)
	}
	return out, nil
}

// nearestRank is the index of the p-th percentile of n sorted values (the nearest-rank
// method: the smallest value at least p percent of them do not exceed).
func nearestRank(n, p int) int {
	return max((n*p+99)/100-1, 0)
}

// journeysMain runs the journeys on each spec's account (sim.ParseScale) with the
// gateway in a process of its own, prints the table and writes it beside out
// (journeys.json in out's folder; out empty: not written).
func journeysMain(specs []string, runs int, latency time.Duration, out string) error {
	var all []journeyResult
	for _, spec := range specs {
		start := time.Now()
		l, s, err := largeSim(spec) // scale.go
		if err != nil {
			return err
		}
		p := newUpstreamProxy(s, latency)
		upURL, stopUp := serve(p)
		fmt.Printf("journeys %s: simulator ready in %.1f s\n", spec, time.Since(start).Seconds())
		gw, err := startChild("gateway-journeys", upURL+sim.Path, "", "")
		if err != nil {
			stopUp()
			return err
		}
		rs, err := runJourneys(gw.url, p, l, runs, time.Now)
		gw.stop()
		if err == nil {
			var fleet []journeyResult
			fleet, err = fleetJourneysMain(upURL+sim.Path, p, l, latency) // fleetjourneys.go
			rs = append(rs, fleet...)
		}
		stopUp()
		if err != nil {
			return err
		}
		all = append(all, rs...)
	}
	reportJourneys(os.Stdout, all, latency)
	if out != "" {
		file := filepath.Join(filepath.Dir(out), "journeys.json")
		_ = os.MkdirAll(filepath.Dir(file), 0o755)
		b, _ := json.MarshalIndent(map[string]any{"latency": latency.String(), "runs": runs, "journeys": all}, "", "  ")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			return err
		}
		fmt.Println("written to", file)
	}
	return nil
}

func reportJourneys(w io.Writer, rs []journeyResult, latency time.Duration) {
	fmt.Fprintf(w, "\njourneys: %s added to each NerdGraph round trip, round trips counted at the upstream; the first run is cold ((header): its round trips as the gateway's answers count them), the later runs warm\n", latency)
	fmt.Fprintf(w, "%-64s %7s %-20s %9s %8s %10s %10s %6s\n", "journey", "apps", "round trips per run", "(header)", "cold s", "warm p50 s", "warm p99 s", "errors")
	for _, r := range rs {
		trips := make([]string, len(r.Trips))
		for i, n := range r.Trips {
			trips[i] = strconv.FormatInt(n, 10)
		}
		fmt.Fprintf(w, "%-64s %7d %-20s %9d %8.2f %10.2f %10.2f %6d\n", r.Journey, r.Apps, strings.Join(trips, "/"), r.ColdHeaderTrips,
			r.ColdMs/1000, r.P50ms/1000, r.P99ms/1000, r.Errors)
		if r.Err != "" {
			fmt.Fprintf(w, "  first error: %s\n", r.Err)
		}
	}
}
