package gateway

// Compare mode's outcomes and fallback (compare.go), written against surviving mutants
// of `make mutate PKG=./gateway FILES='^compare\.go$'` (gremlins v0.6.0).

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

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
func waitCompares(t *testing.T, g *Gateway) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(g.compares) > 0 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	time.Sleep(5 * time.Millisecond) // the counters are written before the slot is freed
}

// TestCompareOutcomesMut: what each pair of answers counts as, by side (compare.go:
// `failed(status) && failed(rec.status)` → `||`, `rec.status != status` → `==`, the
// "diff"/"match" choice on len(paths) > 0).
func TestCompareOutcomesMut(t *testing.T) {
	tests := []struct {
		name          string
		rest, graph   fixedSide
		want          string // match, diff, error:<side>
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
		{name: "fallback, secondary fails later", rest: fixedSide{200, `{"r":1}`}, graph: fixedSide{504, `{}`}, want: "error:graph",
			callerStatus: 200, fallbackOn: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(Config{Compare: CompareSettings{Fallback: tt.fallbackOn, Timeout: 2 * time.Second}}, nil, nil)
			h := g.compare(Route{Name: "applications.list"}, tt.graph, tt.rest)
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
			rates := g.compareRates()
			if len(rates) != 1 {
				t.Fatalf("compare rates: %+v", rates)
			}
			r := rates[0]
			got := ""
			switch {
			case r.Match == 1 && r.Diff == 0 && r.Errors == 0:
				got = "match"
			case r.Diff == 1 && r.Match == 0 && r.Errors == 0:
				got = "diff"
			case r.Errors == 1 && r.Match == 0 && r.Diff == 0 && len(r.BySide) == 1:
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
