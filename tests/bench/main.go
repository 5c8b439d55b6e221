package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/translate"
)

var clock = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

const key = "NRAK-DEMO-ACCOUNT-1"

type scenario struct {
	Name   string
	Method string
	Path   string
	Body   string
	// Op is the NerdGraph operation the ReverseProxy baseline forwards.
	Op string
	// Cached runs against the gateway with its caches (metric data 60 s, application
	// show 30 s); the others run without, so every request makes its round trip.
	Cached bool
	// Gzip sends Accept-Encoding: gzip: the gateway compresses the answer, the plain
	// server sends the same compressed bytes. The others ask for no encoding.
	Gzip bool
}

type result struct {
	Scenario    string  `json:"scenario"`
	Server      string  `json:"server"`
	Requests    int64   `json:"requests"`
	Errors      int64   `json:"errors"`
	RPS         float64 `json:"req_per_s"`
	P50ms       float64 `json:"p50_ms"`
	P99ms       float64 `json:"p99_ms"`
	AllocsPerRq float64 `json:"allocs_per_req"`
	BytesPerRq  float64 `json:"bytes_per_req"`
	// CPUus is the server process's CPU time (user + system) per request, in µs:
	// its own cost, whatever the load generator beside it takes.
	CPUus float64 `json:"cpu_us_per_req"`
	// PeakRSSMB is the server process's peak resident set so far (VmHWM).
	PeakRSSMB float64 `json:"peak_rss_mb"`
}

func main() {
	conns := flag.Int("c", 50, "concurrent connections")
	dur := flag.Duration("d", 10*time.Second, "measured duration per scenario and server (over all rounds)")
	warm := flag.Duration("warmup", 2*time.Second, "warm-up before each measurement")
	out := flag.String("json", "bench/latest.json", "where to write the results")
	profile := flag.String("cpuprofile", "", "write each server process's CPU profile to this directory (<server>.pprof; servers start afresh per scenario, so with several scenarios it is the last one's: use -only)")
	rounds := flag.Int("rounds", 5, "split each measurement into this many rounds taking the servers in turn")
	only := flag.String("only", "", "run only the scenarios whose name matches this regular expression")
	scale := flag.String("scale", "apps=264,hosts=3,names=5000;apps=50000,hosts=3,names=5000", "the scale scenarios' accounts (sim.ParseScale specs separated by ';'; empty: none)")
	scaleN := flag.Int("scale-n", 20, "requests per scale scenario after the first")
	scaleReplays := flag.Int("scale-replays", 200, "least requests per scale scenario with the simulator's answers replayed, which also take at least 2 s (the gateway's own cost; cheap, so many)")
	curve := flag.String("curve", "1,10,50,200", "the load curve's connection counts for show and metric data (empty: none)")
	curveD := flag.Duration("curve-d", 2*time.Second, "measured duration per point of the load curve and server")
	serveKind := flag.String("serve", "", "internal: serve one server under test (gateway, gateway-cached, plain, floor, proxy) and report its memory")
	upstream := flag.String("upstream", "", "internal: the canned upstream's URL (with -serve)")
	bodyFile := flag.String("body", "", "internal: the file the plain server and the contract floor answer with (with -serve plain or floor)")
	floorRequest := flag.String("floor-request", "", "internal: the request the contract floor answers (path?query, with -serve floor)")
	logLevel := flag.String("log-level", "info", "the measured gateway processes' log level: info writes a line a request, as serve does by default; warn only the failures' lines, as serve with log_level: warn")
	fleetOn := flag.Bool("fleet", true, "run the fleet of 3 scenario (fleet.go; skipped without redis-server or valkey-server)")
	journeysOn := flag.Bool("journeys", true, "run the journeys after the other tables (journeys.go)")
	journeysOnly := flag.Bool("journeys-only", false, "run the journeys alone")
	journeyAccounts := flag.String("journeys-accounts", "apps=264,hosts=3,names=5000;apps=50000,hosts=3,names=5000", "the journeys' accounts (sim.ParseScale specs separated by ';')")
	journeyRuns := flag.Int("journeys-runs", 3, "runs of each journey per account (the first is the cold one)")
	journeyLatency := flag.Duration("journeys-latency", 150*time.Millisecond, "latency added to each NerdGraph round trip of the journeys")
	floorsOn := flag.Bool("floors", true, "exit non-zero, after printing everything, when a ratio of the fair table is under its regression floor (ratiofloors.go: gateway req/s ÷ baseline req/s, higher is better; a ratio at or above its floor passes)")
	flag.Parse()
	if *serveKind == fleetServeKind {
		fleetChild(*upstream) // fleet.go
		return
	}
	if *serveKind != "" {
		if err := serveChild(*serveKind, *upstream, *bodyFile, *profile, *logLevel, *floorRequest); err != nil {
			fmt.Fprintln(os.Stderr, "bench child:", err)
			os.Exit(1)
		}
		return
	}
	if *journeysOnly {
		if err := journeysMain(strings.Split(*journeyAccounts, ";"), max(*journeyRuns, 1), *journeyLatency, *out); err != nil {
			fmt.Fprintln(os.Stderr, "bench: journeys:", err)
			os.Exit(1)
		}
		return
	}
	filter, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench: -only:", err)
		os.Exit(2)
	}
	var specs []string
	if *scale != "" {
		specs = strings.Split(*scale, ";")
	}
	var points []int
	if *curve != "" {
		for _, c := range strings.Split(*curve, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(c))
			if err != nil || n < 1 {
				fmt.Fprintln(os.Stderr, "bench: -curve: want connection counts like 1,10,50,200")
				os.Exit(2)
			}
			points = append(points, n)
		}
	}
	if _, err := zapcore.ParseLevel(*logLevel); err != nil {
		fmt.Fprintln(os.Stderr, "bench: -log-level:", err)
		os.Exit(2)
	}
	extra := extras{scale: specs, scaleN: max(*scaleN, 1), scaleReplays: max(*scaleReplays, 1), curve: points, curveD: *curveD, logLevel: *logLevel}
	results, err := run(*conns, *dur, *warm, *out, filter, *profile, max(*rounds, 1), extra)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	if *fleetOn && filter.MatchString(fleetScenario) {
		fleetMain(*conns, *dur, *warm, max(*rounds, 1), *out) // fleet.go
	}
	if *journeysOn && *journeyAccounts != "" {
		if err := journeysMain(strings.Split(*journeyAccounts, ";"), max(*journeyRuns, 1), *journeyLatency, *out); err != nil {
			fmt.Fprintln(os.Stderr, "bench: journeys:", err)
			os.Exit(1)
		}
	}
	if *floorsOn {
		if failed := reportFloors(os.Stdout, checkFloors(results, ratioFloors())); failed > 0 {
			fmt.Fprintf(os.Stderr, "bench: %d ratios under their regression floors (-floors=false: no check)\n", failed)
			os.Exit(1)
		}
	}
}

// serve serves h on a loopback port with a bare server (the plain server, the canned
// upstream and the harness's own helpers).
func serve(h http.Handler) (string, func()) {
	return serveOn(&http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second})
}

// serveOn serves srv on a loopback port.
func serveOn(srv *http.Server) (string, func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }
}

// serverFor is the server a measured process of kind answers on: the gateway's own
// (gateway.NewServer: serve's timeouts, so a measured gateway pays for their deadlines
// as a deployed one does) for the gateways, their ReverseProxy peer (configured as the
// gateway is) and the contract floor (which any deployed gateway runs behind such
// timeouts); a bare one for the plain server, the physical limit.
func serverFor(kind string, h http.Handler) *http.Server {
	if kind == "plain" {
		return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	}
	return gateway.NewServer(h, nil)
}

func newGateway(upstream string, metricCache bool) http.Handler {
	return newGatewayWith(upstream, metricCache, 0, zapcore.InfoLevel)
}

// newGatewayWith is newGateway with the metric names window (0: the default day; the
// scale scenarios use 10 minutes, since the simulator generates every row it scans).
func newGatewayWith(upstream string, metricCache bool, namesWindow time.Duration, level zapcore.Level) http.Handler {
	topts := translate.Options{MetricNamesWindow: namesWindow}
	if !metricCache {
		topts.MetricDataTTL, topts.EntityTTL = -1, -1
	}
	return newGatewayOpts(upstream, topts, level, 0)
}

// scaleTimeout bounds one NerdGraph call and one request of the scale scenarios'
// gateways (gateway-scale, gateway-scale-like), in place of the defaults (30 s and
// 60 s). The scale table counts round trips and the gateway's own CPU, not the
// simulator's speed: on a slow machine the simulator's account-wide inventory of
// 50,000 applications × 3 hosts (150,000 rows, cut at 5000 facets) can take longer than
// the default timeout, and a 504 would then open the breaker for the account's other
// scenarios. The bound lets a slower machine still measure the table. A deployed
// gateway keeps the defaults.
const scaleTimeout = 10 * time.Minute

// newGatewayOpts is newGatewayWith with the translator's options given (their clock
// is the harness's) and the NerdGraph call's and the request's timeout (0: the
// defaults).
func newGatewayOpts(upstream string, topts translate.Options, level zapcore.Level, timeout time.Duration) http.Handler {
	now := func() time.Time { return clock }
	topts.Now = now
	tr := translate.New(ng.NewClient(upstream, ng.Options{Timeout: timeout}), topts)
	return gateway.New(gateway.Config{Now: now, RateLimitPerMinute: -1, MaxInFlight: 100000, RequestTimeout: timeout},
		tr, servedLogger(level)).Handler()
}

// extras are the parts of the run beyond the fair table: the scale scenarios and the
// load curve.
type extras struct {
	scale  []string
	scaleN int
	// scaleReplays is the least requests measured per scale scenario with the
	// answers replayed (and at least minReplayTime of them): a page costs a few ms of
	// CPU, and fewer replays leave the large-to-demo-account ratios noisy between runs.
	scaleReplays int
	curve        []int
	curveD       time.Duration
	// logLevel is the measured gateway processes' log level (-log-level).
	logLevel string
}

// run measures the fair table and the extras, prints them and returns the fair table.
func run(conns int, dur, warm time.Duration, out string, only *regexp.Regexp, profileDir string, rounds int, extra extras) ([]result, error) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		return nil, err
	}
	s, err := sim.NewDemo(data, sim.WithClock(func() time.Time { return clock }))
	if err != nil {
		return nil, err
	}
	scenarios := []scenario{
		{Name: "application show", Method: "GET", Path: "/v2/applications/314221522.json", Op: "AppShow"},
		{Name: "applications list page 1", Method: "GET", Path: "/v2/applications.json", Op: "AppList"},
		{Name: "applications list page 1, gzip", Method: "GET", Path: "/v2/applications.json", Op: "AppList", Gzip: true},
		{Name: "metric data 3 names x 30 slices", Method: "GET", Op: "MetricData",
			Path: "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"},
		{Name: "metric data 10 names x 180 slices", Method: "GET", Op: "MetricData",
			Path: "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all&names[]=OtherTransaction/all&names[]=EndUser&names[]=WebTransactionTotalTime&names[]=Database/allWeb&names[]=External/allWeb&names[]=Memory/Physical&names[]=CPU/User%20Time&period=60&from=2026-11-20T09:00:00Z&to=2026-11-20T12:00:00Z"},
		{Name: "deployment create", Method: "POST", Path: "/v2/applications/314221522/deployments.json", Op: "DeploymentCreateEvent",
			Body: `{"deployment":{"revision":"bench"}}`},
		{Name: "application show from cache", Method: "GET", Path: "/v2/applications/314221522.json", Op: "AppShow", Cached: true},
		{Name: "metric data from cache", Method: "GET", Op: "MetricData", Cached: true,
			Path: "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"},
	}

	// Record each operation's answer from the simulator, then serve it canned.
	c := &canned{bodies: map[string][]byte{}}
	recURL, stopRec := serve(&recorder{next: s, c: c})
	recGW, stopRecGW := serve(newGateway(recURL+sim.Path, false))
	gqlBodies := map[string][]byte{}
	capture := &bodyCapture{bodies: gqlBodies}
	for _, sc := range scenarios {
		capture.op, capture.scenario = sc.Op, sc.Name
		body, status := request(recGW, sc, 0)
		if status >= 300 {
			return nil, fmt.Errorf("recording %s: status %d: %s", sc.Name, status, body)
		}
	}
	stopRecGW()
	stopRec()
	upURL, stopUp := serve(c)
	defer stopUp()

	// The GraphQL request bodies, for the ReverseProxy baseline: record them by sending
	// each scenario once through a capturing gateway in front of the canned upstream.
	capURL, stopCap := serve(capture.wrap(c))
	capGW, stopCapGW := serve(newGateway(capURL+"/graphql", false))
	for _, sc := range scenarios {
		capture.op, capture.scenario = sc.Op, sc.Name
		request(capGW, sc, 0)
	}
	stopCapGW()
	stopCap()

	// Every scenario gets fresh server processes, so that its figures do not depend on
	// which scenarios the table ran before it (the state a process keeps from one, its
	// heap, pools and connections, favours the servers unequally in the next) and are
	// the ones -only measures.
	gateway := func(cached bool) (*child, error) {
		kind := "gateway"
		if cached {
			kind = "gateway-cached"
		}
		return startChild(kind, upURL+"/graphql", "", profileDir, "-log-level", extra.logLevel)
	}
	var results []result
	for _, sc := range scenarios {
		if !only.MatchString(sc.Name) {
			continue
		}
		g, err := gateway(sc.Cached)
		if err != nil {
			return nil, err
		}
		rp, err := startChild("proxy", upURL, "", profileDir)
		if err != nil {
			g.stop()
			return nil, err
		}
		v2body, v2header, _ := requestWithHeader(g.url, sc, 0)
		bodyFile := filepath.Join(os.TempDir(), fmt.Sprintf("v2bridge-bench-%d.body", os.Getpid()))
		if err := os.WriteFile(bodyFile, v2body, 0o600); err != nil {
			return nil, err
		}
		plain, err := startChild("plain", "", bodyFile, profileDir)
		if err != nil {
			return nil, err
		}
		gql := gqlBodies[sc.Name]
		type server struct {
			name string
			c    *child
			sc   scenario
		}
		servers := []server{
			{"gateway", g, sc},
			{"plain net/http", plain, sc},
			{"ReverseProxy", rp, scenario{Name: sc.Name, Method: "POST", Path: "/graphql", Body: string(gql)}},
		}
		var floor *child
		if sc.Cached { // floor.go: the contract floor, for answers served from a cache
			hdr, err := json.Marshal(v2header)
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(bodyFile+headerSuffix, hdr, 0o600); err != nil {
				return nil, err
			}
			if floor, err = startChild("floor", "", bodyFile, profileDir, "-floor-request", sc.Path, "-log-level", extra.logLevel); err != nil {
				return nil, err
			}
			servers = append(servers, server{floorServer, floor, sc})
		}
		for _, srv := range servers {
			load(srv.c.url, srv.sc, conns, warm)
		}
		// The measured time is split into rounds that take the servers in turn (each
		// round starting with the next one), so a slow spell of the machine weighs on
		// all of them alike instead of on whichever ran then.
		samples := make([]sample, len(servers))
		for round := range rounds {
			for k := range servers {
				i := (k + round) % len(servers)
				srv := servers[i]
				before, err := srv.c.mem()
				if err != nil {
					return nil, err
				}
				got := measure(srv.c.url, srv.sc, conns, dur/time.Duration(rounds))
				after, err := srv.c.mem()
				if err != nil {
					return nil, err
				}
				samples[i].add(got, before, after)
			}
		}
		for i, srv := range servers {
			r := samples[i].result()
			r.Scenario, r.Server = sc.Name, srv.name
			results = append(results, r)
		}
		plain.stop()
		g.stop()
		rp.stop()
		if floor != nil {
			floor.stop()
			_ = os.Remove(bodyFile + headerSuffix)
		}
		_ = os.Remove(bodyFile)
	}
	var curve []curvePoint
	if len(extra.curve) > 0 {
		gw, err := gateway(false)
		if err != nil {
			return nil, err
		}
		defer gw.stop()
		rp, err := startChild("proxy", upURL, "", profileDir)
		if err != nil {
			return nil, err
		}
		defer rp.stop()
		if curve, err = runCurve(gw, rp, gqlBodies, scenarios, extra.curve, extra.curveD, warm); err != nil {
			return nil, err
		}
	}
	rss := 0.0 // the uncached gateway's peak over its scenarios
	for _, r := range results {
		if r.Server == "gateway" && !strings.HasSuffix(r.Scenario, "from cache") {
			rss = max(rss, r.PeakRSSMB)
		}
	}
	report(results, rss)
	if extra.logLevel != "info" {
		fmt.Printf("the measured gateways logged at %s: no access-log line for a request that succeeded (serve logs at info by default)\n", extra.logLevel)
	}
	if len(curve) > 0 {
		reportCurve(curve)
	}
	var scaled []scaleResult
	if len(extra.scale) > 0 {
		if scaled, err = runScale(extra.scale, extra.scaleN, extra.scaleReplays, profileDir); err != nil {
			return nil, err
		}
		reportScale(scaled)
	}
	if out != "" {
		_ = os.MkdirAll(filepath.Dir(out), 0o755)
		b, _ := json.MarshalIndent(map[string]any{"connections": conns, "duration": dur.String(), "rounds": rounds, "gateway_peak_rss_mb": rss, "gateway_log_level": extra.logLevel,
			"results": results, "floors": checkFloors(results, ratioFloors()), "curve": curve, "scale": scaled}, "", "  ")
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return nil, err
		}
		fmt.Println("written to", out)
		if len(curve) > 0 {
			svg := filepath.Join(filepath.Dir(out), "curve.svg")
			if err := os.WriteFile(svg, curveSVG(curve), 0o644); err != nil {
				return nil, err
			}
			fmt.Println("load curve drawn in", svg)
		}
	}
	return results, nil
}

type pool struct{ p sync.Pool }

func (b *pool) Get() []byte {
	if v, ok := b.p.Get().(*[]byte); ok {
		return *v
	}
	return make([]byte, 32<<10)
}
func (b *pool) Put(x []byte) { b.p.Put(&x) }

// bodyCapture keeps the GraphQL body the gateway sends for a scenario's operation, by
// scenario name.
type bodyCapture struct {
	mu       sync.Mutex
	op       string
	scenario string
	bodies   map[string][]byte
}

func (c *bodyCapture) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct {
			OperationName string `json:"operationName"`
		}
		_ = json.Unmarshal(b, &req)
		c.mu.Lock()
		if req.OperationName == c.op {
			c.bodies[c.scenario] = b
		}
		c.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		next.ServeHTTP(w, r)
	})
}

// transport asks for no compression unless a scenario does (scenario.Gzip).
var transport = &http.Transport{MaxIdleConnsPerHost: 1024, MaxIdleConns: 1024, DisableCompression: true}

func request(base string, sc scenario, n int64) ([]byte, int) {
	b, _, status := requestWithHeader(base, sc, n)
	return b, status
}

// requestWithHeader is request with the answer's header.
func requestWithHeader(base string, sc scenario, n int64) ([]byte, http.Header, int) {
	path := strings.ReplaceAll(sc.Path, "{n}", fmt.Sprint(n))
	req, _ := http.NewRequest(sc.Method, base+path, strings.NewReader(sc.Body))
	req.Header.Set("X-Api-Key", key)
	req.Header.Set("API-Key", key)
	req.Header.Set("X-Account-ID", "1000001")
	if sc.Body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if sc.Gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := transport.RoundTrip(req)
	if err != nil {
		return nil, nil, 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return b, resp.Header, resp.StatusCode
}

func load(base string, sc scenario, conns int, d time.Duration) {
	if d > 0 {
		measure(base, sc, conns, d)
	}
}

// sample is what the load generator saw of one server over one or more rounds, with
// the server's own counters over the same time.
type sample struct {
	lat                 []time.Duration
	elapsed             time.Duration
	errs                int64
	mallocs, bytes, cpu uint64
	peakRSS             float64
}

func (s *sample) add(o sample, before, after memory) {
	s.lat = append(s.lat, o.lat...)
	s.elapsed += o.elapsed
	s.errs += o.errs
	s.mallocs += after.Mallocs - before.Mallocs
	s.bytes += after.TotalAlloc - before.TotalAlloc
	s.cpu += uint64(after.CPUNanos - before.CPUNanos)
	s.peakRSS = max(s.peakRSS, after.PeakRSSMB)
}

func (s *sample) result() result {
	sort.Slice(s.lat, func(i, j int) bool { return s.lat[i] < s.lat[j] })
	n := len(s.lat)
	r := result{Requests: int64(n), Errors: s.errs, PeakRSSMB: s.peakRSS}
	if n > 0 {
		r.RPS = float64(n) / s.elapsed.Seconds()
		r.P50ms = ms(s.lat[n/2])
		r.P99ms = ms(s.lat[n*99/100])
		r.AllocsPerRq = float64(s.mallocs) / float64(n)
		r.BytesPerRq = float64(s.bytes) / float64(n)
		r.CPUus = float64(s.cpu) / 1e3 / float64(n)
	}
	return r
}

// measure drives base with conns closed-loop connections for d (measureRR over one
// address).
func measure(base string, sc scenario, conns int, d time.Duration) sample {
	return measureRR([]string{base}, sc, conns, d)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peakRSS is this process's VmHWM in MB (0 where /proc is not there).
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}

func report(rs []result, rss float64) {
	fmt.Printf("%-34s %-15s %10s %9s %9s %11s %11s %10s %8s %7s\n", "scenario", "server", "req/s", "p50 ms", "p99 ms", "allocs/req", "bytes/req", "CPU µs/req", "RSS MB", "errors")
	by := map[string]map[string]result{}
	for _, r := range rs {
		fmt.Printf("%-34s %-15s %10.0f %9.2f %9.2f %11.0f %11.0f %10.1f %8.1f %7d\n", r.Scenario, r.Server, r.RPS, r.P50ms, r.P99ms, r.AllocsPerRq, r.BytesPerRq, r.CPUus, r.PeakRSSMB, r.Errors)
		if by[r.Scenario] == nil {
			by[r.Scenario] = map[string]result{}
		}
		by[r.Scenario][r.Server] = r
	}
	fmt.Println()
	for _, r := range rs {
		if r.Server != "gateway" {
			continue
		}
		p, rp := by[r.Scenario]["plain net/http"], by[r.Scenario]["ReverseProxy"]
		fmt.Printf("%-34s gateway/ReverseProxy %.2f  gateway/plain %.2f  p99 over ReverseProxy %+.2f ms  CPU over plain %+.1f µs/req\n",
			r.Scenario, r.RPS/rp.RPS, r.RPS/p.RPS, r.P99ms-rp.P99ms, r.CPUus-p.CPUus)
		if f, ok := by[r.Scenario][floorServer]; ok {
			fmt.Printf("%-34s floor/plain %.2f  gateway/floor %.2f  floor CPU over plain %+.1f µs/req  gateway CPU over floor %+.1f µs/req\n",
				"", f.RPS/p.RPS, r.RPS/f.RPS, f.CPUus-p.CPUus, r.CPUus-f.CPUus)
		}
	}
	fmt.Printf("\npeak RSS of the gateway process (uncached), the highest of its scenarios: %.1f MB\n", rss)
	fmt.Println("allocations, bytes and RSS are each server's own process (a server per process; load generator and canned upstream in the parent)")
}

// accessLogger encodes as `v2bridge serve` does in production (JSON, info level, one
// line per request) into io.Discard, so an in-process benchmark pays for encoding its
// access log and nothing of a file.
func accessLogger() *zap.Logger {
	enc := zapcore.NewJSONEncoder(gateway.LogEncoderConfig())
	return zap.New(zapcore.NewCore(enc, zapcore.AddSync(io.Discard), zapcore.InfoLevel))
}

// servedLogger logs as `v2bridge serve` does in production, to a file descriptor
// through gateway.LogSink (serve writes to its standard error; the servers under test
// write to /dev/null), so a measured gateway process pays for its access log's system
// calls as a deployed one does (without /dev/null: io.Discard), at level (-log-level).
func servedLogger(level zapcore.Level) *zap.Logger {
	enc := zapcore.NewJSONEncoder(gateway.LogEncoderConfig())
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return zap.New(zapcore.NewCore(enc, zapcore.AddSync(io.Discard), level))
	}
	return zap.New(zapcore.NewCore(enc, gateway.LogSink(null), level))
}
