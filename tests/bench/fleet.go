package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/state/fleet"
	"github.com/v2bridge/v2bridge/translate"
)

// The "fleet of 3" scenario: a real redis-server (or valkey-server) on
// loopback in a temporary directory, three gateway processes with the store (rate
// limit, write counts, leases and store.shared_cache all through it) and one without,
// all in front of the same canned upstream (and, as a control, two more replicas
// without the store). The load generator itself round-robins
// over the three replicas' addresses (no proxy hop in between: the balancer's own cost
// is not the store's). It reports
//
//   - the store's added latency per request: the p50 and p99 of a cached application
//     show, one request at a time, through a store-backed replica minus the same
//     through the replica without the store (rounds alternate between the two);
//   - the throughput of the fleet of 3 against the one replica without the store, at
//     -c connections.
//
// Every replica counts the per-key rate limit (at a limit no run reaches), so each
// request of a store-backed replica makes its fleet-wide rate-limit call; the cached
// show itself is answered from the replica's own cache in front of the shared one.
// The replicas share the machine's cores with each other, the store and the load
// generator: on one host the fleet's throughput measures the store's cost, not the
// scale-out a fleet on several hosts has.

// fleetServeKind is the child kind of a fleet replica; its store URL (empty: none)
// travels in fleetStoreEnv.
const (
	fleetServeKind = "gateway-fleet"
	fleetStoreEnv  = "V2BRIDGE_BENCH_STORE"
)

// fleetScenario is the scenario's name (for -only).
const fleetScenario = "fleet of 3"

// fleetMain runs the scenario from main, exiting on an error.
func fleetMain(conns int, dur, warm time.Duration, rounds int, out string) {
	if err := runFleet(conns, dur, warm, rounds, out); err != nil {
		fmt.Fprintln(os.Stderr, "bench: fleet of 3:", err)
		os.Exit(1)
	}
}

// fleetChild is a fleet replica child's main.
func fleetChild(upstream string) {
	if err := serveFleetChild(upstream); err != nil {
		fmt.Fprintln(os.Stderr, "bench fleet child:", err)
		os.Exit(1)
	}
}

// fleetLimit is the replicas' per-key limit: counted on every request, never reached.
const fleetLimit = 1 << 30

// fleetResult is the scenario's entry in bench/latest.json.
type fleetResult struct {
	Server      string  `json:"server"`
	Balancer    string  `json:"balancer"`
	Connections int     `json:"connections"`
	StoreP50ms  float64 `json:"store_show_p50_ms"`
	StoreP99ms  float64 `json:"store_show_p99_ms"`
	LocalP50ms  float64 `json:"no_store_show_p50_ms"`
	LocalP99ms  float64 `json:"no_store_show_p99_ms"`
	AddedP50ms  float64 `json:"store_added_p50_ms"`
	AddedP99ms  float64 `json:"store_added_p99_ms"`
	FleetRPS    float64 `json:"fleet_of_3_req_per_s"`
	OneRPS      float64 `json:"one_replica_req_per_s"`
	FleetErrors int64   `json:"fleet_errors"`
	OneErrors   int64   `json:"one_replica_errors"`
	LatencyN    int     `json:"latency_requests_each"`
	// IslandsRPS is three replicas without the store, round-robin: what sharing the
	// machine's cores among three processes costs, apart from the store.
	IslandsRPS float64 `json:"fleet_of_3_without_store_req_per_s"`
}

// storeServer finds valkey-server or redis-server on PATH ("" if neither).
func storeServer() string {
	for _, name := range []string{"valkey-server", "redis-server"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runFleet runs the scenario and adds its result to the JSON file out (as "fleet").
func runFleet(conns int, dur, warm time.Duration, rounds int, out string) error {
	bin := storeServer()
	if bin == "" {
		fmt.Println("\nfleet of 3: skipped: no redis-server (apt-get install redis-server) or valkey-server on PATH")
		return nil
	}
	addr, stopStore, err := startStore(bin)
	if err != nil {
		return err
	}
	defer stopStore()
	upURL, stopUp, err := cannedShowUpstream()
	if err != nil {
		return err
	}
	defer stopUp()

	var fleetReplicas []*child
	for range 3 {
		c, err := startFleetChild(upURL, "redis://"+addr)
		if err != nil {
			return err
		}
		defer c.stop()
		fleetReplicas = append(fleetReplicas, c)
	}
	alone, err := startFleetChild(upURL, "")
	if err != nil {
		return err
	}
	defer alone.stop()
	islands := []string{alone.url}
	for range 2 {
		c, err := startFleetChild(upURL, "")
		if err != nil {
			return err
		}
		defer c.stop()
		islands = append(islands, c.url)
	}
	show := scenario{Name: "application show from cache", Method: "GET", Path: "/v2/applications/314221522.json"}
	var bases []string
	for _, c := range fleetReplicas {
		if _, status := request(c.url, show, 0); status != 200 {
			return fmt.Errorf("fleet replica %s: show answered %d", c.url, status)
		}
		bases = append(bases, c.url)
	}
	for _, u := range islands {
		if _, status := request(u, show, 0); status != 200 {
			return fmt.Errorf("replica without the store: show answered %d", status)
		}
	}

	// (a) Added latency: one request at a time, rounds alternating between a
	// store-backed replica and the one without.
	latRounds := max(rounds, 2) * 2
	latEach := max(dur/2/time.Duration(latRounds), 100*time.Millisecond)
	measureRR(bases[:1], show, 1, warm/2)
	measureRR([]string{alone.url}, show, 1, warm/2)
	var withStore, without []time.Duration
	for r := range latRounds {
		first, second := bases[0], alone.url
		if r%2 == 1 {
			first, second = second, first
		}
		a := measureRR([]string{first}, show, 1, latEach)
		b := measureRR([]string{second}, show, 1, latEach)
		if r%2 == 1 {
			a, b = b, a
		}
		withStore, without = append(withStore, a.lat...), append(without, b.lat...)
	}
	// (b) Throughput: the fleet of 3, round-robin, against the one replica and against
	// three replicas without the store; rounds rotate the order.
	targets := [][]string{bases, {alone.url}, islands}
	samples := make([]sample, len(targets))
	for _, t := range targets {
		measureRR(t, show, conns, warm)
	}
	for r := range rounds {
		for k := range targets {
			i := (k + r) % len(targets)
			samples[i].add(measureRR(targets[i], show, conns, dur/time.Duration(rounds)), memory{}, memory{})
		}
	}
	sp50, sp99 := percentiles(withStore)
	lp50, lp99 := percentiles(without)
	fr, or, ir := samples[0].result(), samples[1].result(), samples[2].result()
	res := fleetResult{Server: filepath.Base(bin), Balancer: "the load generator round-robins over the three replicas' addresses",
		Connections: conns, StoreP50ms: ms(sp50), StoreP99ms: ms(sp99), LocalP50ms: ms(lp50), LocalP99ms: ms(lp99),
		AddedP50ms: ms(sp50 - lp50), AddedP99ms: ms(sp99 - lp99), FleetRPS: fr.RPS, OneRPS: or.RPS,
		FleetErrors: fr.Errors, OneErrors: or.Errors, LatencyN: min(len(withStore), len(without)), IslandsRPS: ir.RPS}
	reportFleet(res)
	if out == "" {
		return nil
	}
	return addToJSON(out, "fleet", res)
}

func percentiles(lat []time.Duration) (p50, p99 time.Duration) {
	if len(lat) == 0 {
		return 0, 0
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat[len(lat)/2], lat[len(lat)*99/100]
}

func reportFleet(r fleetResult) {
	fmt.Printf("\nfleet of 3 (%s on loopback; %s)\n", r.Server, r.Balancer)
	fmt.Printf("%-44s %9s %9s\n", "cached application show, 1 connection", "p50 ms", "p99 ms")
	fmt.Printf("%-44s %9.3f %9.3f\n", "replica with the store", r.StoreP50ms, r.StoreP99ms)
	fmt.Printf("%-44s %9.3f %9.3f\n", "replica without the store", r.LocalP50ms, r.LocalP99ms)
	fmt.Printf("%-44s %+9.3f %+9.3f   (target ≤ 0.3 ms p50)\n", "store's added latency per request", r.AddedP50ms, r.AddedP99ms)
	fmt.Printf("%-44s %10s %7s\n", fmt.Sprintf("throughput, %d connections", r.Connections), "req/s", "errors")
	fmt.Printf("%-44s %10.0f %7d\n", "fleet of 3 with the store", r.FleetRPS, r.FleetErrors)
	fmt.Printf("%-44s %10.0f %7d\n", "one replica without the store", r.OneRPS, r.OneErrors)
	fmt.Printf("%-44s %10.0f\n", "3 replicas without the store (control)", r.IslandsRPS)
	if r.OneRPS > 0 {
		fmt.Printf("%-44s %10.2f\n", "fleet of 3 / one replica", r.FleetRPS/r.OneRPS)
	}
}

// addToJSON sets key in the JSON object of file (created if missing).
func addToJSON(file, key string, v any) error {
	m := map[string]any{}
	if b, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	m[key] = v
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	_ = os.MkdirAll(filepath.Dir(file), 0o755)
	return os.WriteFile(file, b, 0o644)
}

// measureRR drives bases with conns closed-loop connections for d, each connection
// taking the servers in turn (measure is its one-server case).
func measureRR(bases []string, sc scenario, conns int, d time.Duration) sample {
	if d <= 0 {
		return sample{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var n, errs atomic.Int64
	lat := make([][]time.Duration, conns)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := i; ctx.Err() == nil; k++ {
				t0 := time.Now()
				_, status := request(bases[k%len(bases)], sc, n.Add(1))
				lat[i] = append(lat[i], time.Since(t0))
				if status == 0 || status >= 400 {
					errs.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	out := sample{elapsed: time.Since(start), errs: errs.Load()}
	for _, l := range lat {
		out.lat = append(out.lat, l...)
	}
	return out
}

// startStore starts bin on a free loopback port in a temporary directory, without
// persistence, and waits until it listens.
func startStore(bin string) (addr string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	dir, err := os.MkdirTemp("", "v2bridge-bench-store-")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "",
		"--appendonly", "no", "--logfile", filepath.Join(dir, "server.log"))
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("start %s: %w", bin, err)
	}
	stop = func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = os.RemoveAll(dir)
	}
	addr = fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			_ = c.Close()
			return addr, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("%s did not listen on %s", bin, addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cannedShowUpstream records the simulator's answers to a show (and whatever the
// gateway asks on the way) and serves them canned.
func cannedShowUpstream() (string, func(), error) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		return "", nil, err
	}
	s, err := sim.NewDemo(data, sim.WithClock(func() time.Time { return clock }))
	if err != nil {
		return "", nil, err
	}
	c := &canned{bodies: map[string][]byte{}}
	recURL, stopRec := serve(&recorder{next: s, c: c})
	recGW, stopRecGW := serve(newGateway(recURL+sim.Path, false))
	body, status := request(recGW, scenario{Method: "GET", Path: "/v2/applications/314221522.json"}, 0)
	stopRecGW()
	stopRec()
	if status != 200 {
		return "", nil, fmt.Errorf("recording the show: %d %s", status, body)
	}
	up, stop := serve(c)
	return up + "/graphql", stop, nil
}

// startFleetChild starts a replica process (fleetServeKind) with the store at
// storeURL ("" for none).
func startFleetChild(upstream, storeURL string) (*child, error) {
	c, addrs, err := launch(fleetServeKind, []string{"-serve", fleetServeKind, "-upstream", upstream},
		[]string{fleetStoreEnv + "=" + storeURL}, 1)
	if err != nil {
		return nil, err
	}
	c.url = addrs[0]
	return c, nil
}

// fleetReplica is a replica's gateway: its caches, the rate limit counted, and the
// store at storeURL ("" for none; shared cache on; storeTimeout bounds each store
// call, 0: the store's default); closeStore closes the store.
func fleetReplica(upstream, storeURL string, storeTimeout time.Duration, level zapcore.Level) (h http.Handler, tr *translate.Translator, closeStore func(), err error) {
	now := func() time.Time { return clock }
	copts := ng.Options{}
	topts := translate.Options{Now: now}
	var store *fleet.Store
	closeStore = func() {}
	if storeURL != "" {
		store, err = fleet.Open(fleet.Options{URL: storeURL, Timeout: storeTimeout, Cache: &fleet.CacheOptions{}})
		if err != nil {
			return nil, nil, nil, err
		}
		closeStore = func() { _ = store.Close() }
		copts.Leases = store
		topts.Writes, topts.Attempts, topts.Deployments, topts.SharedCache = store, store, store, store
	}
	tr = translate.New(ng.NewClient(upstream, copts), topts)
	gcfg := gateway.Config{Now: now, RateLimitPerMinute: fleetLimit, MaxInFlight: 100000}
	if store != nil { // a nil *fleet.Store in an interface would not be "no store"
		gcfg.Store = store
	}
	h = gateway.New(gcfg, tr, servedLogger(level)).Handler()
	return h, tr, closeStore, nil
}

// serveFleetChild is a replica's side: the gateway with its caches, the rate limit
// counted, and the store from fleetStoreEnv (shared cache on); it exits when stdin
// closes.
func serveFleetChild(upstream string) error {
	h, _, closeStore, err := fleetReplica(upstream, os.Getenv(fleetStoreEnv), 0, zapcore.InfoLevel)
	if err != nil {
		return err
	}
	defer closeStore()
	addr, stop := serveOn(serverFor(fleetServeKind, h))
	defer stop()
	fmt.Println(addr)
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}
