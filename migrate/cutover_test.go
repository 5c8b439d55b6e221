package migrate

import (
	"encoding/json"
	"github.com/v2bridge/v2bridge/gateway"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/migrate/verify"
)

// The usage report's cut-over table.

// writeVerifyReport writes rep as the JSON `v2bridge verify` leaves and returns its path.
func writeVerifyReport(t *testing.T, rep verify.Report) string {
	t.Helper()
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "verify.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLastVerify pins how a verify report's route line is read: no path, no table;
// unreadable or malformed files are errors; fields missing on either side count as
// differences.
func TestLastVerify(t *testing.T) {
	if got, err := lastVerify(""); got != nil || err != nil {
		t.Errorf("lastVerify(\"\") = %v, %v; want nil, nil", got, err)
	}
	if _, err := lastVerify(filepath.Join(t.TempDir(), "absent.json")); err == nil {
		t.Error("lastVerify(absent file): no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := lastVerify(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("lastVerify(bad JSON) = %v, want an error naming the file", err)
	}
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	p := writeVerifyReport(t, verify.Report{Finished: at, Routes: []verify.RouteSummary{{
		Route: "applications.list", Requests: 20, Errors: 3, NotCompared: 2,
		Counts: map[string]int{verify.Equal: 5, verify.WithinTol: 4, verify.Different: 2, verify.MissingREST: 7, verify.MissingGraph: 11},
	}}})
	got, err := lastVerify(p)
	if err != nil {
		t.Fatal(err)
	}
	want := CutoverVerify{At: at, Requests: 20, Equal: 5, Within: 4, Differences: 20, NotCompared: 5, Failed: 3}
	if v := got["applications.list"]; v == nil || *v != want {
		t.Errorf("lastVerify = %+v, want %+v", got["applications.list"], want)
	}
}

// TestCutoverVerdict pins each verdict of the cut-over table (declared differences
// only read as verified, not as differences), from the verify report,
// from this replica's compare counters and from both, and the logged error of an
// unreadable verify report. Rows are listed by route (a map's keys: never equal).
func TestCutoverVerdict(t *testing.T) {
	rep := verify.Report{Finished: time.Unix(1_700_000_000, 0).UTC(), Routes: []verify.RouteSummary{
		{Route: "v.equal", Requests: 4, Counts: map[string]int{verify.Equal: 4}},
		{Route: "v.diff", Requests: 4, Counts: map[string]int{verify.Equal: 3, verify.Different: 1}},
		{Route: "v.allerrors", Requests: 3, Errors: 3, Counts: map[string]int{}},
		{Route: "v.oneok", Requests: 4, Errors: 3, Counts: map[string]int{verify.Equal: 1}},
		{Route: "v.none", Requests: 0, Counts: map[string]int{}},
		{Route: "v.unserved", Requests: 2, NotCompared: 2, Counts: map[string]int{}},
		{Route: "both.cmpdiff", Requests: 2, Counts: map[string]int{verify.Equal: 2}},
		{Route: "both.errors", Requests: 2, Errors: 2, Counts: map[string]int{}},
		{Route: "v.declared", Requests: 2, Counts: map[string]int{verify.Equal: 3, verify.Different: 1, verify.MissingREST: 1}},
		{Route: "v.mixed", Requests: 1, Counts: map[string]int{verify.Different: 2}},
	}, Exchanges: []verify.Exchange{
		{Route: "v.declared", Fields: []verify.Field{{Path: "$.a.b", Verdict: verify.Different, Declared: "b"}}},
		{Route: "v.declared", Fields: []verify.Field{{Path: "$.a.c", Verdict: verify.MissingREST, Declared: "c"}}},
		{Route: "v.mixed", Fields: []verify.Field{{Path: "$.a.b", Verdict: verify.Different, Declared: "b"}, {Path: "$.a.x", Verdict: verify.Different}}},
	}}
	m := gateway.NewMetrics()
	m.CompareCounter("c.match", "match").Add(3)
	m.CompareCounter("c.diff", "diff").Add(2)
	m.CompareCounter("c.diff", "match").Add(5)
	m.CompareCounter("c.errors", "error").Add(1)
	m.CompareErrorCounter("c.errors", "graph").Add(1)
	m.CompareCounter("c.errmatch", "error").Add(1)
	m.CompareCounter("c.errmatch", "match").Add(1)
	m.CompareCounter("c.timeout", "timeout").Add(1)
	m.CompareCounter("both.cmpdiff", "diff").Add(1)
	m.CompareCounter("both.errors", "error").Add(1)
	m.CompareCounter("c.declared", "declared").Add(4)
	m.CompareCounter("c.declared", "match").Add(1)
	m.CompareCounter("c.onlydeclared", "declared").Add(2)
	m.CompareCounter("c.declaredanddiff", "declared").Add(2)
	m.CompareCounter("c.declaredanddiff", "diff").Add(1)
	g := New(Config{Metrics: m, ReportVerifyFile: writeVerifyReport(t, rep)}, nil)
	rows, err := cutover([]Usage{
		{Route: "applications.list", Count: 2}, {Route: "applications.list", Count: 3}, {Route: "v.equal", Count: 1},
	}, g.report.verifyFile, compareRates(m))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"applications.list": "not verified",
		"v.equal":           "verified equal",
		"v.diff":            "1 difference(s)",
		"v.allerrors":       "errors",
		"v.oneok":           "verified equal",
		"v.none":            "not verified",
		"v.unserved":        "not verified",
		"c.match":           "verified equal",
		"c.diff":            "2 difference(s)",
		"c.errors":          "errors",
		"c.errmatch":        "verified equal",
		"c.timeout":         "not verified",
		"both.cmpdiff":      "1 difference(s)",
		"both.errors":       "errors",
		"v.declared":        VerdictDeclaredOnly,
		"v.mixed":           "1 difference(s)",
		"c.declared":        VerdictDeclaredOnly,
		"c.onlydeclared":    VerdictDeclaredOnly,
		"c.declaredanddiff": "1 difference(s)",
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Route)
		if r.Verdict != want[r.Route] {
			t.Errorf("%s: verdict %q, want %q", r.Route, r.Verdict, want[r.Route])
		}
	}
	if len(rows) != len(want) {
		t.Errorf("routes %v, want the %d of calls, verify and compare", names, len(want))
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("routes not sorted: %v", names)
			break
		}
	}
	for _, r := range rows {
		switch r.Route {
		case "applications.list":
			if r.Calls != 5 || r.Fidelity != string(gateway.Approximate) || r.Verify != nil || r.Compare != nil {
				t.Errorf("applications.list row = %+v, want 5 calls, approximate, no evidence", r)
			}
		case "v.equal":
			if r.Calls != 1 || r.Verify == nil || r.Verify.Equal != 4 {
				t.Errorf("v.equal row = %+v", r)
			}
		case "c.diff":
			if r.Compare == nil || r.Compare.Total != 7 || r.Compare.Diff != 2 {
				t.Errorf("c.diff compare = %+v", r.Compare)
			}
		case "c.declared":
			if r.Compare == nil || r.Compare.Total != 5 || r.Compare.Declared != 4 || r.Compare.Diff != 0 || r.Compare.DiffRate != 0 {
				t.Errorf("c.declared compare = %+v, want 5 comparisons, 4 declared, no diff", r.Compare)
			}
		case "v.declared":
			if r.Verify == nil || r.Verify.Differences != 0 || r.Verify.Declared != 2 {
				t.Errorf("v.declared verify = %+v, want 2 declared differences and none other", r.Verify)
			}
		}
	}

	core, logs := observer.New(zap.WarnLevel)
	g = New(Config{Metrics: m, ReportVerifyFile: writeVerifyReport(t, rep)}, zap.New(core))
	if rows := g.report.cutoverRows(nil); len(rows) == 0 || logs.Len() != 0 {
		t.Errorf("cutoverRows with a readable report: %d rows, %d warnings; want rows and no warning", len(rows), logs.Len())
	}

	// An unreadable verify report: the table is still built and the error returned
	// (and logged by cutoverRows).
	g = New(Config{Metrics: gateway.NewMetrics(), ReportVerifyFile: filepath.Join(t.TempDir(), "absent.json")}, zap.New(core))
	rows, err = cutover([]Usage{{Route: "applications.list", Count: 1}}, g.report.verifyFile, compareRates(g.report.metrics))
	if err == nil || len(rows) != 1 || rows[0].Verdict != "not verified" {
		t.Errorf("cutover(unreadable report) = %+v, %v; want one row and an error", rows, err)
	}
	if rows := g.report.cutoverRows([]Usage{{Route: "applications.list", Count: 1}}); len(rows) != 1 {
		t.Errorf("cutoverRows(unreadable report) = %+v, want the row without verify", rows)
	}
	if logs.FilterMessage("usage report without the last verify result").Len() != 1 {
		t.Errorf("unreadable verify report not logged once: %v", logs.All())
	}
}
