package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCompareValue(t *testing.T) {
	for _, tc := range []struct {
		name, rest, tr string
		want           []Field
		equal          int
	}{
		{name: "equal", rest: `{"a":1,"b":"x"}`, tr: `{"b":"x","a":1}`, equal: 2},
		{name: "within tolerance", rest: `{"a":100}`, tr: `{"a":104}`,
			want: []Field{{Path: "$.a", Verdict: WithinTol, REST: 100.0, Translation: 104.0}}},
		{name: "beyond tolerance", rest: `{"a":100}`, tr: `{"a":106}`,
			want: []Field{{Path: "$.a", Verdict: Different, REST: 100.0, Translation: 106.0}}},
		{name: "missing on each side", rest: `{"a":1}`, tr: `{"b":2}`,
			want: []Field{{Path: "$.a", Verdict: MissingGraph, REST: 1.0}, {Path: "$.b", Verdict: MissingREST, Translation: 2.0}}},
		{name: "arrays by id, any order", rest: `{"l":[{"id":1,"n":"a"},{"id":2,"n":"b"}]}`, tr: `{"l":[{"id":2,"n":"B"},{"id":1,"n":"a"}]}`,
			want: []Field{{Path: "$.l[id=2].n", Verdict: Different, REST: "b", Translation: "B"}}, equal: 3},
		{name: "arrays by index", rest: `{"l":[1,2]}`, tr: `{"l":[1]}`,
			want: []Field{{Path: "$.l[1]", Verdict: MissingGraph, REST: 2.0}}, equal: 1},
		{name: "type change", rest: `{"a":"5"}`, tr: `{"a":5}`,
			want: []Field{{Path: "$.a", Verdict: Different, REST: "5", Translation: 5.0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a, b any
			if err := json.Unmarshal([]byte(tc.rest), &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.tr), &b); err != nil {
				t.Fatal(err)
			}
			x := Exchange{Counts: map[string]int{}}
			compareValue("$", a, b, 0.05, &x)
			if !reflect.DeepEqual(x.Fields, tc.want) || x.Counts[Equal] != tc.equal {
				t.Fatalf("fields %+v (equal %d), want %+v (equal %d)", x.Fields, x.Counts[Equal], tc.want, tc.equal)
			}
		})
	}
}

// The pacing, the 429 retry and the defaults of a side, with the runner's clock and sleep
// replaced so nothing waits: pace waits the rest of the gap (an upper bound on time the
// real clock could not check), call retries a 429 twice within the Retry-After bounds,
// and the sides get a 60 s client timeout.

// fakeClock is a clock that moves only when told, and a sleep that records what it was
// asked and moves the clock by it.
type fakeClock struct {
	now    time.Time
	slept  []time.Duration
	answer bool // what sleep returns (false: as if the context ended)
}

func (c *fakeClock) clock() time.Time { return c.now }
func (c *fakeClock) sleep(_ context.Context, d time.Duration) bool {
	c.slept = append(c.slept, d)
	c.now = c.now.Add(d)
	return c.answer
}

// TestPace: pace waits the rest of the gap since the side's last request, and
// nothing once the gap has passed (a timer of 0 fires at once, so a wait of exactly 0
// is the same either way).
func TestPace(t *testing.T) {
	s := &Side{}
	t0 := time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		last    time.Time // zero: never asked
		now     time.Time
		want    []time.Duration
		wantEnd time.Time
	}{
		{"first request", time.Time{}, t0, nil, t0},
		{"a quarter of the gap after the last", t0, t0.Add(30 * time.Millisecond), []time.Duration{90 * time.Millisecond}, t0.Add(120 * time.Millisecond)},
		{"exactly the gap after", t0, t0.Add(120 * time.Millisecond), nil, t0.Add(120 * time.Millisecond)},
		{"long after", t0, t0.Add(time.Hour), nil, t0.Add(time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &fakeClock{now: tc.now, answer: true}
			r := &runner{last: map[*Side]time.Time{}, gap: 120 * time.Millisecond, clock: c.clock, sleep: c.sleep}
			if !tc.last.IsZero() {
				r.last[s] = tc.last
			}
			r.pace(context.Background(), s)
			if fmt.Sprint(c.slept) != fmt.Sprint(tc.want) {
				t.Errorf("slept %v, want %v", c.slept, tc.want)
			}
			if !r.last[s].Equal(tc.wantEnd) {
				t.Errorf("last request at %v, want %v", r.last[s], tc.wantEnd)
			}
		})
	}
	// Each side has its own pace: a request to the other side does not wait.
	c := &fakeClock{now: t0.Add(time.Millisecond), answer: true}
	other := &Side{}
	r := &runner{last: map[*Side]time.Time{s: t0}, gap: 120 * time.Millisecond, clock: c.clock, sleep: c.sleep}
	r.pace(context.Background(), other)
	if len(c.slept) != 0 {
		t.Errorf("the other side waited %v", c.slept)
	}
}

// seq429 answers 429 (with the Retry-After it is given, "" for none) n times, then 200.
type seq429 struct {
	retryAfter []string
	calls      int
}

func (q *seq429) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q.calls++
	if q.calls <= len(q.retryAfter) {
		if v := q.retryAfter[q.calls-1]; v != "" {
			w.Header().Set("Retry-After", v)
		}
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"title":"rate limited"}}`))
		return
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(`{"applications":[]}`))
}

func TestCall429Retry(t *testing.T) {
	for _, tc := range []struct {
		name       string
		retryAfter []string
		sleepOK    bool
		wantStatus int
		wantCalls  int
		wantSlept  []time.Duration
	}{
		{"one 429 then the answer", []string{"3"}, true, 200, 2, []time.Duration{3 * time.Second}},
		{"no Retry-After waits a second", []string{""}, true, 200, 2, []time.Duration{time.Second}},
		{"Retry-After 0 waits a second", []string{"0"}, true, 200, 2, []time.Duration{time.Second}},
		{"Retry-After 1", []string{"1"}, true, 200, 2, []time.Duration{time.Second}},
		{"Retry-After over a minute waits a minute", []string{"120"}, true, 200, 2, []time.Duration{time.Minute}},
		{"Retry-After 60", []string{"60"}, true, 200, 2, []time.Duration{time.Minute}},
		{"two 429s then the answer", []string{"2", "5"}, true, 200, 3, []time.Duration{2 * time.Second, 5 * time.Second}},
		{"three 429s: the third is the answer", []string{"2", "2", "2"}, true, 429, 3, []time.Duration{2 * time.Second, 2 * time.Second}},
		{"the context ends while waiting", []string{"4"}, false, 429, 1, []time.Duration{4 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := &seq429{retryAfter: tc.retryAfter}
			srv := httptest.NewServer(q)
			defer srv.Close()
			c := &fakeClock{now: time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC), answer: tc.sleepOK}
			s := &Side{Base: srv.URL, Client: srv.Client()}
			r := &runner{last: map[*Side]time.Time{}, gap: 0, clock: c.clock, sleep: c.sleep}
			a := r.call(context.Background(), s, "/v2/applications.json")
			if a.err != nil {
				t.Fatal(a.err)
			}
			if a.status != tc.wantStatus || q.calls != tc.wantCalls {
				t.Errorf("status %d after %d requests, want %d after %d", a.status, q.calls, tc.wantStatus, tc.wantCalls)
			}
			if fmt.Sprint(c.slept) != fmt.Sprint(tc.wantSlept) {
				t.Errorf("waited %v, want %v", c.slept, tc.wantSlept)
			}
		})
	}
	// A status other than 429 is never retried, 503 included.
	for _, st := range []int{http.StatusServiceUnavailable, http.StatusBadRequest, http.StatusInternalServerError} {
		calls := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			calls++
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(st)
		}))
		c := &fakeClock{now: time.Unix(0, 0), answer: true}
		r := &runner{last: map[*Side]time.Time{}, clock: c.clock, sleep: c.sleep}
		a := r.call(context.Background(), &Side{Base: srv.URL, Client: srv.Client()}, "/v2/x.json")
		srv.Close()
		if a.status != st || calls != 1 || len(c.slept) != 0 {
			t.Errorf("status %d: answered %d after %d requests and waits %v; want one request, no wait", st, a.status, calls, c.slept)
		}
	}
}

func TestSleepCtx(t *testing.T) {
	if !sleepCtx(context.Background(), time.Millisecond) {
		t.Error("a 1 ms wait that passed reported false")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan bool, 1)
	go func() { done <- sleepCtx(ctx, time.Hour) }()
	select {
	case ok := <-done:
		if ok {
			t.Error("a wait cut by its context reported true")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("an ended context did not cut an hour's wait")
	}
}

// TestSideDefaults: a side without a Client gets one with the 60 s timeout (without
// one, a hung side hangs the run).
func TestSideDefaults(t *testing.T) {
	if c := sideClient(); c.Timeout != 60*time.Second {
		t.Errorf("side client timeout %v, want 60s", c.Timeout)
	}
	if sideTimeout != time.Minute {
		t.Errorf("sideTimeout %v", sideTimeout)
	}
}

// writeSide answers the write plan: a created policy, a created, updated and deleted
// NRQL condition, the policy's deletion and a deployment.
type writeSide struct{ calls []string }

func (f *writeSide) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v2/applications.json":
		_, _ = w.Write([]byte(`{"applications":[]}`))
	case r.Method == http.MethodPost && r.URL.Path == "/v2/alerts_policies.json":
		_, _ = w.Write([]byte(`{"policy":{"id":71,"name":"p"}}`))
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v2/alerts_nrql_conditions/policies/"):
		_, _ = w.Write([]byte(`{"nrql_condition":{"id":81,"name":"c"}}`))
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/deployments.json"):
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"deployment":{"id":91,"revision":"r"}}`))
	default:
		_, _ = w.Write([]byte(`{}`))
	}
}

// TestRunWritesTotal: a run with writes plans 5 exchanges, 6 with an application
// (verify.go `r.total += 5`, `r.total++`), makes them all, and its progress bar ends at
// done == total.
func TestRunWritesTotal(t *testing.T) {
	for _, app := range []int64{0, 42} {
		rest, tr := &writeSide{}, &writeSide{}
		rs, ts := httptest.NewServer(rest), httptest.NewServer(tr)
		var progress strings.Builder
		rep, err := Run(context.Background(), Config{REST: Side{Base: rs.URL}, Translation: Side{Base: ts.URL},
			PerMinute: 1 << 20, Writes: true, WriteApp: app, Stamp: "t", Progress: &progress, ProgressTerminal: true})
		rs.Close()
		ts.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := 8 + 5 // the eight lists of the read plan (no ids in them), then the writes
		if app != 0 {
			want++
		}
		if len(rep.Exchanges) != want {
			t.Errorf("app %d: %d exchanges, want %d", app, len(rep.Exchanges), want)
		}
		end := fmt.Sprintf("] %d/%d ", want, want)
		bars := strings.Split(progress.String(), "\r")
		if last := bars[len(bars)-1]; !strings.Contains(last, end) || !strings.HasPrefix(last, "[##############################]") {
			t.Errorf("app %d: the progress bar ends %q, want a full bar and %q", app, last, end)
		}
	}
}

// TestExchange429: a side still rate-limited after the retries makes the exchange an
// error naming that side (verify.go exchange's two `== http.StatusTooManyRequests`),
// not a comparison of an error body with an answer.
func TestExchange429(t *testing.T) {
	for _, limited := range []string{"REST", "translation"} {
		busy := &seq429{retryAfter: []string{"1", "1", "1", "1"}}
		ok := &seq429{}
		rs, ts := httptest.NewServer(busy), httptest.NewServer(ok)
		if limited == "translation" {
			rs, ts = ts, rs
		}
		c := &fakeClock{now: time.Unix(0, 0), answer: true}
		r := &runner{cfg: Config{REST: Side{Base: rs.URL, Client: rs.Client()}, Translation: Side{Base: ts.URL, Client: ts.Client()}},
			rep: &Report{}, last: map[*Side]time.Time{}, clock: c.clock, sleep: c.sleep}
		r.exchange(context.Background(), request{"applications.list", "/v2/applications.json"})
		rs.Close()
		ts.Close()
		want := limited + " side answered 429"
		if len(r.rep.Exchanges) != 1 || r.rep.Exchanges[0].Error != want {
			t.Errorf("%s side limited: exchanges %+v, want one with error %q", limited, r.rep.Exchanges, want)
		}
	}
}

// A whole read run against two fake sides, the report's summary, and the helpers of a
// run (ids, readAll, redact, ms, progress).

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
		"/v2/alerts_events.json":                                      `{"recent_events":[]}`,
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

// TestRunReadPlan runs the read plan with a sample of 2 (verify.go: Run's defaults
// and totals, discoverAndCompare's three stages and `len(out) == n` in ids, exchange's
// failure classes `rest.status >= 500` and `tr.status >= 500`, a 501 not compared, the status difference and the
// non-JSON body, summarize's counts and errors; each negation or boundary changes a
// count or a path below).
func TestRunReadPlan(t *testing.T) {
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
	rest.status["/v2/alerts_violations.json"] = 501 // a route the REST side does not serve
	rs, ts := httptest.NewServer(rest), httptest.NewServer(tr)
	defer rs.Close()
	defer ts.Close()
	var progress bytes.Buffer
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	tick := 0
	rep, err := Run(context.Background(), Config{
		REST:        Side{Base: rs.URL, Header: http.Header{"X-Api-Key": {"NRAK-R"}}},
		Translation: Side{Base: ts.URL, Header: http.Header{"X-Api-Key": {"NRAK-T"}}},
		Sample:      2, PerMinute: 1 << 30, Progress: &progress, ProgressTerminal: true,
		Now: func() time.Time { tick++; return t0.Add(time.Duration(tick) * time.Minute) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if rest.key != "NRAK-R" || tr.key != "NRAK-T" {
		t.Errorf("keys seen %q %q, want each side's header", rest.key, tr.key)
	}
	if !rep.Started.Equal(t0.Add(time.Minute)) || !rep.Finished.Equal(t0.Add(2*time.Minute)) || rep.Sample != 2 ||
		rep.Tolerance != 0.05 || rep.REST != rs.URL+"/v2" {
		t.Errorf("report header %v %v %d %v %q", rep.Started, rep.Finished, rep.Sample, rep.Tolerance, rep.REST)
	}
	// 8 lists, a filter[name] probe for each of 2 applications (names "a" and "b": only
	// the other case, "A" and "B", 404s on both sides), 6 reads for each, 1 key
	// transaction, 1 mobile application, 3 condition lists, then one host and one
	// instance of application 1 (application 2's hosts and instances are 404s on both
	// sides).
	if len(rep.Exchanges) != 8+2+12+1+1+3+2 || len(rest.calls) != len(rep.Exchanges) || len(tr.calls) != len(rep.Exchanges) {
		t.Fatalf("%d exchanges (REST %d, translation %d calls), want 29:\n%s", len(rep.Exchanges), len(rest.calls), len(tr.calls),
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
	if x := byPath["/v2/alerts_violations.json"]; x.Error != "" || x.NotCompared != "the REST side does not serve this route (501)" {
		t.Errorf("a 501 is not compared, not an error: %+v", x)
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
		case "alerts_violations.list":
			if s.Errors != 0 || s.NotCompared != 1 {
				t.Errorf("%s: %d errors, %d not compared, want 0 and 1", s.Route, s.Errors, s.NotCompared)
			}
		case "mobile_applications.show", "key_transactions.show":
			if want := map[string]int{"mobile_applications.show": 1}[s.Route]; s.Requests != 1 || s.Errors != want {
				t.Errorf("%s: %d requests, %d errors, want 1 and %d", s.Route, s.Requests, s.Errors, want)
			}
		}
	}
	if len(rep.Routes) != 21 || app == nil || app.Requests != 2 || app.Errors != 1 || app.RoundTrips != 4 || app.Counts[Different] != 1 {
		t.Errorf("%d routes, applications.show %+v", len(rep.Routes), app)
	}
	if !strings.Contains(progress.String(), "["+strings.Repeat("#", 30)+"] 29/29") || !strings.Contains(progress.String(), "[###"+strings.Repeat(".", 27)+"] 1/8 ") ||
		!strings.HasSuffix(progress.String(), "\n") {
		t.Errorf("progress %q", progress.String())
	}

	var sum bytes.Buffer
	if err := rep.WriteSummary(&sum); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"29 requests on 21 routes, sample 2, tolerance 5%", "applications.show",
		"failed: /v2/applications/2.json: a side's body is not JSON",
		"not compared: /v2/alerts_violations.json: the REST side does not serve this route (501)", "field(s) differ or are missing on one side:"} {
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

// TestRunNeedsApplications: without the REST application list there is nothing to
// sample (verify.go: `bodies["applications.list"] == nil`, exchange's `rest.status !=
// 200` returning no body).
func TestRunNeedsApplications(t *testing.T) {
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

// TestSummaryDifferencesCap: ten differences are listed, the eleventh onwards is
// summed up (output.go `i == 10`, `len(diffs) > 0`, `s.Errors > 0`), and a field
// within tolerance is not a difference (verify.go Differences `!= WithinTol`).
func TestSummaryDifferencesCap(t *testing.T) {
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

// TestRunHelpers: ids stops at n and skips objects without a numeric id; readAll
// refuses, never truncates, an answer over maxBody (`len(b) > maxBody` boundary);
// redact drops the URL; ms rounds to hundredths of a millisecond (its `/10`, `/100`).
func TestRunHelpers(t *testing.T) {
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

// TestRunDefaultsAndPace: Sample and PerMinute of 0 take their defaults (a 0 left as
// is would divide by zero), and requests to a side are paced a minute / PerMinute
// apart, no less and not hours. The elapsed-time check is a lower bound that correct
// code always meets, however slow the machine.
func TestRunDefaultsAndPace(t *testing.T) {
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
	if rep.Sample != 3 || rep.Tolerance != 0.05 || len(rep.Exchanges) != 8 {
		t.Errorf("defaults: sample %d tolerance %v, %d exchanges; want 3, 0.05, 8", rep.Sample, rep.Tolerance, len(rep.Exchanges))
	}
	// 8 requests to each side at 500 a minute: at least 7 gaps of 120 ms.
	if min := 7 * time.Minute / 500; took < min {
		t.Errorf("8 paced requests took %v, want at least %v", took, min)
	}
}

// TestWriteHTML: differences are listed before other fields, a value missing on a
// side shows as a dash, the tolerance as a percentage.
func TestWriteHTML(t *testing.T) {
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
