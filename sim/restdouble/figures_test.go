package restdouble

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// fixedTotals answers every sum with the same timeslices by name and records what was
// asked.
type fixedTotals struct {
	totals   timeslice.Totals
	asked    [][]int64
	from, to time.Time
	names    [][]string
}

func (f *fixedTotals) InstanceTotals(_ int, _ int64, instances []int64, from, to time.Time, names ...string) (timeslice.Totals, bool) {
	f.asked, f.from, f.to, f.names = append(f.asked, instances), from, to, append(f.names, names)
	out := timeslice.Totals{}
	for _, n := range names {
		out[n] = f.totals[n]
	}
	return out, true
}

func getJSON(t *testing.T, d *Double, path string) map[string]any {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
	w := httptest.NewRecorder()
	d.ServeHTTP(w, r)
	var doc map[string]any
	if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &doc) != nil {
		t.Fatalf("%s: %d %.300s", path, w.Code, w.Body.String())
	}
	return doc
}

// TestDoubleDerivesFiguresAsREST: a host's and an instance's summary come from their
// own instances' timeslices, a key transaction's from its own metrics (not its
// application's), over the ten minutes that end three minutes before the clock's
// minute, with REST's formulas: response time in ms, calls a minute, errors in percent
// of web and non-web calls, Apdex (S + T/2) / (S + T + F); a key transaction's health is
// its own ("unknown": the data configures none), and it last reported in the newest
// minute its application's instances delivered, as its application.
func TestDoubleDerivesFiguresAsREST(t *testing.T) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 12, 30, 20, 0, time.UTC)
	ts := &fixedTotals{totals: timeslice.Totals{
		"HttpDispatcher":                        {Count: 200, Total: 50},
		"OtherTransaction/all":                  {Count: 50, Total: 100},
		"Errors/all":                            {Count: 5},
		"Apdex":                                 {Count: 80, Total: 10, TotalExclusive: 10},
		"WebTransaction/Controller/orders/show": {Count: 40, Total: 8},
		"Errors/WebTransaction/Controller/orders/show": {Count: 2},
		"Apdex/Controller/orders/show":                 {Count: 30, Total: 10, TotalExclusive: 0},
	}}
	d := New(data, Options{Now: func() time.Time { return now }, Timeslices: ts})
	wantFrom, wantTo := time.Date(2026, 5, 1, 12, 17, 0, 0, time.UTC), time.Date(2026, 5, 1, 12, 27, 0, 0, time.UTC)

	host := getJSON(t, d, "/v2/applications/314221522/hosts/568683725.json")["application_host"].(map[string]any)
	want := map[string]any{"response_time": 250.0, "throughput": 20.0, "error_rate": 2.0, "apdex_score": 0.85, "instance_count": 1.0}
	if got := host["application_summary"]; !jsonEqual(got, want) {
		t.Errorf("host summary %v, want %v", got, want)
	}
	if !slices.Equal(ts.asked[len(ts.asked)-1], []int64{773865519}) || !ts.from.Equal(wantFrom) || !ts.to.Equal(wantTo) {
		t.Errorf("host summed over instances %v in [%v, %v), want [773865519] in [%v, %v)", ts.asked, ts.from, ts.to, wantFrom, wantTo)
	}
	inst := getJSON(t, d, "/v2/applications/314221522/instances/1663741264.json")["application_instance"].(map[string]any)
	if !slices.Equal(ts.asked[len(ts.asked)-1], []int64{1663741264}) || !jsonEqual(inst["application_summary"], want) {
		t.Errorf("instance summary %v over %v", inst["application_summary"], ts.asked[len(ts.asked)-1])
	}

	kt := getJSON(t, d, "/v2/key_transactions/3001.json")["key_transaction"].(map[string]any)
	wantKT := map[string]any{"response_time": 200.0, "throughput": 4.0, "error_rate": 5.0, "apdex_score": 0.88, "apdex_target": 0.5}
	if !jsonEqual(kt["application_summary"], wantKT) || kt["health_status"] != "unknown" || kt["last_reported_at"] != "2026-05-01T12:28:00+00:00" {
		t.Errorf("key transaction %v, want summary %v, health unknown, last reported 12:28", kt, wantKT)
	}
	// Reilly orders' application alerts (CRITICAL); the transaction configures no alert.
	if kt := getJSON(t, d, "/v2/key_transactions/3003.json")["key_transaction"].(map[string]any); kt["health_status"] != "unknown" {
		t.Errorf("key transaction 3003: health %v, want its own, unknown", kt["health_status"])
	}
	if names := ts.names[len(ts.names)-1]; !slices.Contains(names, "Apdex/Controller/orders/show") || slices.Contains(names, "HttpDispatcher") {
		t.Errorf("key transaction figures read %v, want its own metrics", names)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
