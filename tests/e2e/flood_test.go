package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// floodRequests is the size of the random-key flood, from floodAddresses
// client addresses (each may cost auth_failures_per_minute NerdGraph calls a minute:
// more addresses make the test slower, not stronger).
const (
	floodRequests  = 50000
	floodAddresses = 10
)

// metricSeries counts the sample lines of /metrics.
func metricSeries(t *testing.T, h http.Handler) (series, bytes int) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			series++
		}
	}
	return series, rec.Body.Len()
}

func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func reportRows(t *testing.T, h http.Handler) []migrate.Usage {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/v2bridge/report.json", nil)
	req.Header.Set("Authorization", "Bearer tok")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out struct{ Usage []migrate.Usage }
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("report: %v: %s", err, rec.Body.String())
	}
	return out.Usage
}

// 50,000 requests with random keys and random User-Agents, from 10 client
// addresses, leave the gateway's /metrics series, usage report and heap
// bounded: rejected callers allocate no per-caller state, refused keys and
// over-limit addresses cost no NerdGraph call, and accepted callers with random
// User-Agents are bounded by the report's product vocabulary.
func TestRandomKeyFloodIsBounded(t *testing.T) {
	h := harness.StartWith(t, harness.Options{Migrate: migrate.Config{ReportToken: "tok", ReportMaxAgents: 20}})
	srv := h.GW.Handler()
	var callPath func(path, key, ua, addr string) int
	call := func(key, ua, addr string) int {
		return callPath("/v2/applications.json", key, ua, addr)
	}
	// The accepted caller's calls read one application (answered from the entity cache
	// after the first): the User-Agents are what this part measures, not the list.
	callPath = func(path, key, ua, addr string) int {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("X-Api-Key", key)
		req.Header.Set("User-Agent", ua)
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code
	}
	// Warm up: the series every gateway has after a few good calls.
	for i := 0; i < 3; i++ {
		call(key1, "curl/8", "192.0.2.200:1")
	}
	series0, bytes0 := metricSeries(t, srv)
	heap0 := heapAlloc()
	rows0 := len(reportRows(t, srv))
	calls0 := h.Sim.Requests()

	statuses := map[int]int{}
	for i := 0; i < floodRequests; i++ {
		key := fmt.Sprintf("NRAK-%016x", rand.Uint64())
		ua := fmt.Sprintf("=HYPERLINK(%x)/1.0", rand.Uint64())
		statuses[call(key, ua, fmt.Sprintf("198.51.100.%d:4242", i%floodAddresses))]++
	}
	// An accepted caller with ever new User-Agents.
	for i := 0; i < 200; i++ {
		callPath("/v2/applications/"+metricApp+".json", key1, fmt.Sprintf("agent%d/1.0", i), "192.0.2.200:1")
	}

	series1, bytes1 := metricSeries(t, srv)
	heap1 := heapAlloc()
	rows1 := len(reportRows(t, srv))
	upstream := h.Sim.Requests() - calls0
	t.Logf("flood of %d random-key requests: statuses %v; /metrics series %d → %d (%d → %d bytes); heap %.1f → %.1f MB; report rows %d → %d; NerdGraph calls %d",
		floodRequests, statuses, series0, series1, bytes0, bytes1, float64(heap0)/(1<<20), float64(heap1)/(1<<20), rows0, rows1, upstream)
	if statuses[http.StatusOK] != 0 {
		t.Errorf("%d random keys answered 200", statuses[http.StatusOK])
	}
	if series1-series0 > 60 {
		t.Errorf("/metrics grew by %d series (bound 60)", series1-series0)
	}
	if rows1-rows0 > 21 {
		t.Errorf("the usage report grew by %d rows (bound: 20 User-Agent products plus other)", rows1-rows0)
	}
	if heap1 > heap0+16<<20 {
		t.Errorf("heap grew by %.1f MB (bound 16 MB)", float64(heap1-heap0)/(1<<20))
	}
	if upstream > floodAddresses*gateway.DefaultAuthFailuresPerMinute+300 { // one minute window: the harness's clock is fixed
		t.Errorf("%d NerdGraph calls for the flood (bound: the failed-authentication limit of %d addresses in one minute)", upstream, floodAddresses)
	}
}

// A key NerdGraph refused is answered 401 again without asking NerdGraph; an address
// past its failed authentications gets 429 with Retry-After for unaccepted keys, while
// an accepted key from the same address is still served.
func TestRejectedKeyCacheAndAddressLimit(t *testing.T) {
	// The address limit's window is the minute of the gateway's clock, the harness's
	// fixed one: the three refusals below fall in one window.
	h := harness.Start(t, gateway.Config{AuthFailuresPerMinute: 3})
	e := &env{sim: h.Sim, gw: h.Gateway}
	if r := e.get(t, "/v2/applications.json", key1); r.status != 200 {
		t.Fatalf("accepted key: %d", r.status)
	}
	r := e.get(t, "/v2/applications.json", "NRAK-NOT-A-KEY")
	if r.status != 401 || r.header.Get("X-V2bridge-Upstream-Calls") == "0" {
		t.Fatalf("first refusal: %d with %s upstream calls", r.status, r.header.Get("X-V2bridge-Upstream-Calls"))
	}
	before := h.Sim.Requests()
	if r := e.get(t, "/v2/applications.json", "NRAK-NOT-A-KEY"); r.status != 401 || !strings.Contains(string(r.body), "Invalid API key") {
		t.Fatalf("second refusal: %d %s", r.status, r.body)
	}
	if n := h.Sim.Requests() - before; n != 0 {
		t.Fatalf("the refused key cost %d NerdGraph calls again", n)
	}
	e.get(t, "/v2/applications.json", "NRAK-NOT-A-KEY-EITHER")
	r = e.get(t, "/v2/applications.json", "NRAK-YET-ANOTHER")
	if r.status != 429 || r.header.Get("Retry-After") == "" || !strings.Contains(string(r.body), `"error"`) {
		t.Fatalf("past the address limit: %d Retry-After %q %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	if r := e.get(t, "/v2/applications.json", key1); r.status != 200 {
		t.Fatalf("accepted key from the limited address: %d", r.status)
	}
}

// Passed-through calls that REST v2 refuses (401) leave no usage row either.
func TestPassthroughRefusedKeysLeaveNoRows(t *testing.T) {
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"title":"Invalid API key"}}`))
	}))
	t.Cleanup(rest.Close)
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{RESTUpstream: rest.URL + "/v2", UnmatchedPassthrough: true,
		RetainedAlerts: gateway.ModePassthrough}, Migrate: migrate.Config{ReportToken: "tok"}})
	srv := h.GW.Handler()
	for i := 0; i < 100; i++ {
		req := httptest.NewRequest(http.MethodGet, "/v2/alerts_synthetics_conditions.json?policy_id=1", nil)
		req.Header.Set("X-Api-Key", fmt.Sprintf("NRAK-%016x", rand.Uint64()))
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Fatalf("pass-through: %d %s", rec.Code, rec.Body.String())
		}
	}
	if rows := reportRows(t, srv); len(rows) != 0 {
		t.Fatalf("%d usage rows for refused pass-through keys", len(rows))
	}
}

// A made-up Api-Key beside a valid X-Api-Key does not earn the made-up key a usage row:
// such calls are refused (two keys, two callers) before REST is asked and earn none;
// calls with the one valid key earn its one row.
func TestPassthroughRowsOnlyForTheKeyRESTTook(t *testing.T) {
	const valid = "NRAK-PASSTHROUGH-VALID"
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("X-Api-Key") != valid {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"title":"Invalid API key"}}`))
			return
		}
		_, _ = w.Write([]byte(`{"synthetics_conditions":[]}`))
	}))
	t.Cleanup(rest.Close)
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{RESTUpstream: rest.URL + "/v2", UnmatchedPassthrough: true,
		RetainedAlerts: gateway.ModePassthrough}, Migrate: migrate.Config{ReportToken: "tok"}})
	srv := h.GW.Handler()
	call := func(apiKey string) {
		req := httptest.NewRequest(http.MethodGet, "/v2/alerts_synthetics_conditions.json?policy_id=1", nil)
		req.Header.Set("X-Api-Key", valid)
		if apiKey != "" {
			req.Header.Set("Api-Key", apiKey)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		want := http.StatusOK
		if apiKey != "" && apiKey != valid {
			want = http.StatusUnauthorized
		}
		if rec.Code != want {
			t.Fatalf("pass-through: %d %s, want %d", rec.Code, rec.Body.String(), want)
		}
	}
	for range 300 {
		call(fmt.Sprintf("NRAK-%016x", rand.Uint64()))
	}
	if rows := reportRows(t, srv); len(rows) != 0 {
		t.Fatalf("%d usage rows for calls whose made-up Api-Key REST did not take", len(rows))
	}
	call("")
	call(valid)
	if rows := reportRows(t, srv); len(rows) != 1 {
		t.Fatalf("%d usage rows for the one valid key, want 1", len(rows))
	}
}
