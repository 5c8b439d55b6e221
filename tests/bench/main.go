// Command bench is v2bridge's side-by-side load harness (`make bench`): the gateway in
// front of a canned NerdGraph upstream, against a plain net/http server answering the
// same v2 body and an httputil.ReverseProxy forwarding the equivalent GraphQL request,
// with the same closed-loop load. It prints req/s, p50, p99, allocations and bytes per
// request and peak RSS, the gateway's ratios to both baselines, and writes the same as
// JSON (bench/latest.json). Absolute numbers vary between machines; the ratios are
// measured in one run.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/graphql/sim"
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
	// Cached runs against the gateway with its 60 s metric cache (the others without,
	// so every request makes its NerdGraph round trip).
	Cached bool
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
}

func main() {
	conns := flag.Int("c", 50, "concurrent connections")
	dur := flag.Duration("d", 10*time.Second, "measured duration per scenario and server")
	warm := flag.Duration("warmup", 2*time.Second, "warm-up before each measurement")
	out := flag.String("json", "bench/latest.json", "where to write the results")
	flag.Parse()
	if err := run(*conns, *dur, *warm, *out); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func serve(h http.Handler) (string, func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }
}

func newGateway(upstream string, metricCache bool) http.Handler {
	now := func() time.Time { return clock }
	client := ng.NewClient(upstream, ng.Options{})
	topts := translate.Options{Now: now}
	if !metricCache {
		topts.MetricDataTTL = -1
	}
	tr := translate.New(client, topts)
	return gateway.New(gateway.Config{Now: now, RateLimitPerMinute: -1, MaxInFlight: 100000}, tr, nil).Handler()
}

func run(conns int, dur, warm time.Duration, out string) error {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		return err
	}
	s, err := sim.NewDemo(data, sim.WithClock(func() time.Time { return clock }))
	if err != nil {
		return err
	}
	scenarios := []scenario{
		{Name: "application show", Method: "GET", Path: "/v2/applications/314221522.json", Op: "AppShow"},
		{Name: "applications list page 1", Method: "GET", Path: "/v2/applications.json", Op: "AppList"},
		{Name: "metric data 3 names x 30 slices", Method: "GET", Op: "MetricData",
			Path: "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"},
		{Name: "deployment create", Method: "POST", Path: "/v2/applications/314221522/deployments.json", Op: "DeploymentCreateEvent",
			Body: `{"deployment":{"revision":"bench"}}`},
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
		capture.op = sc.Op
		body, status := request(recGW, sc, 0)
		if status >= 300 {
			return fmt.Errorf("recording %s: status %d: %s", sc.Name, status, body)
		}
	}
	stopRecGW()
	stopRec()
	upURL, stopUp := serve(c)
	defer stopUp()
	gwURL, stopGW := serve(newGateway(upURL+"/graphql", false))
	defer stopGW()
	cachedURL, stopCached := serve(newGateway(upURL+"/graphql", true))
	defer stopCached()

	// The GraphQL request bodies, for the ReverseProxy baseline: record them by sending
	// each scenario once through a capturing client in front of the canned upstream.
	capURL, stopCap := serve(capture.wrap(c))
	capGW, stopCapGW := serve(newGateway(capURL+"/graphql", false))
	for _, sc := range scenarios {
		capture.op = sc.Op
		request(capGW, sc, 0)
	}
	stopCapGW()
	stopCap()

	target, _ := url.Parse(upURL)
	rp := &httputil.ReverseProxy{
		Rewrite:    func(pr *httputil.ProxyRequest) { pr.SetURL(target); pr.Out.URL.Path = "/graphql" },
		BufferPool: &pool{},
	}
	rpURL, stopRP := serve(rp)
	defer stopRP()

	var results []result
	for _, sc := range scenarios {
		gw := gwURL
		if sc.Cached {
			gw = cachedURL
		}
		v2body, _ := request(gw, sc, 0)
		plainURL, stopPlain := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			_, _ = w.Write(v2body)
		}))
		gql := gqlBodies[sc.Op]
		for _, srv := range []struct {
			name string
			url  string
			sc   scenario
		}{
			{"gateway", gw, sc},
			{"plain net/http", plainURL, sc},
			{"ReverseProxy", rpURL, scenario{Name: sc.Name, Method: "POST", Path: "/graphql", Body: string(gql)}},
		} {
			load(srv.url, srv.sc, conns, warm)
			r := measure(srv.url, srv.sc, conns, dur)
			r.Scenario, r.Server = sc.Name, srv.name
			results = append(results, r)
		}
		stopPlain()
	}
	rss := peakRSS()
	report(results, rss)
	if out != "" {
		_ = os.MkdirAll(filepath.Dir(out), 0o755)
		b, _ := json.MarshalIndent(map[string]any{"connections": conns, "duration": dur.String(), "peak_rss_mb": rss, "results": results}, "", "  ")
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return err
		}
		fmt.Println("written to", out)
	}
	return nil
}

type pool struct{ p sync.Pool }

func (b *pool) Get() []byte {
	if v, ok := b.p.Get().(*[]byte); ok {
		return *v
	}
	return make([]byte, 32<<10)
}
func (b *pool) Put(x []byte) { b.p.Put(&x) }

// bodyCapture keeps the GraphQL body the gateway sends for an operation.
type bodyCapture struct {
	mu     sync.Mutex
	op     string
	bodies map[string][]byte
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
			c.bodies[c.op] = b
		}
		c.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		next.ServeHTTP(w, r)
	})
}

var transport = &http.Transport{MaxIdleConnsPerHost: 1024, MaxIdleConns: 1024}

func request(base string, sc scenario, n int64) ([]byte, int) {
	path := strings.ReplaceAll(sc.Path, "{n}", fmt.Sprint(n))
	req, _ := http.NewRequest(sc.Method, base+path, strings.NewReader(sc.Body))
	req.Header.Set("X-Api-Key", key)
	req.Header.Set("API-Key", key)
	req.Header.Set("X-Account-ID", "1000001")
	if sc.Body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := transport.RoundTrip(req)
	if err != nil {
		return nil, 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return b, resp.StatusCode
}

func load(base string, sc scenario, conns int, d time.Duration) {
	if d > 0 {
		measure(base, sc, conns, d)
	}
}

func measure(base string, sc scenario, conns int, d time.Duration) result {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var n, errs atomic.Int64
	lat := make([][]time.Duration, conns)
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for ctx.Err() == nil {
				t0 := time.Now()
				_, status := request(base, sc, n.Add(1))
				lat[i] = append(lat[i], time.Since(t0))
				if status == 0 || status >= 400 {
					errs.Add(1)
				}
			}
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	runtime.ReadMemStats(&ms1)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	r := result{Requests: int64(len(all)), Errors: errs.Load()}
	if len(all) > 0 {
		r.RPS = float64(len(all)) / elapsed.Seconds()
		r.P50ms = ms(all[len(all)/2])
		r.P99ms = ms(all[len(all)*99/100])
		r.AllocsPerRq = float64(ms1.Mallocs-ms0.Mallocs) / float64(len(all))
		r.BytesPerRq = float64(ms1.TotalAlloc-ms0.TotalAlloc) / float64(len(all))
	}
	return r
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

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
	fmt.Printf("%-34s %-15s %10s %9s %9s %12s %12s %7s\n", "scenario", "server", "req/s", "p50 ms", "p99 ms", "allocs/req*", "bytes/req*", "errors")
	by := map[string]map[string]result{}
	for _, r := range rs {
		fmt.Printf("%-34s %-15s %10.0f %9.2f %9.2f %12.0f %12.0f %7d\n", r.Scenario, r.Server, r.RPS, r.P50ms, r.P99ms, r.AllocsPerRq, r.BytesPerRq, r.Errors)
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
		fmt.Printf("%-34s gateway/ReverseProxy %.2f  gateway/plain %.2f  p99 over ReverseProxy %+.2f ms\n",
			r.Scenario, r.RPS/rp.RPS, r.RPS/p.RPS, r.P99ms-rp.P99ms)
	}
	fmt.Printf("\npeak RSS of the whole harness process (load generator, upstream, servers): %.1f MB\n", rss)
	fmt.Println("* allocations are the whole process's (load generator and canned upstream included); the gateway's own are in `go test -bench Gateway ./tests/bench`")
}
