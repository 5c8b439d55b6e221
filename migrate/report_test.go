package migrate

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/state/fleet"
)

// TestReportCSVCell pins the CSV neutralisation of formula cells (report.go csvCell).
func TestReportCSVCell(t *testing.T) {
	for in, want := range map[string]string{"": "", "=1": "'=1", "+1": "'+1", "-1": "'-1", "@x": "'@x",
		"\tx": "'\tx", "\rx": "'\rx", "a=1": "a=1", "x": "x"} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReportDaysLeft pins the countdown to the REST v2 sunset, in whole days.
func TestReportDaysLeft(t *testing.T) {
	if got := daysLeft(gateway.Sunset().Add(-10*24*time.Hour - time.Hour)); got != 10 {
		t.Errorf("daysLeft(10 days 1 hour before) = %d, want 10", got)
	}
	if got := daysLeft(gateway.Sunset()); got != 0 {
		t.Errorf("daysLeft(at sunset) = %d, want 0", got)
	}
}

// The usage report's pages and fleet totals.

// TestServeReport pins the report's access rule (no token: disabled; a wrong token:
// 401) and its three forms (.json, .csv, HTML), from this replica's rows, the shared
// store's or Prometheus's (whose failure is a 502). Prometheus's rows are ordered by
// caller and route; rows of one caller and route in two modes keep an order sort.Slice
// leaves unspecified, strict comparison or not.
func TestServeReport(t *testing.T) {
	get := func(g *Pilot, path, token string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		g.report.serveReport(w, r)
		return w
	}
	if w := get(New(Config{}, nil), "/v2bridge/report.json", "x"); w.Code != http.StatusNotFound {
		t.Errorf("report without a token configured: %d, want 404", w.Code)
	}
	now := time.Date(2027, 7, 21, 23, 0, 0, 0, time.UTC) // 10 days before the sunset
	g := New(Config{ReportToken: "s3cret", Now: func() time.Time { return now }}, nil)
	g.usage.record(gateway.Call{Route: "applications.list", Caller: "aaaaaaaa", Mode: gateway.ModePassthrough, Agent: "curl/8", Status: 503, At: now})
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
	g.report.prometheusURL = prom.URL + "/"
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
	g.report.prometheusURL = prom.URL + "/missing"
	if w := get(g, "/v2bridge/report.json", "s3cret"); w.Code != http.StatusBadGateway {
		t.Errorf("report with a failing Prometheus: %d, want 502", w.Code)
	}
}

// TestReportData pins the page's chart and operation list: rows grouped by caller and
// agent, the widest bar, the bar geometry (`4 + i*22`, `300 * n / most`), the chart
// height, and each operation once with a curl line whose quotes are escaped.
func TestReportData(t *testing.T) {
	g := New(Config{Now: func() time.Time { return gateway.Sunset().Add(-49 * time.Hour) }}, nil)
	rows := []Usage{
		{Caller: "aaaaaaaa", Agent: "curl", Route: "applications.list", Count: 10},
		{Caller: "aaaaaaaa", Agent: "curl", Route: "applications.show", Count: 2},
		{Caller: "aaaaaaaa", Agent: "zed", Route: "applications.show", Count: 3},
		{Caller: "bbbbbbbb", Agent: "zed", Route: "applications.list", Count: 30},
	}
	d := g.report.reportData(rows)
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
	d = g.report.reportData([]Usage{{Caller: "a", Route: "x.unknown", Count: 0}})
	if b := d["Bars"].([]reportBar); len(b) != 1 || b[0].Width != 0 || len(d["Ops"].([]reportOp)) != 0 {
		t.Errorf("zero-count route: bars %+v ops %+v", b, d["Ops"])
	}
	if d = g.report.reportData(nil); d["ChartHeight"] != 8 {
		t.Errorf("empty report chart height %v, want 8", d["ChartHeight"])
	}
}

// n2s formats a count (the product's own itoa is not used to check itself).
func n2s(n int64) string { return strconv.FormatInt(n, 10) }

// TestReportFleetSource: with a fleet store and no Prometheus, the report's rows come
// from the store, every replica's (not this replica's counts only).
func TestReportFleetSource(t *testing.T) {
	m := miniredis.RunT(t)
	open := storeOpener(t, m)
	a := New(Config{Store: open(), ReportToken: "admin"}, zap.NewNop())
	b := New(Config{Store: open(), ReportToken: "admin"}, zap.NewNop())
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	a.usage.record(gateway.Call{Caller: "aaaaaaaa", Route: "applications.list", Fidelity: gateway.Approximate, Agent: "curl/8", Status: 200, At: at})
	r := httptest.NewRequest("GET", "/v2bridge/report.json", nil)
	r.Header.Set("Authorization", "Bearer admin")
	w := httptest.NewRecorder()
	http.HandlerFunc(b.report.serveReport).ServeHTTP(w, r)
	var rep struct {
		Source string  `json:"source"`
		Usage  []Usage `json:"usage"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body.Bytes(), err)
	}
	if rep.Source != "the fleet's shared store (every replica's counts)" {
		t.Errorf("source %q, want the fleet's shared store", rep.Source)
	}
	// Replica b counted nothing: a's call, once flushed, comes from the store.
	if err := a.fleetRows.flush(r.Context()); err != nil {
		t.Fatal(err)
	}
	w = httptest.NewRecorder()
	http.HandlerFunc(b.report.serveReport).ServeHTTP(w, r)
	rep.Usage = nil
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body.Bytes(), err)
	}
	if len(rep.Usage) != 1 || rep.Usage[0].Caller != "aaaaaaaa" || rep.Usage[0].Count != 1 {
		t.Fatalf("replica b's report: %+v, want replica a's one call", rep.Usage)
	}
}

// storeOpener opens fleet stores (replicas) on the miniredis m, closed when t ends.
func storeOpener(t *testing.T, m *miniredis.Miniredis) func() *fleet.Store {
	return func() *fleet.Store {
		s, err := fleet.Open(fleet.Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:", Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
}
