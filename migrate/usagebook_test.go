package migrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/gateway"
)

// The usage book keeps rows for the top callers by calls, not the
// first seen: a caller that overtakes the smallest kept one takes its place, and the
// smaller one's rows and series fold into "other" with their calls. Fails with
// first-seen bucketing (c stays "other" however often it calls).
func TestUsageBookKeepsTopCallersByCalls(t *testing.T) {
	m := gateway.NewMetrics()
	b := newUsageBook(m, 2, 5)
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	call := func(caller string, n int) {
		for i := 0; i < n; i++ {
			b.record(gateway.Call{Caller: caller, Route: "applications.list", Fidelity: gateway.Approximate, Agent: "curl/8", Status: 200, At: at})
		}
	}
	call("aaaaaaaa", 5)
	call("bbbbbbbb", 3)
	call("cccccccc", 3) // beyond the bound, and not more than b yet
	rows := counts(b)
	if rows["cccccccc"] != 0 || rows[otherBucket] != 3 || rows["bbbbbbbb"] != 3 {
		t.Fatalf("before c overtakes b: %v", rows)
	}
	call("cccccccc", 1) // c's 4th call: more than b's 3
	rows = counts(b)
	want := map[string]int64{"aaaaaaaa": 5, "cccccccc": 1, otherBucket: 6}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Fatalf("after c overtakes b: rows %v, want %v", rows, want)
	}
	series := func(caller string) float64 {
		return testutil.ToFloat64(m.UsageCalls().WithLabelValues("applications.list", caller, string(gateway.ModeTranslate), string(gateway.Approximate)))
	}
	if got := series(otherBucket); got != 6 {
		t.Errorf(`v2bridge_v2_calls_total{caller="other"} = %v, want 6 (c's 3 and b's 3)`, got)
	}
	if n := testutil.CollectAndCount(m.UsageCalls()); n != 3 {
		t.Errorf("%d v2bridge_v2_calls_total series, want 3 (a, c, other: b's deleted)", n)
	}
	// Many one-off callers beyond the bound stay in "other" and in a table of at most
	// maxCallers candidates.
	for i := 0; i < 1000; i++ {
		call(fmt.Sprintf("%08x", i), 1)
	}
	// maxCallers candidates, and never push the busy callers out (their estimates grow,
	// their guaranteed counts do not).
	if len(b.callers) != 2 || len(b.candidates) > 2 || len(b.rows) != 3 {
		t.Errorf("after 1000 one-off callers: %d callers, %d candidates, %d rows", len(b.callers), len(b.candidates), len(b.rows))
	}
	if rows := counts(b); rows["aaaaaaaa"] != 5 || rows["cccccccc"] != 1 || rows[otherBucket] != 1006 {
		t.Errorf("after 1000 one-off callers: %v, want a and c kept and the one-offs in other", rows)
	}
}

func counts(b *usageBook) map[string]int64 {
	out := map[string]int64{}
	for _, u := range b.snapshot() {
		out[u.Caller] += u.Count
	}
	return out
}

// TestUsageSnapshotOrder: rows by caller, then agent, then route. Whether each
// comparison is strict is beyond any test: caller and agent are compared only when
// they differ, and (caller, agent, route) is the book's key, so routes always do.
func TestUsageSnapshotOrder(t *testing.T) {
	b := newUsageBook(gateway.NewMetrics(), 10, 10)
	at := time.Unix(1_700_000_000, 0)
	for _, c := range []struct{ caller, ua, route string }{
		{"bbbbbbbb", "curl/8", "applications.list"},
		{"aaaaaaaa", "zed/1", "applications.list"},
		{"aaaaaaaa", "curl/8", "applications.show"},
		{"aaaaaaaa", "curl/8", "applications.list"},
		{"aaaaaaaa", "curl/8", "applications.list"},
	} {
		b.record(gateway.Call{Route: c.route, Caller: c.caller, Account: 7, Agent: c.ua, Status: 200, At: at})
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

// TestUsageRestore pins how saved counts come back ("other" stays "other", callers
// beyond the bound fold into it, unreadable or malformed files are errors, rows of the
// same key merge) and that save writes only when the counts changed and fails on a
// directory it cannot write.
func TestUsageRestore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	b := newUsageBook(gateway.NewMetrics(), 10, 10)
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
		b.record(gateway.Call{Route: "applications.list", Caller: c.caller, Agent: "curl/8", Status: c.status, At: at})
	}
	if err := b.save(path); err != nil {
		t.Fatal(err)
	}
	if err := b.save(filepath.Join(dir, "absent-dir", "state.json")); err != nil {
		t.Errorf("second save of an unchanged book = %v, want nil (nothing to write)", err)
	}
	// A restart with room for two callers: a and b keep theirs, c goes to "other", and
	// a saved "other" row stays "other" (and is merged with c's).
	b2 := newUsageBook(gateway.NewMetrics(), 2, 10)
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
	b3 := newUsageBook(gateway.NewMetrics(), 1, 10)
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
	b.record(gateway.Call{Route: "applications.list", Caller: "aaaaaaaa", Agent: "curl/8", Status: 200, At: at})
	if err := b.save(filepath.Join(dir, "absent-dir", "state.json")); err == nil {
		t.Error("save into a missing directory = nil, want an error")
	}
	b.record(gateway.Call{Route: "applications.list", Caller: "aaaaaaaa", Agent: "curl/8", Status: 200, At: at})
	if err := b.save(dir); err == nil { // rename over a directory
		t.Error("save over a directory = nil, want an error")
	}
}

// TestUsageBookDefaultBounds: a bound of 0 callers or agents means the default,
// not "none" (the second caller, and the first agent, are not "other").
func TestUsageBookDefaultBounds(t *testing.T) {
	b := newUsageBook(gateway.NewMetrics(), 0, 0)
	if b.maxCallers != DefaultReportMaxCallers || b.maxAgents != DefaultReportMaxAgents {
		t.Fatalf("bounds %d callers, %d agents; want the defaults %d, %d", b.maxCallers, b.maxAgents, DefaultReportMaxCallers, DefaultReportMaxAgents)
	}
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, c := range []string{"aaaaaaaa", "bbbbbbbb"} {
		b.record(gateway.Call{Caller: c, Route: "applications.list", Fidelity: gateway.Approximate, Agent: "curl/8", Status: 200, At: at})
	}
	got := map[string]string{}
	for _, u := range b.snapshot() {
		got[u.Caller] = u.Agent
	}
	if len(got) != 2 || got["aaaaaaaa"] != "curl" || got["bbbbbbbb"] != "curl" {
		t.Fatalf("rows by caller (agent) %v, want aaaaaaaa and bbbbbbbb, both curl", got)
	}
}

// callerRows are the callers of the book's rows.
func callerRows(b *usageBook) map[string]bool {
	out := map[string]bool{}
	for _, u := range b.snapshot() {
		out[u.Caller] = true
	}
	return out
}

// TestUsageBookCandidateEviction: a caller outside the table is a candidate; the
// candidates table evicts only when full (a candidate's count is not lost to a
// newcomer while there is room, so C below passes A), and then evicts the candidate
// of fewest calls, the least key among equals. A choice made by map order would pass
// one round by chance, so each case runs 32 times.
//
// Beyond any test: whether the scan for the smallest candidate starts below 0 or at
// it (a candidate has at least one call), and whether keys compare strictly (map keys
// are distinct).
func TestUsageBookCandidateEviction(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	rec := func(b *usageBook, c string, n int) {
		for range n {
			b.record(gateway.Call{Caller: c, Route: "applications.list", Fidelity: gateway.Approximate, Agent: "curl/8", Status: 200, At: at})
		}
	}
	// A and B fill the table of two; C and D are candidates; C's second call passes A.
	b := newUsageBook(gateway.NewMetrics(), 2, 10)
	for _, c := range []string{"aaaaaaaa", "bbbbbbbb", "cccccccc", "dddddddd", "cccccccc"} {
		rec(b, c, 1)
	}
	if got := callerRows(b); len(got) != 3 || !got["bbbbbbbb"] || !got["cccccccc"] || !got[otherBucket] {
		t.Fatalf("callers %v, want bbbbbbbb, cccccccc (2 calls, over aaaaaaaa's 1) and %s", got, otherBucket)
	}
	tests := []struct {
		name    string
		calls   []string // candidates' calls, in order
		evicted string
	}{
		{"fewest calls", []string{"aaaaaaaa", "aaaaaaaa", "bbbbbbbb"}, "bbbbbbbb"},
		{"fewest calls, first seen", []string{"bbbbbbbb", "aaaaaaaa", "aaaaaaaa"}, "bbbbbbbb"},
		{"least key among equals", []string{"bbbbbbbb", "aaaaaaaa"}, "aaaaaaaa"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for round := range 32 {
				b := newUsageBook(gateway.NewMetrics(), 2, 10)
				rec(b, "11111111", 10) // the table: two callers of 10 calls
				rec(b, "22222222", 10)
				for _, c := range tt.calls {
					rec(b, c, 1)
				}
				rec(b, "zzzzzzzz", 1) // the candidates are full: one is evicted
				_, gone := b.candidates[tt.evicted]
				if gone || len(b.candidates) != 2 {
					t.Fatalf("round %d: candidates %v, want %s evicted and two left", round, b.candidates, tt.evicted)
				}
			}
		})
	}
}

// TestUsageBookPromotion: a candidate whose calls pass the table's smallest caller
// takes that caller's place, and the smallest is found among equal counts by key, not
// by map order (a larger caller of a lesser key is never taken for it; 32 rounds).
//
// Beyond any test: whether a candidate at exactly minCaller is answered "other" at
// once or after the scan (minCaller never passes the smallest count, so the scan
// answers "other" too), and the scan's strictness on counts of at least one and on
// distinct keys.
func TestUsageBookPromotion(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	rec := func(b *usageBook, c string, n int) {
		for range n {
			b.record(gateway.Call{Caller: c, Route: "applications.list", Fidelity: gateway.Approximate, Agent: "curl/8", Status: 200, At: at})
		}
	}
	for round := range 32 {
		b := newUsageBook(gateway.NewMetrics(), 2, 10)
		rec(b, "aaaaaaaa", 5)
		rec(b, "bbbbbbbb", 3) // the smallest, of the greater key
		rec(b, "cccccccc", 4) // passes bbbbbbbb at its fourth call
		if got := callerRows(b); len(got) != 3 || !got["aaaaaaaa"] || !got["cccccccc"] || !got[otherBucket] {
			t.Fatalf("round %d: callers %v, want aaaaaaaa, cccccccc and %s", round, got, otherBucket)
		}
	}
}

// TestUsageBookDemoteNewOtherRow: a caller replaced in the table folds its rows into
// "other", also on a route "other" has no row for yet (the new row gets its series),
// with its Prometheus calls.
func TestUsageBookDemoteNewOtherRow(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	m := gateway.NewMetrics()
	b := newUsageBook(m, 2, 10)
	rec := func(c, route string, n int) {
		for range n {
			b.record(gateway.Call{Caller: c, Route: route, Fidelity: gateway.Approximate, Agent: "curl/8", Status: 200, At: at})
		}
	}
	rec("aaaaaaaa", "applications.list", 5)
	rec("bbbbbbbb", "applications.show", 3) // the smallest, demoted below
	rec("cccccccc", "applications.list", 4) // its fourth call passes bbbbbbbb
	var other *Usage
	for _, u := range b.snapshot() {
		if u.Caller == otherBucket && u.Route == "applications.show" {
			other = &u
		}
	}
	if other == nil || other.Count != 3 {
		t.Fatalf("rows %+v, want bbbbbbbb's 3 calls of applications.show under %s", b.snapshot(), otherBucket)
	}
	if n := testutil.ToFloat64(m.UsageCalls().WithLabelValues("applications.show", otherBucket, string(gateway.ModeTranslate), string(gateway.Approximate))); n != 3 {
		t.Fatalf("v2bridge_v2_calls_total of %s on applications.show = %v, want 3", otherBucket, n)
	}
}

// TestUsageBookSeries: each call counts in the v2bridge_v2_calls_total series of its
// mode and fidelity, also after the route's mode or fidelity changed (not in the
// row's first series), and after a restart that restored the row (which has none
// until its first call).
func TestUsageBookSeries(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	const route, caller = "applications.list", "aaaaaaaa"
	m := gateway.NewMetrics()
	b := newUsageBook(m, 10, 10)
	calls := []struct {
		mode gateway.Mode
		fid  gateway.Fidelity
	}{
		{gateway.ModeTranslate, gateway.Approximate},
		{gateway.ModePassthrough, gateway.Approximate},
		{gateway.ModePassthrough, gateway.Exact},
		{gateway.ModePassthrough, gateway.Exact},
	}
	for _, c := range calls {
		b.record(gateway.Call{Caller: caller, Route: route, Mode: c.mode, Fidelity: c.fid, Agent: "curl/8", Status: 200, At: at})
	}
	series := func(m *gateway.Metrics, mode gateway.Mode, fid gateway.Fidelity) float64 {
		return testutil.ToFloat64(m.UsageCalls().WithLabelValues(route, caller, string(mode), string(fid)))
	}
	for _, w := range []struct {
		mode gateway.Mode
		fid  gateway.Fidelity
		n    float64
	}{{gateway.ModeTranslate, gateway.Approximate, 1}, {gateway.ModePassthrough, gateway.Approximate, 1}, {gateway.ModePassthrough, gateway.Exact, 2}} {
		if n := series(m, w.mode, w.fid); n != w.n {
			t.Errorf("series %s %s = %v, want %v", w.mode, w.fid, n, w.n)
		}
	}
	// Restored, the row counts its next call of the same mode and fidelity.
	path := filepath.Join(t.TempDir(), "state.json")
	if err := b.save(path); err != nil {
		t.Fatal(err)
	}
	m2 := gateway.NewMetrics()
	b2 := newUsageBook(m2, 10, 10)
	if err := b2.load(path); err != nil {
		t.Fatal(err)
	}
	b2.record(gateway.Call{Caller: caller, Route: route, Mode: gateway.ModePassthrough, Fidelity: gateway.Exact, Agent: "curl/8", Status: 200, At: at})
	if n := series(m2, gateway.ModePassthrough, gateway.Exact); n != 1 {
		t.Fatalf("restored row's next call: series = %v, want 1", n)
	}
}

// TestReportProductToken pins the report's agent column: the User-Agent's product,
// at most 64 characters of an HTTP token (the character classes' bounds included). A
// token of exactly 64 bytes is the same whether it is cut or not.
func TestReportProductToken(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := map[string]string{
		"":                          "unknown",
		"   ":                       "unknown",
		"curl/8.1":                  "curl",
		"newrelic-client-go/2 (go)": "newrelic-client-go",
		long + "/1":                 long,
		long + "b/1":                long,
		"az AZ":                     "az",
		"AZ09!#$%&'*+-.^_`|~":       "AZ09!#$%&'*+-.^_`|~",
		"a\"b(c)@{":                 "a_b_c___",
		"zZ9":                       "zZ9",
		"[`{":                       "_`_",
		":@/":                       "__",
	}
	for ua, want := range tests {
		if got := productToken(ua); got != want {
			t.Errorf("productToken(%q) = %q, want %q", ua, got, want)
		}
	}
}

// TestReportBucketsAndMode pins the report's bounds (a full set buckets newcomers as
// "other"), its mode column (default "translate") and its error count (400 and up).
func TestReportBucketsAndMode(t *testing.T) {
	b := newUsageBook(gateway.NewMetrics(), 2, 1)
	at := time.Unix(1_700_000_000, 0)
	b.record(gateway.Call{Route: "applications.list", Caller: "aaaaaaaa", Agent: "curl/8", Status: 200, At: at})
	b.record(gateway.Call{Route: "applications.list", Caller: "bbbbbbbb", Mode: gateway.ModePassthrough, Agent: "curl/8", Status: 400, At: at})
	b.record(gateway.Call{Route: "applications.list", Caller: "cccccccc", Agent: "python-requests/2", Status: 399, At: at})
	b.record(gateway.Call{Route: "applications.list", Agent: "curl/8", Status: 200, At: at}) // no caller: not counted
	b.record(gateway.Call{Caller: "aaaaaaaa", Agent: "curl/8", Status: 200, At: at})         // no route: not counted
	b.record(gateway.Call{Agent: "curl/8", Status: 200, At: at})                             // no caller, no route: not counted
	rows := b.snapshot()
	got := make([]string, 0, len(rows))
	for _, u := range rows {
		got = append(got, fmt.Sprintf("%s %s %s %s %d/%d", u.Caller, u.Agent, u.Route, u.Mode, u.Count, u.Errors))
	}
	want := []string{
		"aaaaaaaa curl applications.list translate 1/0",
		"bbbbbbbb curl applications.list passthrough 1/1",
		"other other applications.list translate 1/0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("report rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunReportState: no state file, no loop; a tick that saves well logs nothing;
// the end of ctx saves once more.
func TestRunReportState(t *testing.T) {
	g := New(Config{}, nil)
	if err := g.RunReportState(context.Background(), time.Hour); err != nil {
		t.Fatalf("RunReportState without a state file = %v", err)
	}
	core, logs := observer.New(zap.WarnLevel)
	path := filepath.Join(t.TempDir(), "state.json")
	g = New(Config{ReportStateFile: path}, zap.New(core))
	g.usage.record(gateway.Call{Route: "applications.list", Caller: "aaaaaaaa", Agent: "curl/8", Status: 200, At: time.Unix(1_700_000_000, 0)})
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
