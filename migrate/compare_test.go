package migrate

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/gateway"
)

// TestCompareFailed: which side statuses count as that side failing rather than an
// answer to diff: every 5xx and 429.
func TestCompareFailed(t *testing.T) {
	for status, want := range map[int]bool{200: false, 404: false, 422: false, 429: true, 499: false, 500: true, 502: true, 504: true} {
		if got := failed(status); got != want {
			t.Errorf("failed(%d) = %v, want %v", status, got, want)
		}
	}
}

// TestCompareSampler: one log line per key per interval, exactly at the interval the
// next one.
func TestCompareSampler(t *testing.T) {
	s := &sampler{every: time.Minute, last: map[string]time.Time{}}
	t0 := time.Unix(1_700_000_000, 0)
	if !s.allow("a", t0) {
		t.Fatal("first line refused")
	}
	if s.allow("a", t0.Add(59*time.Second)) {
		t.Fatal("second line within the interval allowed")
	}
	if !s.allow("b", t0.Add(time.Second)) {
		t.Fatal("another key refused")
	}
	if !s.allow("a", t0.Add(time.Minute)) {
		t.Fatal("line exactly one interval later refused")
	}
}

// Compare mode's bounds, empty answers, rates and logs.

// TestCompareCopyBound: an answer of exactly maxCompareBody bytes is compared, one
// byte more is skipped (teeWriter, recorder and holdWriter alike).
func TestCompareCopyBound(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		for size, wantCompared := range map[int]bool{maxCompareBody: true, maxCompareBody + 1: false} {
			body := `"` + strings.Repeat("a", size-2) + `"`
			side := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, body[:size/2]) // two writes: the bound adds them up
				_, _ = io.WriteString(w, body[size/2:])
			})
			g := New(Config{Compare: CompareSettings{Fallback: fallback, Timeout: 2 * time.Second}}, nil)
			rec := httptest.NewRecorder()
			g.cmp.route(gateway.Route{Name: "r"}, side, side).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
			waitCompares(t, g)
			if rec.Body.Len() != size {
				t.Fatalf("caller got %d bytes, want %d", rec.Body.Len(), size)
			}
			rates := compareRates(g.cfg.Metrics)
			compared := len(rates) == 1 && rates[0].Match == 1
			if compared != wantCompared {
				t.Errorf("fallback=%v, %d bytes: compared=%v (rates %+v), want %v", fallback, size, compared, rates, wantCompared)
			}
			// Over the bound the primary's copy is dropped and the comparison skipped,
			// not made against a cut copy (the recorder's own bound would hide that).
			// A route with only skipped comparisons has rates 0, not 0/0.
			if !wantCompared && (len(rates) != 1 || rates[0].DiffRate != 0 || rates[0].ErrorRate != 0) {
				t.Errorf("fallback=%v: rates of skipped comparisons %+v, want 0", fallback, rates)
			}
			if skipped := testutil.ToFloat64(g.cfg.Metrics.CompareCounter("r", "skipped")); (skipped == 1) == wantCompared {
				t.Errorf("fallback=%v, %d bytes: skipped counted %v times", fallback, size, skipped)
			}
		}
	}
	// A secondary answer over the bound is cut, so it cannot match: recorded whole, it
	// would be called a diff.
	size := maxCompareBody + 1
	big := `"` + strings.Repeat("a", size-2) + `"`
	secondary := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, big[:size/2])
		_, _ = io.WriteString(w, big[size/2:])
	})
	g := New(Config{Compare: CompareSettings{Timeout: 2 * time.Second}}, nil)
	g.cmp.route(gateway.Route{Name: "r"}, secondary, fixedSide{200, `"b"`}).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
	waitCompares(t, g)
	if rates := compareRates(g.cfg.Metrics); len(rates) != 1 || rates[0].Errors != 1 || rates[0].Diff != 0 {
		t.Errorf("secondary over the bound: rates %+v, want one error (cut answer), no diff", rates)
	}
}

// TestCompareRequestBody: the secondary gets the request body whole, up to
// MaxBodyBytes.
func TestCompareRequestBody(t *testing.T) {
	got := make(chan string, 2)
	side := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- string(b)
		_, _ = io.WriteString(w, `{}`)
	})
	g := New(Config{MaxBodyBytes: 5, Compare: CompareSettings{Timeout: 2 * time.Second}}, nil)
	g.cmp.route(gateway.Route{Name: "r"}, side, side).ServeHTTP(httptest.NewRecorder(),
		httptest.NewRequest(http.MethodGet, "/v2/applications.json", strings.NewReader("a=1&b")))
	for range 2 {
		select {
		case b := <-got:
			if b != "a=1&b" {
				t.Fatalf("a side got body %q, want %q", b, "a=1&b")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a side was not called")
		}
	}
}

// TestCompareEmptyAnswers: an answer with a body but no WriteHeader, or with nothing
// at all, is a good 200 (holdWriter.Write, and serveFallback for either side).
func TestCompareEmptyAnswers(t *testing.T) {
	bodyOnly := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{"a":1}`) })
	nothing := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	failing := fixedSide{503, `{"r":1}`}
	tests := []struct {
		name         string
		rest, graph  http.Handler
		wantBody     string
		wantFallback string
		wantSide     string // the side counted as failed
	}{
		{"body without WriteHeader", bodyOnly, failing, `{"a":1}`, "", "graph"},
		// The empty answer passes and is compared; the failed side is the secondary, not
		// both.
		{"nothing written", nothing, failing, ``, "", "graph"},
		{"secondary writes nothing", failing, nothing, ``, "graph", "rest"},
		{"secondary body only", failing, bodyOnly, `{"a":1}`, "graph", "rest"},
	}
	for _, tt := range tests {
		g := New(Config{Compare: CompareSettings{Fallback: true, Timeout: 2 * time.Second}}, nil)
		rec := httptest.NewRecorder()
		g.cmp.route(gateway.Route{Name: "r"}, tt.graph, tt.rest).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
		waitCompares(t, g)
		if rec.Code != http.StatusOK || rec.Body.String() != tt.wantBody || rec.Header().Get("X-V2bridge-Fallback") != tt.wantFallback {
			t.Errorf("%s: caller got %d %q fallback %q; want 200 %q fallback %q", tt.name, rec.Code, rec.Body,
				rec.Header().Get("X-V2bridge-Fallback"), tt.wantBody, tt.wantFallback)
		}
		if rates := compareRates(g.cfg.Metrics); len(rates) != 1 || rates[0].BySide[tt.wantSide] != 1 || len(rates[0].BySide) != 1 {
			t.Errorf("%s: rates %+v, want one error of side %s", tt.name, rates, tt.wantSide)
		}
	}
}

// TestCompareRatesAndLog: totals and rates per route, timeouts included, and one log
// line for a difference, none for a match.
func TestCompareRatesAndLog(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	g := New(Config{Compare: CompareSettings{Timeout: 100 * time.Millisecond, LogEvery: time.Nanosecond}}, zap.New(core))
	rest := fixedSide{200, `{"a":1}`}
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	serve := func(graph http.Handler) {
		g.cmp.route(gateway.Route{Name: "r"}, graph, rest).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
		waitCompares(t, g)
	}
	serve(fixedSide{200, `{"a":1}`})
	if n := logs.FilterMessage("compare").Len(); n != 0 {
		t.Fatalf("a match was logged (%d lines)", n)
	}
	serve(fixedSide{200, `{"a":1}`})
	serve(fixedSide{200, `{"a":2}`})
	if n := logs.FilterMessage("compare").Len(); n != 1 {
		t.Fatalf("a difference logged %d lines, want 1", n)
	}
	// A difference the route's note declares is logged with the note's reason.
	g.cmp.route(gateway.Route{Name: "noted", Note: "ids are surrogates; `a` is rounded (to whole units)"}, fixedSide{200, `{"a":2,"b":1}`},
		fixedSide{200, `{"a":1,"b":2}`}).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
	waitCompares(t, g)
	if lines := logs.FilterField(zap.String("route", "noted")).All(); len(lines) != 1 ||
		fmt.Sprint(lines[0].ContextMap()["declared"]) != "[$.a: `a` is rounded (to whole units)]" {
		t.Fatalf("the declared difference's log: %+v", lines)
	}
	serve(fixedSide{502, `{}`})
	serve(slow)
	rates := compareRates(g.cfg.Metrics)
	if len(rates) != 2 || rates[1].Route != "r" {
		t.Fatalf("rates %+v", rates)
	}
	r := rates[1]
	if r.Total != 5 || r.Match != 2 || r.Diff != 1 || r.Errors != 1 || r.Timeouts != 1 || r.DiffRate != 0.2 || r.ErrorRate != 0.2 {
		t.Errorf("rates %+v; want total 5, match 2, diff 1, errors 1, timeouts 1, diff and error rates 0.2", r)
	}
}

// Compare mode's outcomes and fallback.

type fixedSide struct {
	status int
	body   string
}

func (f fixedSide) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Side-Body", f.body)
	w.WriteHeader(f.status)
	_, _ = w.Write([]byte(f.body))
}

// waitCompares waits until no background comparison is running.
func waitCompares(t *testing.T, g *Pilot) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(g.cmp.running) > 0 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	time.Sleep(5 * time.Millisecond) // the counters are written before the slot is freed
}

// declaredNote is a fidelity note declaring a difference in the field a.
const declaredNote = "`a` is computed differently"

// TestCompareOutcomes: what each pair of answers counts as, by side: an error of the
// side that failed (both when both did), a diff when the statuses differ, else match,
// declared (the route's note names every path that differs) or diff by the paths that
// differ.
func TestCompareOutcomes(t *testing.T) {
	tests := []struct {
		name          string
		rest, graph   fixedSide
		note          string // the route's fidelity note
		want          string // match, declared, diff, error:<side>
		callerStatus  int
		fallbackOn    bool
		wantFallback  string // X-V2bridge-Fallback on the caller's answer
		wantFromGraph bool   // the caller got the graph side's body
	}{
		{name: "same answers", rest: fixedSide{200, `{"a":1}`}, graph: fixedSide{200, `{"a":1}`}, want: "match", callerStatus: 200},
		{name: "different bodies", rest: fixedSide{200, `{"a":1}`}, graph: fixedSide{200, `{"a":2}`}, want: "diff", callerStatus: 200},
		{name: "different statuses", rest: fixedSide{200, `{"a":1}`}, graph: fixedSide{404, `{"error":{"title":"x"}}`}, want: "diff", callerStatus: 200},
		{name: "graph failed", rest: fixedSide{200, `{"a":1}`}, graph: fixedSide{502, `{}`}, want: "error:graph", callerStatus: 200},
		{name: "rest failed", rest: fixedSide{503, `{}`}, graph: fixedSide{200, `{"a":1}`}, want: "error:rest", callerStatus: 503},
		{name: "rest rate limited", rest: fixedSide{429, `{}`}, graph: fixedSide{200, `{"a":1}`}, want: "error:rest", callerStatus: 429},
		{name: "both failed", rest: fixedSide{503, `{}`}, graph: fixedSide{502, `{}`}, want: "error:both", callerStatus: 503},
		// Fallback: a failed primary is replaced by a good secondary, named in a header.
		{name: "fallback to graph", rest: fixedSide{503, `{"r":1}`}, graph: fixedSide{200, `{"g":1}`}, want: "error:rest",
			callerStatus: 200, fallbackOn: true, wantFallback: "graph", wantFromGraph: true},
		{name: "fallback on 429", rest: fixedSide{429, `{"r":1}`}, graph: fixedSide{200, `{"g":1}`}, want: "error:rest",
			callerStatus: 200, fallbackOn: true, wantFallback: "graph", wantFromGraph: true},
		{name: "no fallback for a 404", rest: fixedSide{404, `{"r":1}`}, graph: fixedSide{200, `{"g":1}`}, want: "diff",
			callerStatus: 404, fallbackOn: true},
		{name: "fallback, both failed", rest: fixedSide{503, `{"r":1}`}, graph: fixedSide{500, `{"g":1}`}, want: "error:both",
			callerStatus: 503, fallbackOn: true},
		{name: "fallback, good primary compared", rest: fixedSide{200, `{"r":1}`}, graph: fixedSide{200, `{"r":1}`}, want: "match",
			callerStatus: 200, fallbackOn: true},
		{name: "fallback, good primary differs", rest: fixedSide{200, `{"r":1}`}, graph: fixedSide{200, `{"r":2}`}, want: "diff",
			callerStatus: 200, fallbackOn: true},
		// Declared: every path that differs is named by the route's fidelity note.
		{name: "declared difference only", rest: fixedSide{200, `{"a":1,"b":1}`}, graph: fixedSide{200, `{"a":2,"b":1}`},
			note: declaredNote, want: "declared", callerStatus: 200},
		{name: "declared and undeclared differences", rest: fixedSide{200, `{"a":1,"b":1}`}, graph: fixedSide{200, `{"a":2,"b":2}`},
			note: declaredNote, want: "diff", callerStatus: 200},
		{name: "different statuses on a declared route", rest: fixedSide{200, `{"a":1}`}, graph: fixedSide{404, `{"a":2}`},
			note: declaredNote, want: "diff", callerStatus: 200},
		{name: "fallback, declared difference only", rest: fixedSide{200, `{"a":1}`}, graph: fixedSide{200, `{"a":2}`},
			note: declaredNote, want: "declared", callerStatus: 200, fallbackOn: true},
		{name: "fallback, secondary fails later", rest: fixedSide{200, `{"r":1}`}, graph: fixedSide{504, `{}`}, want: "error:graph",
			callerStatus: 200, fallbackOn: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(Config{Compare: CompareSettings{Fallback: tt.fallbackOn, Timeout: 2 * time.Second}}, nil)
			h := g.cmp.route(gateway.Route{Name: "applications.list", Note: tt.note}, tt.graph, tt.rest)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
			waitCompares(t, g)
			if rec.Code != tt.callerStatus {
				t.Errorf("caller got %d, want %d", rec.Code, tt.callerStatus)
			}
			if got := rec.Header().Get("X-V2bridge-Fallback"); got != tt.wantFallback {
				t.Errorf("X-V2bridge-Fallback = %q, want %q", got, tt.wantFallback)
			}
			wantBody := tt.rest.body
			if tt.wantFromGraph {
				wantBody = tt.graph.body
			}
			if rec.Body.String() != wantBody || rec.Header().Get("X-Side-Body") != wantBody {
				t.Errorf("caller got body %q (header %q), want %q", rec.Body, rec.Header().Get("X-Side-Body"), wantBody)
			}
			rates := compareRates(g.cfg.Metrics)
			if len(rates) != 1 {
				t.Fatalf("compare rates: %+v", rates)
			}
			r := rates[0]
			got := ""
			switch {
			case r.Total != 1:
				got = fmt.Sprintf("%+v", r)
			case r.Match == 1:
				got = "match"
			case r.Declared == 1:
				got = "declared"
			case r.Diff == 1:
				got = "diff"
			case r.Errors == 1 && len(r.BySide) == 1:
				for side := range r.BySide {
					got = "error:" + side
				}
			default:
				got = fmt.Sprintf("%+v", r)
			}
			if got != tt.want {
				t.Errorf("counted %s, want %s", got, tt.want)
			}
		})
	}
}

// TestCompareRatesOrder: the usage report's compare rates are listed by route name
// (one row per route: no two are equal).
func TestCompareRatesOrder(t *testing.T) {
	g := New(Config{Metrics: gateway.NewMetrics()}, nil)
	for _, route := range []string{"b.route", "c.route", "a.route"} {
		g.cfg.Metrics.CompareCounter(route, "match").Inc()
	}
	rates := compareRates(g.cfg.Metrics)
	var got []string
	for _, r := range rates {
		got = append(got, r.Route)
	}
	if len(got) != 3 || got[0] != "a.route" || got[1] != "b.route" || got[2] != "c.route" {
		t.Fatalf("rates in order %v, want a.route, b.route, c.route", got)
	}
}

// Compare-mode writes: a bug here is a double write to a user's account.

// TestCompareWritesReachOneSide: every write method (not only POST) reaches exactly
// the primary side (PrimaryGraph says which), once, with or without fallback; a GET
// reaches both.
func TestCompareWritesReachOneSide(t *testing.T) {
	for _, primaryGraph := range []bool{false, true} {
		for _, fallback := range []bool{false, true} {
			g := New(Config{Compare: CompareSettings{PrimaryGraph: primaryGraph, Fallback: fallback, Timeout: time.Second}}, nil)
			var restHits, graphHits atomic.Int32
			side := func(n *atomic.Int32) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					n.Add(1)
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(`{"deployment":{"id":1}}`))
				})
			}
			h := g.cmp.route(gateway.Route{Name: "deployments.create"}, side(&graphHits), side(&restHits))
			primary, secondary := &restHits, &graphHits
			if primaryGraph {
				primary, secondary = &graphHits, &restHits
			}
			for i, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
				req := httptest.NewRequest(method, "/v2/applications/1/deployments.json", strings.NewReader(`{"deployment":{"revision":"r"}}`))
				h.ServeHTTP(httptest.NewRecorder(), req)
				if got := primary.Load(); got != int32(i+1) {
					t.Fatalf("primaryGraph=%v fallback=%v %s: primary hit %d times, want %d", primaryGraph, fallback, method, got, i+1)
				}
				if got := secondary.Load(); got != 0 {
					t.Fatalf("primaryGraph=%v fallback=%v %s: the write also reached the secondary (%d)", primaryGraph, fallback, method, got)
				}
			}
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
			deadline := time.Now().Add(5 * time.Second)
			for secondary.Load() == 0 && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if primary.Load() != 5 || secondary.Load() != 1 {
				t.Fatalf("primaryGraph=%v fallback=%v GET: primary %d, secondary %d; want 5 and 1", primaryGraph, fallback, primary.Load(), secondary.Load())
			}
		}
	}
}

func TestSampler(t *testing.T) {
	s := &sampler{every: 10 * time.Second, last: map[string]time.Time{}}
	t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	steps := []struct {
		key  string
		at   time.Duration
		want bool
	}{{"a", 0, true}, {"a", time.Second, false}, {"b", time.Second, true}, {"a", 11 * time.Second, true}, {"a", 12 * time.Second, false}}
	for i, st := range steps {
		if got := s.allow(st.key, t0.Add(st.at)); got != st.want {
			t.Fatalf("step %d: allow = %v", i, got)
		}
	}
}
