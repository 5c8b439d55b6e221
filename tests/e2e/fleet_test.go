package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/state/fleet"
	"github.com/v2bridge/v2bridge/translate"
)

// fleetEnv is several gateway replicas over one simulator, sharing one store (an
// in-process miniredis: no network beyond loopback) when withStore is set.
type fleetEnv struct {
	sim      *sim.Server
	redis    *miniredis.Miniredis
	replicas []*httptest.Server
	gws      []*gateway.Gateway

	// what addReplica starts a replica with
	o         fleetOptions
	upstream  string
	storeAddr string
	now       func() time.Time
}

// addReplica starts one more replica of f (a replica joining the fleet).
func (f *fleetEnv) addReplica(t *testing.T) *httptest.Server {
	t.Helper()
	o, now := f.o, f.now
	var store *fleet.Store
	topts := translate.Options{Now: now, Warn: gateway.NoteDegraded}
	if o.store {
		// A generous timeout: on a loaded test machine a slow answer would fall back to
		// the replica's own count (TestFleetStoreDown covers the fallback).
		fo := fleet.Options{URL: "redis://" + f.storeAddr, KeyPrefix: "test:", Timeout: 2 * time.Second}
		if o.sharedCache {
			fo.Cache = &fleet.CacheOptions{}
		}
		var err error
		if store, err = fleet.Open(fo); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = store.Close() })
		topts.Writes, topts.Attempts, topts.Deployments = store, store, store
		if o.sharedCache {
			topts.SharedCache = store
		}
	}
	m := gateway.NewMetrics()
	copts := ng.Options{Observe: m.ObserveUpstream, Timeout: o.upstreamTimeout, MaxConcurrentPerKey: o.perKey}
	if o.store {
		copts.Leases = store
	}
	client := ng.NewClient(f.upstream, copts)
	topts.ObserveCache = m.ObserveCache
	tr := translate.New(client, topts)
	gc := gateway.Config{Now: now, Metrics: m, Ready: client.Ping, RateLimitPerMinute: o.limit}
	mc := migrate.Config{Now: now, Metrics: m, ReportToken: fleetReportToken}
	if store != nil { // a nil *fleet.Store in an interface would not be "no store"
		gc.Store, mc.Store = store, store
	}
	migrate.New(mc, nil).Wire(&gc)
	g := gateway.New(gc, tr, nil)
	srv := httptest.NewServer(g.Handler())
	t.Cleanup(srv.Close)
	f.replicas = append(f.replicas, srv)
	f.gws = append(f.gws, g)
	return srv
}

func newFleet(t *testing.T, n int, withStore bool, limit int) *fleetEnv {
	t.Helper()
	return newFleetWith(t, fleetOptions{replicas: n, store: withStore, limit: limit})
}

// fleetOptions configure newFleetWith; zero fields take the defaults.
type fleetOptions struct {
	replicas        int
	store           bool
	limit           int           // the per-key rate limit (-1: off)
	upstreamTimeout time.Duration // the NerdGraph client's timeout
	perKey          int           // NerdGraph calls in flight per key (MaxConcurrentPerKey)
	sim             []sim.Option  // fault injection
	wrap            func(http.Handler) http.Handler
	storeAddr       string // a real server's address (default: a new miniredis)
	sharedCache     bool   // store.shared_cache
	// now is the replicas' clock (gateway and translator; default: clock, fixed); the
	// simulator keeps clock.
	now func() time.Time
}

// newFleetWith is newFleet with more options.
func newFleetWith(t *testing.T, o fleetOptions) *fleetEnv {
	t.Helper()
	n, withStore, opts := o.replicas, o.store, o.sim
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	fixed := func() time.Time { return clock }
	now := fixed
	if o.now != nil {
		now = o.now
	}
	s, err := sim.NewDemo(data, append([]sim.Option{sim.WithClock(fixed)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = s
	if o.wrap != nil {
		h = o.wrap(h)
	}
	simSrv := httptest.NewServer(h)
	t.Cleanup(simSrv.Close)
	f := &fleetEnv{sim: s}
	storeAddr := o.storeAddr
	if withStore && storeAddr == "" {
		f.redis = miniredis.RunT(t)
		storeAddr = f.redis.Addr()
	}
	f.o, f.upstream, f.storeAddr, f.now = o, simSrv.URL+sim.Path, storeAddr, now
	for range n {
		f.addReplica(t)
	}
	return f
}

func fleetDo(t *testing.T, srv *httptest.Server, method, path, body string, hdr ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
		hdr = append([]string{"Content-Type", "application/json"}, hdr...)
	}
	return (&env{}).do(t, method, srv.URL+path, key1, rd, hdr...) // a header given later wins (X-Api-Key too)
}

// limitedPath is what the rate-limit tests call: any route counts against the key's
// limit, and an application show is answered from the entity cache after its first
// read. The limit's window is the minute of the gateway's clock, which the tests fix
// (clock), so a run of calls never crosses a window's end however slowly it runs.
const limitedPath = "/v2/applications/314221522.json"

// countAllowed sends calls requests of key1 round-robin over the replicas and returns
// how many were answered 200, failing on any other status than 429.
func (f *fleetEnv) countAllowed(t *testing.T, calls int) (allowed int, last response) {
	t.Helper()
	for i := range calls {
		r := fleetDo(t, f.replicas[i%len(f.replicas)], http.MethodGet, limitedPath, "")
		switch r.status {
		case 200:
			allowed++
		case 429:
		default:
			t.Fatalf("call %d: %d %.200s", i, r.status, r.body)
		}
		last = r
	}
	return allowed, last
}

// Three replicas sharing the store allow the per-key limit once, fleet-wide, and their
// X-RateLimit-Remaining counts the fleet's calls; three islands (no store) allow it
// three times — the control that shows the test fails without the store.
func TestFleetRateLimit(t *testing.T) {
	const limit = 40
	islands := newFleet(t, 3, false, limit)
	if got, _ := islands.countAllowed(t, 3*limit); got != 3*limit {
		t.Fatalf("without the store: %d of %d allowed, want %d (each replica its own limit)", got, 3*limit, 3*limit)
	}

	f := newFleet(t, 3, true, limit)
	for i := range 5 {
		r := fleetDo(t, f.replicas[i%3], http.MethodGet, limitedPath, "")
		if want := fmt.Sprint(limit - i - 1); r.header.Get("X-RateLimit-Remaining") != want || r.header.Get("X-RateLimit-Limit") != fmt.Sprint(limit) {
			t.Fatalf("call %d through replica %d: X-RateLimit-Remaining %q, want %s (the fleet's count)", i, i%3, r.header.Get("X-RateLimit-Remaining"), want)
		}
	}
	got, last := f.countAllowed(t, 3*limit)
	if got != limit-5 {
		t.Fatalf("with the store: %d more allowed after 5, want %d (the fleet-wide limit)", got, limit-5)
	}
	if last.status != 429 || last.header.Get("X-RateLimit-Remaining") != "0" || last.header.Get("Retry-After") == "" {
		t.Fatalf("beyond the limit: %d, remaining %q, Retry-After %q", last.status, last.header.Get("X-RateLimit-Remaining"), last.header.Get("Retry-After"))
	}
	scanForKeys(t, f.redis)
}

// scanForKeys fails if any key or value in the store holds an API key.
func scanForKeys(t *testing.T, m *miniredis.Miniredis) {
	t.Helper()
	dump := m.Dump()
	if dump == "" {
		t.Fatal("the store is empty: nothing was shared")
	}
	for _, k := range []string{key1, keyMulti, "NRAK-"} {
		if strings.Contains(dump, k) {
			t.Fatalf("the store holds an API key (%s):\n%s", k, dump)
		}
	}
}

// A rename through replica A is seen through B and C within a second, although both
// had the application show cached: the write's count is published through the store.
// Without the store B and C serve the old name until the entity TTL (30 s).
func TestFleetWriteRetirement(t *testing.T) {
	for _, withStore := range []bool{true, false} {
		t.Run(fmt.Sprint("store=", withStore), func(t *testing.T) {
			f := newFleet(t, 3, withStore, -1)
			const path = "/v2/applications/314221522.json"
			for _, srv := range f.replicas {
				fleetDo(t, srv, http.MethodGet, path, "")
				if r := fleetDo(t, srv, http.MethodGet, path, ""); r.header.Get("X-V2bridge-Upstream-Calls") != "0" {
					t.Fatalf("show not cached: %s round trips", r.header.Get("X-V2bridge-Upstream-Calls"))
				}
			}
			name := "Renamed through replica A"
			if r := fleetDo(t, f.replicas[0], http.MethodPut, path, `{"application":{"name":"`+name+`"}}`); r.status != 200 {
				t.Fatalf("rename: %d %.200s", r.status, r.body)
			}
			seen := func(srv *httptest.Server) bool {
				return bytes.Contains(fleetDo(t, srv, http.MethodGet, path, "").body, []byte(`"name":"`+name+`"`))
			}
			deadline := time.Now().Add(time.Second)
			for _, srv := range f.replicas[1:] {
				for !seen(srv) {
					if time.Now().After(deadline) {
						if withStore {
							t.Fatalf("replica %s still serves the old name a second after the rename", srv.URL)
						}
						return // the islands' known limitation, shown as the control
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			if !withStore {
				t.Fatal("without the store the other replicas saw the rename: the control no longer shows the islands")
			}
			scanForKeys(t, f.redis)
		})
	}
}

// The store killed mid-run: no request fails (each replica counts on its own, says so
// in /readyz?verbose and v2bridge_store_errors_total, and readiness stays 200); the
// store restarted: the limit is fleet-wide again, and a rename made while it was down
// reaches the other replicas once it returns.
func TestFleetStoreDown(t *testing.T) {
	const limit = 60 // room for the polls after the store returns: the outage's calls still count
	f := newFleet(t, 2, true, limit)
	if got, _ := f.countAllowed(t, 10); got != 10 {
		t.Fatalf("before the outage: %d of 10 allowed", got)
	}
	const path = "/v2/applications/314221522.json"
	fleetDo(t, f.replicas[1], http.MethodGet, path, "") // cached on B

	f.redis.Close()
	for i := range 20 {
		r := fleetDo(t, f.replicas[i%2], http.MethodGet, limitedPath, "")
		if r.status != 200 {
			t.Fatalf("call %d with the store down: %d %.200s", i, r.status, r.body)
		}
	}
	name := "Renamed while the store was down"
	if r := fleetDo(t, f.replicas[0], http.MethodPut, path, `{"application":{"name":"`+name+`"}}`); r.status != 200 {
		t.Fatalf("rename with the store down: %d %.200s", r.status, r.body)
	}
	for _, srv := range f.replicas {
		if status, b := getText(t, srv.URL+"/readyz?verbose"); status != 200 || !bytes.Contains(b, []byte("store: unreachable")) {
			t.Fatalf("/readyz?verbose with the store down: %d %s", status, b)
		}
		if _, mb := getText(t, srv.URL+"/metrics"); !bytes.Contains(mb, []byte("v2bridge_store_up 0")) || bytes.Contains(mb, []byte("v2bridge_store_errors_total 0\n")) {
			t.Fatalf("metrics with the store down:\n%s", grepLines(mb, "v2bridge_store_"))
		}
	}

	if err := f.redis.Restart(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if bytes.Contains(fleetDo(t, f.replicas[1], http.MethodGet, path, "").body, []byte(`"name":"`+name+`"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the rename made while the store was down never reached replica B after it returned")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Each replica finds the store again on its own probe: the fleet-wide count below
	// starts once both say so (a replica still on its own state allows its own rest).
	for _, srv := range f.replicas {
		for {
			_, b := getText(t, srv.URL+"/readyz?verbose")
			if bytes.Contains(b, []byte("store: ok")) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("replica %s never found the store again: %s", srv.URL, b)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// Fleet-wide again: once each replica has called, the store holds the highest count
	// a replica saw (its floor), and what is left of the limit is allowed once across
	// both replicas, never again from full. A replica's readiness probe can find the
	// store before its rate-limit connection does (the client's pool backs off dialling
	// for a moment after refused dials), so the count starts once three calls in turn
	// (A, B, A) each leave one fewer: only one shared window counts that way.
	remaining := func(srv *httptest.Server) int {
		n := -1
		_, _ = fmt.Sscan(fleetDo(t, srv, http.MethodGet, "/v2/applications.json", "").header.Get("X-RateLimit-Remaining"), &n)
		return n
	}
	rem, deadline := 0, time.Now().Add(10*time.Second)
	for {
		a, b, a2 := remaining(f.replicas[0]), remaining(f.replicas[1]), remaining(f.replicas[0])
		if rem = a2; b == a-1 && a2 == b-1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replicas never counted one window again: remaining %d, %d, %d", a, b, a2)
		}
		time.Sleep(100 * time.Millisecond)
	}
	got, _ := f.countAllowed(t, 2*limit)
	if rem >= limit-30 || got != rem { // the 30 calls before and during the outage still count
		t.Fatalf("after the store returned: %d allowed across two replicas, want %d (what the fleet had left)", got, rem)
	}
}

// getText is a GET of url's status and body.
func getText(t *testing.T, url string) (int, []byte) {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, b
}

func grepLines(b []byte, prefix string) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// A deployment whose outcome was unknown on replica A (NerdGraph recorded it, then
// answered 500), retried through replica B, is found there and recorded once; an
// Idempotency-Key's 201 replays through another replica. Without the store B records
// the deployment again (the control).
func TestFleetDeploymentRetry(t *testing.T) {
	for _, withStore := range []bool{true, false} {
		t.Run(fmt.Sprint("store=", withStore), func(t *testing.T) {
			faults := &sim.Faults{}
			f := newFleetWith(t, fleetOptions{replicas: 3, store: withStore, limit: -1, upstreamTimeout: 300 * time.Millisecond,
				sim: []sim.Option{sim.WithMiddleware(faults.Middleware)}})
			faults.Set(&sim.Fault{Operation: createOp, First: 1, AfterApply: true, Status: 500})
			body := `{"deployment":{"revision":"fleet-1","user":"ci"}}`
			if r := fleetDo(t, f.replicas[0], http.MethodPost, deployPath, body); r.status != 502 {
				t.Fatalf("first attempt through A: %d %s", r.status, r.body)
			}
			r := fleetDo(t, f.replicas[1], http.MethodPost, deployPath, body)
			recorded := f.sim.RequestsByOperation()[createOp]
			if !withStore {
				if recorded != 2 {
					t.Fatalf("without the store the retry through B recorded %d in all (the control expects 2)", recorded)
				}
				return
			}
			if r.status != 201 || recorded != 1 {
				t.Fatalf("retry through B: %d %s, recorded %d times", r.status, r.body, recorded)
			}
			first := fleetDo(t, f.replicas[0], http.MethodPost, deployPath, `{"deployment":{"revision":"fleet-2"}}`, "Idempotency-Key", "fleet-key-1")
			again := fleetDo(t, f.replicas[2], http.MethodPost, deployPath, `{"deployment":{"revision":"fleet-2"}}`, "Idempotency-Key", "fleet-key-1")
			if first.status != 201 || again.status != 201 || !bytes.Equal(first.body, again.body) || f.sim.RequestsByOperation()[createOp] != 2 {
				t.Fatalf("Idempotency-Key through A then C: %d %s / %d %s, recorded %d", first.status, first.body, again.status, again.body,
					f.sim.RequestsByOperation()[createOp])
			}
			if r := fleetDo(t, f.replicas[1], http.MethodPost, deployPath, `{"deployment":{"revision":"other"}}`, "Idempotency-Key", "fleet-key-1"); r.status != 422 {
				t.Fatalf("the key reused with another body through B: %d %s", r.status, r.body)
			}
			dump := f.redis.Dump()
			if strings.Contains(dump, "fleet-key-1") {
				t.Fatalf("the store holds the Idempotency-Key in clear:\n%s", dump)
			}
			scanForKeys(t, f.redis)
		})
	}
}

// peakPerKey wraps the simulator and records the most NerdGraph requests in flight at
// once per Api-Key.
type peakPerKey struct {
	mu   sync.Mutex
	now  map[string]int
	peak map[string]int
}

func (p *peakPerKey) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := r.Header.Get("Api-Key")
		p.mu.Lock()
		p.now[k]++
		p.peak[k] = max(p.peak[k], p.now[k])
		p.mu.Unlock()
		defer func() {
			p.mu.Lock()
			p.now[k]--
			p.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}

// NerdGraph's concurrency limit is per user: two replicas sharing the store hold at
// most perKey calls of one key in flight between them (leases); two islands hold
// perKey each (the control).
func TestFleetNerdGraphLeases(t *testing.T) {
	const perKey = 3
	for _, withStore := range []bool{true, false} {
		t.Run(fmt.Sprint("store=", withStore), func(t *testing.T) {
			peak := &peakPerKey{now: map[string]int{}, peak: map[string]int{}}
			faults := &sim.Faults{}
			faults.Set(&sim.Fault{Latency: 100 * time.Millisecond})
			f := newFleetWith(t, fleetOptions{replicas: 2, store: withStore, limit: -1, perKey: perKey,
				sim: []sim.Option{sim.WithMiddleware(faults.Middleware)}, wrap: peak.wrap})
			var wg sync.WaitGroup
			statuses := make([]int, 16)
			for i := range statuses {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Distinct applications: no cache or shared flight joins two calls.
					statuses[i] = fleetDo(t, f.replicas[i%2], http.MethodGet, fmt.Sprintf("/v2/applications/%d.json", 900000+i), "").status
				}()
			}
			wg.Wait()
			for i, s := range statuses {
				if s != 404 && s != 200 {
					t.Fatalf("call %d: %d", i, s)
				}
			}
			got := peak.peak[key1]
			if withStore && got > perKey {
				t.Fatalf("with the store %d NerdGraph calls of one key were in flight at once, want at most %d (fleet-wide)", got, perKey)
			}
			if !withStore && got <= perKey {
				t.Fatalf("without the store only %d in flight at once: the control no longer shows two islands (%d each)", got, perKey)
			}
			t.Logf("peak in flight for one key across 2 replicas: %d (per-key bound %d, store %v)", got, perKey, withStore)
		})
	}
}

const fleetReportToken = "fleet-report-token"

// fleetReport reads /v2bridge/report.json from srv: its source and the count of
// key1's calls of route.
func fleetReport(t *testing.T, srv *httptest.Server, route string) (source string, count int64) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v2bridge/report.json", nil)
	req.Header.Set("Authorization", "Bearer "+fleetReportToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rep struct {
		Source string
		Usage  []migrate.Usage
	}
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&rep) != nil {
		t.Fatalf("report: %d", resp.StatusCode)
	}
	for _, u := range rep.Usage {
		if u.Caller == translate.HashKey(key1)[:8] && u.Route == route {
			count += u.Count
		}
	}
	return rep.Source, count
}

// The usage report on replica C shows the calls made through A and B (each replica
// adds its counts to the store); without the store C shows only its own (none).
func TestFleetUsageReport(t *testing.T) {
	for _, withStore := range []bool{true, false} {
		t.Run(fmt.Sprint("store=", withStore), func(t *testing.T) {
			f := newFleet(t, 3, withStore, -1)
			for i := range 5 {
				if r := fleetDo(t, f.replicas[i%2], http.MethodGet, "/v2/applications.json", ""); r.status != 200 {
					t.Fatalf("call %d: %d", i, r.status)
				}
			}
			want := int64(5)
			if !withStore {
				want = 0
			}
			deadline := time.Now().Add(3 * time.Second)
			for {
				source, got := fleetReport(t, f.replicas[2], "applications.list")
				if got == want && (!withStore || strings.Contains(source, "shared store")) {
					break
				}
				if time.Now().After(deadline) || got > want {
					t.Fatalf("report on C: %d calls of applications.list (source %q), want %d", got, source, want)
				}
				time.Sleep(100 * time.Millisecond)
			}
			if withStore {
				// Read twice, counted once; and the report's calls are not new calls.
				time.Sleep(1200 * time.Millisecond)
				if _, got := fleetReport(t, f.replicas[0], "applications.list"); got != want {
					t.Fatalf("report on A later: %d, want %d", got, want)
				}
				scanForKeys(t, f.redis)
			}
		})
	}
}

// A deployment recorded through A that NRDB has not ingested yet is listed through B,
// and B refuses a timestamp that is not later than it (the "later than the latest"
// rule); without the store B knows neither.
func TestFleetRecentDeployments(t *testing.T) {
	for _, withStore := range []bool{true, false} {
		t.Run(fmt.Sprint("store=", withStore), func(t *testing.T) {
			fixed := func() time.Time { return clock }
			f := newFleetWith(t, fleetOptions{replicas: 2, store: withStore, limit: -1,
				sim: []sim.Option{sim.WithIngestDelay(time.Hour), sim.WithIngestClock(fixed)}})
			body := `{"deployment":{"revision":"fleet-recent","timestamp":"2026-11-20T11:59:30Z"}}`
			if r := fleetDo(t, f.replicas[0], http.MethodPost, deployPath, body); r.status != 201 {
				t.Fatalf("deployment through A: %d %s", r.status, r.body)
			}
			list := fleetDo(t, f.replicas[1], http.MethodGet, deployPath, "")
			listed := bytes.Contains(list.body, []byte("fleet-recent"))
			earlier := fleetDo(t, f.replicas[1], http.MethodPost, deployPath, `{"deployment":{"revision":"older","timestamp":"2026-11-20T11:59:00Z"}}`)
			if withStore && (!listed || earlier.status != 422) {
				t.Fatalf("through B: listed %v (%d), an earlier timestamp answered %d %s", listed, list.status, earlier.status, earlier.body)
			}
			if !withStore && (listed || earlier.status == 422) {
				t.Fatalf("without the store B knew A's deployment (listed %v, earlier %d): the control no longer shows islands", listed, earlier.status)
			}
		})
	}
}
