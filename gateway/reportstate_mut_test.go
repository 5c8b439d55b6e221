package gateway

// The usage report's state file, page and fleet totals (report.go), written against
// mutants of `make mutate PKG=./gateway FILES='^report\.go$'` (gremlins v0.6.0) that no
// own-package test reached before (NOT COVERED): restored, load, save, RunReportState,
// serveReport, reportData and fleetUsage. Each test names the mutants it kills.
//
// Survivors that no behaviour tells apart (tests/MUTATION.md): report.go:266 and :269
// CONDITIONALS_BOUNDARY (`<` → `<=` on caller, on agent) run only when the two differ
// (the `!=` above each); :271 (`<` → `<=` on route) compares rows whose caller and agent
// are equal, and (caller, agent, route) is the book's map key, so routes differ too;
// :656 the same guard as :266 in fleetUsage; :658 (route `<` → `<=` in fleetUsage) can
// only reorder rows of one caller and route in two modes or fidelities, an order
// sort.Slice leaves unspecified with either comparison.

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// TestUsageSnapshotOrderMut: rows by caller, then agent, then route (report.go:266-271,
// the sort's `!=` and `<` negated or bounded).
func TestUsageSnapshotOrderMut(t *testing.T) {
	b := newUsageBook(NewMetrics(), 10, 10)
	at := time.Unix(1_700_000_000, 0)
	for _, c := range []struct{ caller, ua, route string }{
		{"bbbbbbbb", "curl/8", "applications.list"},
		{"aaaaaaaa", "zed/1", "applications.list"},
		{"aaaaaaaa", "curl/8", "applications.show"},
		{"aaaaaaaa", "curl/8", "applications.list"},
		{"aaaaaaaa", "curl/8", "applications.list"},
	} {
		b.record(&reqState{route: c.route, callerHash: c.caller, account: 7}, c.ua, 200, at)
	}
	var got []string
	for _, u := range b.snapshot() {
		got = append(got, u.Caller+" "+u.Agent+" "+u.Route)
		if u.Route == "applications.list" && (u.Operation != strings.Join(operations()["applications.list"], ", ") || !strings.Contains(u.Explain, "account=7")) {
			t.Errorf("row %+v: operation or explain link missing", u)
		}
	}
	want := "aaaaaaaa curl applications.list|aaaaaaaa curl applications.show|aaaaaaaa zed applications.list|bbbbbbbb curl applications.list"
	if strings.Join(got, "|") != want {
		t.Errorf("snapshot order:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}

// TestUsageRestoreMut pins how saved counts come back (report.go:280 `c == otherBucket`,
// :283 `ok || len(b.callers) < b.maxCallers` (`<` → `<=`, negations), :296 and :300 the
// error checks, :309 merging rows of the same key) and that save writes only when the
// counts changed (:329) and fails on a directory it cannot write (:333, :336, :341, :344).
func TestUsageRestoreMut(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	b := newUsageBook(NewMetrics(), 10, 10)
	if err := b.save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("save of an unchanged book wrote %s (%v)", path, err)
	}
	if err := b.load(path); err != nil {
		t.Errorf("load(absent) = %v, want nil", err)
	}
	at := time.Unix(1_700_000_000, 0)
	for _, c := range []struct {
		caller string
		status int
	}{{"aaaaaaaa", 200}, {"aaaaaaaa", 500}, {"bbbbbbbb", 200}, {"cccccccc", 200}} {
		b.record(&reqState{route: "applications.list", callerHash: c.caller}, "curl/8", c.status, at)
	}
	if err := b.save(path); err != nil {
		t.Fatal(err)
	}
	if err := b.save(filepath.Join(dir, "absent-dir", "state.json")); err != nil {
		t.Errorf("second save of an unchanged book = %v, want nil (nothing to write)", err)
	}
	// A restart with room for two callers: a and b keep theirs, c goes to "other", and
	// a saved "other" row stays "other" (and is merged with c's).
	b2 := newUsageBook(NewMetrics(), 2, 10)
	b2.callers["zzzzzzzz"] = 1 // already holds one caller: room for one more
	if err := b2.load(path); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, u := range b2.snapshot() {
		got[u.Caller] = strings.Join([]string{u.Agent, u.Route, n2s(u.Count), n2s(u.Errors)}, " ")
	}
	want := map[string]string{"aaaaaaaa": "curl applications.list 2 1", otherBucket: "curl applications.list 2 0"}
	if len(got) != len(want) || got["aaaaaaaa"] != want["aaaaaaaa"] || got[otherBucket] != want[otherBucket] {
		t.Errorf("restored rows %v, want %v", got, want)
	}
	if b2.callers["aaaaaaaa"] != 2 || b2.callers[otherBucket] != 0 {
		t.Errorf("restored callers %v, want a with its 2 calls and no caller named other", b2.callers)
	}
	// A caller already kept adds its saved calls even when the table is full.
	b3 := newUsageBook(NewMetrics(), 1, 10)
	b3.callers["bbbbbbbb"] = 5
	if err := b3.load(path); err != nil {
		t.Fatal(err)
	}
	if b3.callers["bbbbbbbb"] != 6 || b3.callers["aaaaaaaa"] != 0 {
		t.Errorf("restore into a full table: callers %v, want b 6 and a in other", b3.callers)
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("[{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := b2.load(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("load(bad JSON) = %v, want an error naming the file", err)
	}
	if err := b2.load(dir); err == nil {
		t.Error("load(a directory) = nil, want an error")
	}
	b.record(&reqState{route: "applications.list", callerHash: "aaaaaaaa"}, "curl/8", 200, at)
	if err := b.save(filepath.Join(dir, "absent-dir", "state.json")); err == nil {
		t.Error("save into a missing directory = nil, want an error")
	}
	b.record(&reqState{route: "applications.list", callerHash: "aaaaaaaa"}, "curl/8", 200, at)
	if err := b.save(dir); err == nil { // rename over a directory
		t.Error("save over a directory = nil, want an error")
	}
}

// TestRunReportStateMut: no state file, no loop (report.go:353); a tick that saves well
// logs nothing (:363 `err != nil` → `==`); the end of ctx saves once more.
func TestRunReportStateMut(t *testing.T) {
	g := New(Config{}, nil, nil)
	if err := g.RunReportState(context.Background(), time.Hour); err != nil {
		t.Fatalf("RunReportState without a state file = %v", err)
	}
	core, logs := observer.New(zap.WarnLevel)
	path := filepath.Join(t.TempDir(), "state.json")
	g = New(Config{ReportStateFile: path}, nil, zap.New(core))
	g.usage.record(&reqState{route: "applications.list", callerHash: "aaaaaaaa"}, "curl/8", 200, time.Unix(1_700_000_000, 0))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.RunReportState(ctx, time.Millisecond) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("RunReportState at the end = %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("state file not written: %v", err)
	}
	if n := logs.FilterMessage("report state not saved").Len(); n != 0 {
		t.Errorf("%d 'not saved' warnings after good saves", n)
	}
}

// TestServeReportMut pins the report's access rule and its three forms (report.go:454
// `ReportToken == ""`, :459 the token comparison, :466/:467 the shared-store branch,
// :473 the Prometheus branch, :475 its error, the .json and .csv suffixes).
func TestServeReportMut(t *testing.T) {
	get := func(g *Gateway, path, token string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		g.serveReport(w, r)
		return w
	}
	if w := get(New(Config{}, nil, nil), "/v2bridge/report.json", "x"); w.Code != http.StatusNotFound {
		t.Errorf("report without a token configured: %d, want 404", w.Code)
	}
	now := time.Date(2027, 7, 21, 23, 0, 0, 0, time.UTC) // 10 days before the sunset
	g := New(Config{ReportToken: "s3cret", Now: func() time.Time { return now }}, nil, nil)
	g.usage.record(&reqState{route: "applications.list", callerHash: "aaaaaaaa", mode: ModePassthrough}, "curl/8", 503, now)
	for _, tok := range []string{"", "wrong", "s3cret2"} {
		w := get(g, "/v2bridge/report.json", tok)
		if w.Code != http.StatusUnauthorized || !strings.Contains(w.Header().Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("token %q: %d %q, want 401 with a Bearer challenge", tok, w.Code, w.Header().Get("WWW-Authenticate"))
		}
	}
	w := get(g, "/v2bridge/report.json", "s3cret")
	var doc struct {
		Source   string  `json:"source"`
		DaysLeft int     `json:"days_left"`
		Usage    []Usage `json:"usage"`
		Cutover  []CutoverRow
	}
	if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil || w.Code != 200 {
		t.Fatalf("report.json: %d %v %s", w.Code, err, w.Body)
	}
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") || doc.DaysLeft != 10 ||
		!strings.Contains(doc.Source, "local counts") || len(doc.Usage) != 1 || doc.Usage[0].Mode != "passthrough" ||
		doc.Usage[0].Errors != 1 || len(doc.Cutover) != 1 || doc.Cutover[0].Calls != 1 {
		t.Errorf("report.json = %s", w.Body)
	}
	w = get(g, "/v2bridge/report.csv", "s3cret")
	recs, err := csv.NewReader(w.Body).ReadAll()
	if err != nil || len(recs) != 2 || recs[0][3] != "mode" || recs[1][3] != "passthrough" || recs[1][6] != "1" ||
		!strings.HasPrefix(w.Header().Get("Content-Type"), "text/csv") {
		t.Errorf("report.csv = %v, %v", recs, err)
	}
	w = get(g, "/v2bridge/report", "s3cret")
	body := w.Body.String()
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") || !strings.Contains(body, "<td>passthrough</td>") ||
		!strings.Contains(body, "10 days left") || !strings.Contains(body, "Cut-over readiness") {
		t.Errorf("report page lacks the mode column, countdown or cut-over table:\n%s", body)
	}

	// Prometheus totals replace the local counts; a failing Prometheus is a 502.
	prom := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/query" || !strings.Contains(r.URL.Query().Get("query"), "v2bridge_v2_calls_total") {
			http.Error(w, "bad query", 400)
			return
		}
		_, _ = w.Write([]byte(`{"status":"success","data":{"result":[
			{"metric":{"route":"applications.show","caller":"bbbbbbbb","mode":"compare","fidelity":"exact"},"value":[1700000000,"12"]},
			{"metric":{"route":"applications.list","caller":"bbbbbbbb","mode":"translate","fidelity":"approximate"},"value":[1700000000,"3"]},
			{"metric":{"route":"applications.list","caller":"aaaaaaaa","mode":"translate","fidelity":"approximate"},"value":[1700000000,"5"]},
			{"metric":{"route":"applications.list","caller":"cccccccc"},"value":[1700000000]},
			{"metric":{"route":"applications.list","caller":"dddddddd"},"value":[1700000000,"NaNx"]}]}}`))
	}))
	defer prom.Close()
	g.cfg.ReportPrometheusURL = prom.URL + "/"
	w = get(g, "/v2bridge/report.json", "s3cret")
	doc.Usage = nil
	if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil || w.Code != 200 {
		t.Fatalf("report.json from Prometheus: %d %v %s", w.Code, err, w.Body)
	}
	var rows []string
	for _, u := range doc.Usage {
		rows = append(rows, u.Caller+" "+u.Agent+" "+u.Route+" "+u.Mode+" "+n2s(u.Count)+" "+u.Operation)
	}
	listOps := strings.Join(operations()["applications.list"], ", ") // the route table's (AppList, AppInventory, ...)
	wantRows := "aaaaaaaa all applications.list translate 5 " + listOps + "|bbbbbbbb all applications.list translate 3 " + listOps + "|" +
		"bbbbbbbb all applications.show compare 12 AppShow"
	if strings.Join(rows, "|") != wantRows || !strings.Contains(doc.Source, "Prometheus at "+prom.URL) {
		t.Errorf("fleet rows:\n%s\nwant\n%s\n(source %q)", strings.Join(rows, "|"), wantRows, doc.Source)
	}
	g.cfg.ReportPrometheusURL = prom.URL + "/missing"
	if w := get(g, "/v2bridge/report.json", "s3cret"); w.Code != http.StatusBadGateway {
		t.Errorf("report with a failing Prometheus: %d, want 502", w.Code)
	}
}

// TestReportDataMut pins the page's chart and operation list (report.go:551 grouping by
// caller and agent, :554 the widest bar, :566 the bar geometry `4 + i*22`, `300 * n /
// most`, :573 the chart height, :576-:587 each operation once, with a curl line whose
// quotes are escaped).
func TestReportDataMut(t *testing.T) {
	g := New(Config{Now: func() time.Time { return sunset().Add(-49 * time.Hour) }}, nil, nil)
	rows := []Usage{
		{Caller: "aaaaaaaa", Agent: "curl", Route: "applications.list", Count: 10},
		{Caller: "aaaaaaaa", Agent: "curl", Route: "applications.show", Count: 2},
		{Caller: "aaaaaaaa", Agent: "zed", Route: "applications.show", Count: 3},
		{Caller: "bbbbbbbb", Agent: "zed", Route: "applications.list", Count: 30},
	}
	d := g.reportData(rows)
	callers := d["Callers"].([]reportCaller)
	if len(callers) != 3 || len(callers[0].Rows) != 2 || callers[1].Agent != "zed" || callers[2].Caller != "bbbbbbbb" {
		t.Errorf("callers = %+v", callers)
	}
	bars := d["Bars"].([]reportBar)
	want := []reportBar{{Route: "applications.list", Count: 40, Y: 4, Width: 300, H: 16}, {Route: "applications.show", Count: 5, Y: 26, Width: 37, H: 16}}
	if len(bars) != 2 || bars[0] != want[0] || bars[1] != want[1] {
		t.Errorf("bars = %+v, want %+v", bars, want)
	}
	if d["ChartHeight"] != 52 || d["DaysLeft"] != 2 {
		t.Errorf("chart height %v days left %v, want 52 and 2", d["ChartHeight"], d["DaysLeft"])
	}
	ops := d["Ops"].([]reportOp)
	var names []string
	for _, o := range ops {
		names = append(names, o.Route+":"+o.Name)
		if o.Text == "" || !strings.HasPrefix(o.Curl, "curl https://api.newrelic.com/graphql ") || !strings.HasSuffix(o.Curl, "'") {
			t.Errorf("op %s: text or curl line wrong: %q", o.Name, o.Curl)
		}
	}
	var wantOps []string // each operation of the two routes once, in the route table's order
	for _, r := range []string{"applications.list", "applications.show"} {
		for _, op := range operations()[r] {
			wantOps = append(wantOps, r+":"+op)
		}
	}
	if strings.Join(names, " ") != strings.Join(wantOps, " ") || len(wantOps) < 3 {
		t.Errorf("ops = %v", names)
	}
	// A single small route: the bar is full width against itself, and no route at all
	// still gives a chart of 8 pixels (most starts at 1: no division by zero).
	d = g.reportData([]Usage{{Caller: "a", Route: "x.unknown", Count: 0}})
	if b := d["Bars"].([]reportBar); len(b) != 1 || b[0].Width != 0 || len(d["Ops"].([]reportOp)) != 0 {
		t.Errorf("zero-count route: bars %+v ops %+v", b, d["Ops"])
	}
	if d = g.reportData(nil); d["ChartHeight"] != 8 {
		t.Errorf("empty report chart height %v, want 8", d["ChartHeight"])
	}
}

// n2s formats a count (the product's own itoa is not used to check itself).
func n2s(n int64) string { return strconv.FormatInt(n, 10) }
