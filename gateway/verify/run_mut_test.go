package verify

// A whole read run against two fake sides, the report's summary, and the helpers of a
// run (ids, readAll, redact, ms, progress), written against the mutants of `make mutate
// PKG=./gateway/verify` (gremlins v0.6.0) that no test of this package reached before
// (Run, discoverAndCompare, call, exchange, summarize, output.go). The pacing, the 429
// retry and the write plan's total are in pace_mut_test.go (a fake clock and sleep).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// fakeSide answers the read plan from a table of path → (status, body); anything else
// is a 404. It records the paths asked and the API key header seen.
type fakeSide struct {
	answers map[string]string // path with query → body (status 200)
	status  map[string]int    // path → status other than 200
	calls   []string
	key     string
}

func (f *fakeSide) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if r.URL.RawQuery != "" {
		p += "?" + r.URL.RawQuery
	}
	f.calls = append(f.calls, p)
	f.key = r.Header.Get("X-Api-Key")
	w.Header().Set("X-V2bridge-Upstream-Calls", "2")
	body, ok := f.answers[p]
	st := f.status[p]
	if st == 0 {
		st = http.StatusOK
		if !ok {
			st, body = http.StatusNotFound, `{"error":{"title":"not found"}}`
		}
	}
	w.WriteHeader(st)
	_, _ = w.Write([]byte(body))
}

func readPlan() map[string]string {
	return map[string]string{
		"/v2/applications.json":                                       `{"applications":[{"id":1,"name":"a"},{"id":"x"},{"id":2,"name":"b"},{"id":3,"name":"c"}]}`,
		"/v2/key_transactions.json":                                   `{"key_transactions":[{"id":7}]}`,
		"/v2/browser_applications.json":                               `{"browser_applications":[]}`,
		"/v2/mobile_applications.json":                                `{"mobile_applications":[{"id":9}]}`,
		"/v2/alerts_policies.json":                                    `{"policies":[{"id":5}]}`,
		"/v2/alerts_violations.json":                                  `{"violations":[]}`,
		"/v2/alerts_incidents.json":                                   `{"incidents":[]}`,
		"/v2/applications/1.json":                                     `{"application":{"id":1,"name":"a","apdex":0.9}}`,
		"/v2/applications/1/hosts.json":                               `{"application_hosts":[{"id":11},{"id":12}]}`,
		"/v2/applications/1/instances.json":                           `{"application_instances":[{"id":21}]}`,
		"/v2/applications/1/hosts/11.json":                            `{"application_host":{"id":11}}`,
		"/v2/applications/1/instances/21.json":                        `{"application_instance":{"id":21}}`,
		"/v2/applications/1/deployments.json":                         `{"deployments":[]}`,
		"/v2/applications/1/metrics.json":                             `{"metrics":[]}`,
		"/v2/alerts_entity_conditions/1.json?entity_type=Application": `{"conditions":[]}`,
		"/v2/applications/2.json":                                     `{"application":{"id":2,"name":"b","apdex":0.9}}`,
		"/v2/key_transactions/7.json":                                 `{"key_transaction":{"id":7}}`,
		"/v2/mobile_applications/9.json":                              `{"mobile_application":{"id":9}}`,
		"/v2/alerts_conditions.json?policy_id=5":                      `{"conditions":[]}`,
		"/v2/alerts_nrql_conditions.json?policy_id=5":                 `{"nrql_conditions":[]}`,
		"/v2/alerts_synthetics_conditions.json?policy_id=5":           `{"synthetics_conditions":[]}`,
	}
}

// TestRunReadPlanMut runs the read plan with a sample of 2 (verify.go: Run's defaults
// and totals, discoverAndCompare's three stages and `len(out) == n` in ids, exchange's
// failure classes `rest.status >= 500` and `tr.status >= 500`, the status difference and the
// non-JSON body, summarize's counts and errors; each negation or boundary changes a
// count or a path below).
func TestRunReadPlanMut(t *testing.T) {
	rest := &fakeSide{answers: readPlan(), status: map[string]int{}}
	trAnswers := readPlan()
	trAnswers["/v2/applications/1.json"] = `{"application":{"id":1,"name":"A","apdex":0.92}}`
	trAnswers["/v2/applications/2.json"] = `not json`
	tr := &fakeSide{answers: trAnswers, status: map[string]int{
		"/v2/applications/1/deployments.json": 500,
		"/v2/applications/1/metrics.json":     502,
		"/v2/key_transactions/7.json":         404,
	}}
	rest.status["/v2/mobile_applications/9.json"] = 500
	rs, ts := httptest.NewServer(rest), httptest.NewServer(tr)
	defer rs.Close()
	defer ts.Close()
	var progress bytes.Buffer
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	tick := 0
	rep, err := Run(context.Background(), Config{
		REST:        Side{Base: rs.URL, Header: http.Header{"X-Api-Key": {"NRAK-R"}}},
		Translation: Side{Base: ts.URL, Header: http.Header{"X-Api-Key": {"NRAK-T"}}},
		Sample:      2, PerMinute: 1 << 30, Progress: &progress,
		Now: func() time.Time { tick++; return t0.Add(time.Duration(tick) * time.Minute) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if rest.key != "NRAK-R" || tr.key != "NRAK-T" {
		t.Errorf("keys seen %q %q, want each side's header", rest.key, tr.key)
	}
	if !rep.Started.Equal(t0.Add(time.Minute)) || !rep.Finished.Equal(t0.Add(2*time.Minute)) || rep.Sample != 2 ||
		rep.Tolerance != 0.05 || rep.REST != rs.URL {
		t.Errorf("report header %v %v %d %v %q", rep.Started, rep.Finished, rep.Sample, rep.Tolerance, rep.REST)
	}
	// 7 lists, a filter[name] probe for each of 2 applications (names "a" and "b": only
	// the other case, "A" and "B", 404s on both sides), 6 reads for each, 1 key
	// transaction, 1 mobile application, 3 condition lists, then one host and one
	// instance of application 1 (application 2's hosts and instances are 404s on both
	// sides).
	if len(rep.Exchanges) != 7+2+12+1+1+3+2 || len(rest.calls) != len(rep.Exchanges) || len(tr.calls) != len(rep.Exchanges) {
		t.Fatalf("%d exchanges (REST %d, translation %d calls), want 28:\n%s", len(rep.Exchanges), len(rest.calls), len(tr.calls),
			strings.Join(rest.calls, "\n"))
	}
	for _, p := range []string{"/v2/applications/3.json", "/v2/applications/1/hosts/12.json"} {
		for _, c := range rest.calls {
			if c == p {
				t.Errorf("%s asked: beyond the sample", p)
			}
		}
	}
	byPath := map[string]Exchange{}
	for _, x := range rep.Exchanges {
		byPath[x.Path] = x
	}
	for path, want := range map[string]string{
		"/v2/applications/1/deployments.json": "translation side answered 500",
		"/v2/applications/1/metrics.json":     "translation side answered 502",
		"/v2/mobile_applications/9.json":      "REST side answered 500",
		"/v2/applications/2.json":             "a side's body is not JSON",
		"/v2/applications/1.json":             "",
		"/v2/key_transactions/7.json":         "",
	} {
		if got := byPath[path].Error; got != want {
			t.Errorf("%s: error %q, want %q", path, got, want)
		}
	}
	if x := byPath["/v2/key_transactions/7.json"]; x.RESTStatus != 200 || x.TranslationStatus != 404 || len(x.Fields) == 0 ||
		x.Fields[0].Path != "$status" || x.Counts[Different] != 1 {
		t.Errorf("status difference not recorded: %+v", x)
	}
	if x := byPath["/v2/applications/1.json"]; x.Counts[Equal] != 1 || x.Counts[Different] != 1 || x.Counts[WithinTol] != 1 || x.RoundTrips != 2 {
		t.Errorf("application 1: %+v", x)
	}
	var app *RouteSummary
	for i, s := range rep.Routes {
		switch s.Route {
		case "applications.show":
			app = &rep.Routes[i]
		case "mobile_applications.show", "key_transactions.show":
			if want := map[string]int{"mobile_applications.show": 1}[s.Route]; s.Requests != 1 || s.Errors != want {
				t.Errorf("%s: %d requests, %d errors, want 1 and %d", s.Route, s.Requests, s.Errors, want)
			}
		}
	}
	if len(rep.Routes) != 20 || app == nil || app.Requests != 2 || app.Errors != 1 || app.RoundTrips != 4 || app.Counts[Different] != 1 {
		t.Errorf("%d routes, applications.show %+v", len(rep.Routes), app)
	}
	if !strings.Contains(progress.String(), "["+strings.Repeat("#", 30)+"] 28/28") || !strings.Contains(progress.String(), "[####"+strings.Repeat(".", 26)+"] 1/7 ") ||
		!strings.HasSuffix(progress.String(), "\n") {
		t.Errorf("progress %q", progress.String())
	}

	var sum bytes.Buffer
	if err := rep.WriteSummary(&sum); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"28 requests on 20 routes, sample 2, tolerance 5%", "applications.show", "1 error(s)",
		"not compared: /v2/applications/2.json: a side's body is not JSON", "field(s) differ or are missing on one side:"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sum.String())
		}
	}
	var js, page bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil || !strings.Contains(js.String(), `"nerdgraph_round_trips": 2`) {
		t.Errorf("WriteJSON: %v", err)
	}
	if err := rep.WriteHTML(&page); err != nil || !strings.Contains(page.String(), "applications.show") {
		t.Errorf("WriteHTML: %v", err)
	}
}

// TestRunNeedsApplicationsMut: without the REST application list there is nothing to
// sample (verify.go: `bodies["applications.list"] == nil`, exchange's `rest.status !=
// 200` returning no body).
func TestRunNeedsApplicationsMut(t *testing.T) {
	side := httptest.NewServer(&fakeSide{answers: map[string]string{}, status: map[string]int{"/v2/applications.json": 401}})
	defer side.Close()
	_, err := Run(context.Background(), Config{REST: Side{Base: side.URL}, Translation: Side{Base: side.URL}, PerMinute: 1 << 30})
	if err == nil || !strings.Contains(err.Error(), "did not list applications") {
		t.Errorf("Run with a 401 application list = %v", err)
	}
	// Every request aborted (no answer); the port kept, so no other server takes it.
	dead := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
	defer dead.Close()
	_, err = Run(context.Background(), Config{REST: Side{Base: dead.URL}, Translation: Side{Base: dead.URL}, PerMinute: 1 << 30})
	if err == nil {
		t.Error("Run with an unreachable REST side = nil error")
	}
}

// TestSummaryDifferencesCapMut: ten differences are listed, the eleventh onwards is
// summed up (output.go `i == 10`, `len(diffs) > 0`, `s.Errors > 0`), and a field
// within tolerance is not a difference (verify.go Differences `!= WithinTol`).
func TestSummaryDifferencesCapMut(t *testing.T) {
	mk := func(n int) *Report {
		x := Exchange{Path: "/v2/x.json", Counts: map[string]int{}}
		x.Fields = append(x.Fields, Field{Path: "$.tol", Verdict: WithinTol})
		for i := 0; i < n; i++ {
			x.Fields = append(x.Fields, Field{Path: fmt.Sprintf("$.f%02d", i), Verdict: Different})
		}
		return &Report{Exchanges: []Exchange{x}, Routes: []RouteSummary{{Route: "r", Requests: 1, Counts: map[string]int{}}}}
	}
	for n, want := range map[int][]string{
		0:  {"0 field(s) differ or are missing on one side\n"},
		10: {"10 field(s) differ or are missing on one side:\n", "$.f09: different\n"},
		11: {"11 field(s) differ", "$.f09: different\n", "… and 1 more"},
	} {
		var b bytes.Buffer
		if err := mk(n).WriteSummary(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%d differences: summary lacks %q:\n%s", n, w, b.String())
			}
		}
		if strings.Contains(b.String(), "$.tol") || strings.Contains(b.String(), "error(s)") ||
			(n <= 10 && strings.Contains(b.String(), "more")) || strings.Contains(b.String(), "$.f10") {
			t.Errorf("%d differences: summary lists too much:\n%s", n, b.String())
		}
	}
}

// TestRunHelpersMut: ids stops at n and skips objects without a numeric id; readAll
// refuses, never truncates, an answer over maxBody (`len(b) > maxBody` boundary);
// redact drops the URL; ms rounds to hundredths of a millisecond (its `/10`, `/100`).
func TestRunHelpersMut(t *testing.T) {
	body := []byte(`{"l":[{"id":"s"},{"id":4},{"id":5},{"id":6}]}`)
	if got := strings.Join(ids(body, "l", 2), ","); got != "4,5" {
		t.Errorf("ids(n=2) = %s", got)
	}
	if got := ids([]byte(`{"l":{}}`), "l", 2); got != nil {
		t.Errorf("ids of a non-list = %v", got)
	}
	if b, err := readAll(strings.NewReader(strings.Repeat("a", maxBody))); err != nil || len(b) != maxBody {
		t.Errorf("readAll(maxBody) = %d, %v", len(b), err)
	}
	if b, err := readAll(strings.NewReader(strings.Repeat("a", maxBody+1))); err == nil || b != nil {
		t.Errorf("readAll(maxBody+1) = %d bytes, %v; want refused", len(b), err)
	}
	err := redact(&url.Error{Op: "Get", URL: "https://x/?api_key=secret", Err: errors.New("refused")})
	if err.Error() != "Get: refused" {
		t.Errorf("redact = %q", err)
	}
	plain := errors.New("plain")
	if redact(plain) != plain {
		t.Error("redact changed a non-URL error")
	}
	if got := ms(1234567 * time.Nanosecond); got != 1.23 {
		t.Errorf("ms(1.234567ms) = %v, want 1.23", got)
	}
	if got := ms(2500 * time.Millisecond); got != 2500 {
		t.Errorf("ms(2.5s) = %v, want 2500", got)
	}
}

// TestRunDefaultsAndPaceMut: Sample and PerMinute of 0 take their defaults (verify.go:140
// `Sample <= 0` → `< 0`; :146 `PerMinute <= 0` boundary and negation: a 0 left as is
// divides by zero), and requests to a side are paced at least a minute / PerMinute apart
// (:158 `time.Minute / PerMinute` → `*`: the run would wait for hours and hit the
// deadline; :271 `wait > 0` negated: no pacing). The elapsed-time check is a lower bound
// that correct code always meets, however slow the machine.
func TestRunDefaultsAndPaceMut(t *testing.T) {
	rest := &fakeSide{answers: map[string]string{"/v2/applications.json": `{"applications":[]}`}}
	tr := &fakeSide{answers: map[string]string{"/v2/applications.json": `{"applications":[]}`}}
	rs, ts := httptest.NewServer(rest), httptest.NewServer(tr)
	defer rs.Close()
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	rep, err := Run(ctx, Config{REST: Side{Base: rs.URL}, Translation: Side{Base: ts.URL}})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sample != 3 || rep.Tolerance != 0.05 || len(rep.Exchanges) != 7 {
		t.Errorf("defaults: sample %d tolerance %v, %d exchanges; want 3, 0.05, 7", rep.Sample, rep.Tolerance, len(rep.Exchanges))
	}
	// 7 requests to each side at 500 a minute: at least 6 gaps of 120 ms.
	if min := 6 * time.Minute / 500; took < min {
		t.Errorf("7 paced requests took %v, want at least %v", took, min)
	}
}

// TestWriteHTMLMut: differences are listed before other fields, a value missing on a
// side shows as a dash, the tolerance as a percentage (output.go:68 the sort's two
// `Verdict` tests negated, :79 `v == nil`, :85 `100 * f` → `/`).
func TestWriteHTMLMut(t *testing.T) {
	rep := &Report{Tolerance: 0.05, Exchanges: []Exchange{{Path: "/v2/x.json", Counts: map[string]int{}, Fields: []Field{
		{Path: "$.tol_field", Verdict: WithinTol, REST: 100.0, Translation: 104.0},
		{Path: "$.missing_field", Verdict: MissingGraph, REST: "r"},
		{Path: "$.diff_field", Verdict: Different, REST: "a", Translation: "b"},
	}}}}
	var b bytes.Buffer
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	d, w, m := strings.Index(page, "$.diff_field"), strings.Index(page, "$.tol_field"), strings.Index(page, "$.missing_field")
	if d < 0 || w < 0 || m < 0 || d > w || d > m || w > m {
		t.Errorf("field order: diff %d, tolerance %d, missing %d; want the difference first, the rest in their order", d, w, m)
	}
	if !strings.Contains(page, "<td><code>—</code></td>") || !strings.Contains(page, "<td><code>100</code></td>") || !strings.Contains(page, "5%") {
		t.Errorf("page lacks the dash for a missing value or the 5%% tolerance:\n%s", page)
	}
}
