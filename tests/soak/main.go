package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/translate"
)

const (
	key1     = "NRAK-DEMO-ACCOUNT-1"
	key2     = "NRAK-DEMO-ACCOUNT-2"
	keyMulti = "NRAK-DEMO-MULTI"
	// Tolerances at rest, after the load and the faults stop.
	goroutineSlack = 10
	heapSlackBytes = 16 << 20
)

// phase is a stretch of the soak with one simulator fault (nil: none).
type phase struct {
	name  string
	fault *sim.Fault
}

// hostile reports whether ph is the bad-day phase, run instead of the usual
// load: a flood of requests with random keys alongside an outage of key 2's NerdGraph
// only.
func (ph phase) hostile() bool { return ph.name == hostileName }

var phases = []phase{
	{"clean", nil},
	{hostileName, nil},
	{"latency 300ms", &sim.Fault{Latency: 300 * time.Millisecond}},
	{"HTTP 503", &sim.Fault{Status: 503}},
	{"HTTP 429 Retry-After 1", &sim.Fault{Status: 429, RetryAfter: 1}},
	{"GraphQL TOO_MANY_REQUESTS", &sim.Fault{ErrorClass: "TOO_MANY_REQUESTS"}},
	{"truncated body", &sim.Fault{Truncated: true}},
	{"connection reset", &sim.Fault{Reset: true}},
	{"clean again", nil},
}

const hostileName = "random-key flood + key 2 outage"

type target struct {
	key, account, path string
}

func targets() []target {
	return []target{
		{key1, "", "/v2/applications.json"},
		{key1, "", "/v2/applications/314221522.json"},
		{key2, "", "/v2/applications.xml?filter[name]=a"},
		{keyMulti, "1000001", "/v2/applications/924224343.json"},
		{key1, "", "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&summarize=true"},
		{key1, "", "/v2/applications/314221522/hosts.json"},
		{key1, "", "/v2/applications/314221522/deployments.json"},
		{key1, "", "/v2/key_transactions.json"},
		{keyMulti, "1000002", "/v2/alerts_policies.json"},
	}
}

type stats struct {
	mu        sync.Mutex
	byClass   map[string]map[string]int // phase → "status title" → count
	latencies []time.Duration
	leaks     int
	noRetry   int                  // 429 and 503 answers without Retry-After
	clean5xx  int                  // 5xx before any fault
	lastBad   map[string]time.Time // phase → time of its last 5xx
}

func (s *stats) add(ph string, status int, title string, d time.Duration, leak bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.byClass[ph]
	if m == nil {
		m = map[string]int{}
		s.byClass[ph] = m
	}
	k := strconv.Itoa(status)
	if title != "" {
		k += " " + title
	}
	m[k]++
	s.latencies = append(s.latencies, d)
	if leak {
		s.leaks++
	}
	if status >= 500 || status == 0 {
		s.lastBad[ph] = time.Now()
		if ph == "clean" {
			s.clean5xx++
		}
	}
}

type rest struct {
	goroutines int
	heapInuse  uint64
	rssKB      int
}

// atRest measures after idle connections have closed and a GC.
func atRest(idle func()) rest {
	idle()
	time.Sleep(3 * time.Second) // longer than the servers' idle timeout
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r := rest{goroutines: runtime.NumGoroutine(), heapInuse: ms.HeapInuse, rssKB: rssKB()}
	if r.rssKB == 0 { // no /proc: the memory the Go runtime holds from the OS
		r.rssKB = int(ms.Sys >> 10)
	}
	return r
}

// rssKB reads VmRSS from /proc/self/status (0 where there is no /proc; atRest then
// reports runtime.MemStats.Sys instead).
func rssKB() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

func serve(h http.Handler) (string, *http.Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), srv, nil
}

func main() {
	dur := flag.Duration("d", 3*time.Minute, "total soak time, split evenly between the fault phases")
	conns := flag.Int("c", 16, "concurrent clients")
	flag.Parse()
	if err := run(*dur, *conns); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func run(dur time.Duration, conns int) error {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		return err
	}
	faults := &sim.Faults{}
	var outage atomic.Bool     // key 2's NerdGraph answers 500 (one tenant's outage)
	var refuseOnce atomic.Bool // the multi-account key's next NerdGraph call is refused (flap.go)
	tenantOutage := func(next http.Handler) http.Handler {
		inner := faults.Middleware(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if outage.Load() && r.Header.Get("Api-Key") == key2 {
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
			if r.Header.Get("Api-Key") == keyMulti && refuseOnce.CompareAndSwap(true, false) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"errors":[{"message":"Invalid API key"}]}`))
				return
			}
			inner.ServeHTTP(w, r)
		})
	}
	s, err := sim.NewDemo(data, sim.WithMiddleware(tenantOutage))
	if err != nil {
		return err
	}
	simURL, simSrv, err := serve(s)
	if err != nil {
		return err
	}
	defer simSrv.Close()
	upstream := &http.Transport{MaxIdleConnsPerHost: 32, IdleConnTimeout: time.Second}
	// The breaker's cooldown fits within a phase (10 s default, shorter for a short
	// soak), so the last clean phase can show the recovery.
	cooldown := min(10*time.Second, dur/time.Duration(len(phases))/4)
	client := ng.NewClient(simURL+sim.Path, ng.Options{Timeout: 2 * time.Second, HTTPClient: &http.Client{Transport: upstream},
		BreakerCooldown: cooldown})
	gc := gateway.Config{RateLimitPerMinute: -1, RequestTimeout: 5 * time.Second, RejectedKeyTTL: flapTTL}
	migrate.New(migrate.Config{ReportToken: "soak"}, nil).Wire(&gc)
	g := gateway.New(gc, translate.New(client, translate.Options{}), nil)
	gwURL, gwSrv, err := serve(g.Handler())
	if err != nil {
		return err
	}
	defer gwSrv.Close()
	callers := &http.Transport{MaxIdleConnsPerHost: conns, IdleConnTimeout: time.Second}
	hc := &http.Client{Transport: callers, Timeout: 15 * time.Second}
	idle := func() { callers.CloseIdleConnections(); upstream.CloseIdleConnections() }

	st := &stats{byClass: map[string]map[string]int{}, lastBad: map[string]time.Time{}}
	ts := targets()
	load := func(ctx context.Context, ph string) {
		hostile := ph == hostileName
		var wg sync.WaitGroup
		for w := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; ctx.Err() == nil; i++ {
					t := ts[i%len(ts)]
					req, _ := http.NewRequestWithContext(ctx, http.MethodGet, gwURL+t.path, nil)
					req.Header.Set("X-Api-Key", t.key)
					if t.account != "" {
						req.Header.Set("X-Account-ID", t.account)
					}
					start := time.Now()
					resp, err := hc.Do(req)
					if err != nil {
						if ctx.Err() == nil {
							st.add(ph, 0, "transport error: "+err.Error(), time.Since(start), false)
						}
						continue
					}
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					title := ""
					if resp.StatusCode >= 300 {
						var e struct {
							Error struct{ Title string } `json:"error"`
						}
						if json.Unmarshal(body, &e) == nil {
							title = e.Error.Title
						} else if i := strings.Index(string(body), "<title>"); i >= 0 {
							title, _, _ = strings.Cut(string(body)[i+7:], "</title>")
						}
					}
					leak := strings.Contains(string(body), key1) || strings.Contains(string(body), key2) || strings.Contains(string(body), keyMulti)
					label := ph
					if hostile { // the outage phase: answers per tenant
						label = "outage: healthy keys"
						if t.key == key2 {
							label = "outage: key 2 (failing)"
						}
					}
					st.add(label, resp.StatusCode, title, time.Since(start), leak)
					if (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) &&
						resp.Header.Get("Retry-After") == "" {
						st.mu.Lock()
						st.noRetry++
						st.mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
	}

	// Warm up (account lookups, connections), then measure at rest.
	warm, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	load(warm, "warm-up")
	cancel()
	flap := runFlap(context.Background(), hc, gwURL, &refuseOnce) // flap.go; before the flood uses up the address's failures
	before := atRest(idle)
	fmt.Printf("soak: %d clients, %s over %d phases, gateway %s, simulator %s\n", conns, dur, len(phases), gwURL, simURL)

	per := dur / time.Duration(len(phases))
	var lastStart time.Time
	var flood floodReport
	var abuse abuseReport
	for _, ph := range phases {
		lastStart = time.Now()
		faults.Set(ph.fault)
		ctx, cancel := context.WithTimeout(context.Background(), per)
		if ph.hostile() {
			outage.Store(true)
			flood = runFlood(ctx, hc, gwURL, conns/2, func() {
				done := make(chan abuseReport, 1)
				go func() { done <- runAbuse(ctx, hc, gwURL) }() // abuse.go
				load(ctx, ph.name)
				abuse = <-done
			})
			outage.Store(false)
		} else {
			load(ctx, ph.name)
		}
		cancel()
	}
	faults.Set(nil)
	after := atRest(idle)

	fmt.Printf("\n%-28s %8s  %s\n", "phase", "count", "answer (status and v2 error title)")
	total := 0
	var names []string
	for _, ph := range append([]phase{{name: "warm-up"}}, phases...) {
		if ph.hostile() {
			names = append(names, "outage: healthy keys", "outage: key 2 (failing)")
			continue
		}
		names = append(names, ph.name)
	}
	for _, name := range names {
		ph := phase{name: name}
		m := st.byClass[ph.name]
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Printf("%-28s %8d  %s\n", ph.name, m[k], k)
			total += m[k]
		}
	}
	slices.Sort(st.latencies)
	pct := func(p float64) time.Duration {
		if len(st.latencies) == 0 {
			return 0
		}
		return st.latencies[min(len(st.latencies)-1, int(p*float64(len(st.latencies))))]
	}
	fmt.Printf("\nrequests %d, p50 %s, p99 %s, max %s\n", total, pct(0.50).Round(time.Millisecond), pct(0.99).Round(time.Millisecond),
		pct(1).Round(time.Millisecond))
	fmt.Printf("at rest before: goroutines %d, heap in use %.1f MB, RSS %.1f MB\n", before.goroutines, float64(before.heapInuse)/(1<<20), float64(before.rssKB)/1024)
	fmt.Printf("at rest after:  goroutines %d, heap in use %.1f MB, RSS %.1f MB\n", after.goroutines, float64(after.heapInuse)/(1<<20), float64(after.rssKB)/1024)

	flood.print()
	abuse.print()
	flap.print()
	var problems []string
	problems = append(problems, flap.problems()...)
	problems = append(problems, flood.problems()...)
	problems = append(problems, abuse.problems()...)
	for k, n := range st.byClass["outage: healthy keys"] {
		if strings.HasPrefix(k, "5") || strings.HasPrefix(k, "0") {
			problems = append(problems, fmt.Sprintf("%d answers %q to healthy keys during key 2's outage", n, k))
		}
	}
	if after.goroutines > before.goroutines+goroutineSlack {
		problems = append(problems, fmt.Sprintf("goroutines grew from %d to %d (tolerance %d)", before.goroutines, after.goroutines, goroutineSlack))
	}
	if after.heapInuse > before.heapInuse+heapSlackBytes {
		problems = append(problems, fmt.Sprintf("heap in use grew by %.1f MB (tolerance %d MB)", float64(after.heapInuse-before.heapInuse)/(1<<20), heapSlackBytes>>20))
	}
	if st.clean5xx > 0 {
		problems = append(problems, fmt.Sprintf("%d answers were 5xx while no fault was active", st.clean5xx))
	}
	if bad, ok := st.lastBad[phases[len(phases)-1].name]; ok {
		fmt.Printf("last phase: last 5xx %s after the faults stopped\n", bad.Sub(lastStart).Round(time.Millisecond))
		if bad.Sub(lastStart) > per/2 {
			problems = append(problems, "still answering 5xx in the second half of the last clean phase")
		}
	}
	if st.leaks > 0 {
		problems = append(problems, fmt.Sprintf("%d bodies contained an API key", st.leaks))
	}
	if st.noRetry > 0 {
		problems = append(problems, fmt.Sprintf("%d answers 429 or 503 had no Retry-After", st.noRetry))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	fmt.Println("soak: no growth, no 5xx without a fault, every 429/503 with Retry-After, no key in any body; random-key flood left /metrics and the report bounded; key 2's outage left the healthy keys unaffected")
	return nil
}

// floodReport is what the random-key flood did to the gateway.
type floodReport struct {
	ran                         bool
	requests                    int
	statuses                    map[int]int
	seriesBefore, seriesAfter   int
	metricsBytes0, metricsBytes int
	rowsBefore, rowsAfter       int
}

// runFlood sends requests with random keys and random User-Agents (workers at once)
// while during runs, and measures /metrics and the usage report around it.
func runFlood(ctx context.Context, hc *http.Client, gwURL string, workers int, during func()) floodReport {
	fr := floodReport{ran: true, statuses: map[int]int{}}
	fr.seriesBefore, fr.metricsBytes0 = scrapeSeries(hc, gwURL)
	fr.rowsBefore = reportRows(hc, gwURL)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, gwURL+"/v2/applications.json", nil)
				req.Header.Set("X-Api-Key", fmt.Sprintf("NRAK-%016x", rand.Uint64()))
				req.Header.Set("User-Agent", fmt.Sprintf("=HYPERLINK(%x)/1", rand.Uint64()))
				resp, err := hc.Do(req)
				if err != nil {
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				fr.requests++
				fr.statuses[resp.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	during()
	wg.Wait()
	fr.seriesAfter, fr.metricsBytes = scrapeSeries(hc, gwURL)
	fr.rowsAfter = reportRows(hc, gwURL)
	return fr
}

func (fr floodReport) print() {
	if !fr.ran {
		return
	}
	fmt.Printf("random-key flood: %d requests, statuses %v; /metrics series %d → %d (%d → %d bytes); usage report rows %d → %d\n",
		fr.requests, fr.statuses, fr.seriesBefore, fr.seriesAfter, fr.metricsBytes0, fr.metricsBytes, fr.rowsBefore, fr.rowsAfter)
}

// problems are the flood's failures: any random key answered 200, or per-caller state
// that grew with it.
func (fr floodReport) problems() []string {
	var out []string
	if !fr.ran {
		return nil
	}
	if fr.statuses[http.StatusOK] > 0 {
		out = append(out, fmt.Sprintf("%d random keys answered 200", fr.statuses[http.StatusOK]))
	}
	if fr.seriesAfter-fr.seriesBefore > 100 {
		out = append(out, fmt.Sprintf("/metrics grew by %d series during the random-key flood", fr.seriesAfter-fr.seriesBefore))
	}
	if fr.rowsAfter != fr.rowsBefore {
		out = append(out, fmt.Sprintf("the usage report grew by %d rows during the random-key flood", fr.rowsAfter-fr.rowsBefore))
	}
	return out
}

func scrapeSeries(hc *http.Client, gwURL string) (series, bytes int) {
	resp, err := hc.Get(gwURL + "/metrics")
	if err != nil {
		return -1, 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			series++
		}
	}
	return series, len(b)
}

func reportRows(hc *http.Client, gwURL string) int {
	req, _ := http.NewRequest(http.MethodGet, gwURL+"/v2bridge/report.json", nil)
	req.Header.Set("Authorization", "Bearer soak")
	resp, err := hc.Do(req)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var out struct{ Usage []json.RawMessage }
	if json.NewDecoder(resp.Body).Decode(&out) != nil {
		return -1
	}
	return len(out.Usage)
}
