package gateway

// Compare-mode bounds, empty answers, rates and logs, and the pass-through's Link
// rewriting, written against the survivors of
// `make mutate PKG=./gateway FILES='^(passthrough|compare|errors)\.go$'` (gremlins v0.6.0)
// after the first round of tests: compare.go:91/118/299 (the copy bound), 167 (the
// body limit), 238 (the difference log), 292/332/346 (answers without WriteHeader or
// body), 483-486 (rates), passthrough.go:77/123 (Link rewriting).

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestCompareCopyBoundMut: an answer of exactly maxCompareBody bytes is compared, one
// byte more is skipped (compare.go:91 teeWriter, 118 recorder, 299 holdWriter:
// `Len()+len(p) > max` → `>=` or `Len()-len(p)`).
func TestCompareCopyBoundMut(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		for size, wantCompared := range map[int]bool{maxCompareBody: true, maxCompareBody + 1: false} {
			body := `"` + strings.Repeat("a", size-2) + `"`
			side := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, body[:size/2]) // two writes: the bound adds them up
				_, _ = io.WriteString(w, body[size/2:])
			})
			g := New(Config{Compare: CompareSettings{Fallback: fallback, Timeout: 2 * time.Second}}, nil, nil)
			rec := httptest.NewRecorder()
			g.compare(Route{Name: "r"}, side, side).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
			waitCompares(t, g)
			if rec.Body.Len() != size {
				t.Fatalf("caller got %d bytes, want %d", rec.Body.Len(), size)
			}
			rates := g.compareRates()
			compared := len(rates) == 1 && rates[0].Match == 1
			if compared != wantCompared {
				t.Errorf("fallback=%v, %d bytes: compared=%v (rates %+v), want %v", fallback, size, compared, rates, wantCompared)
			}
			// Over the bound the primary's copy is dropped and the comparison skipped,
			// not made against a cut copy (the recorder's own bound would hide that).
			// A route with only skipped comparisons has rates 0, not 0/0 (compare.go:484
			// `Total > 0` → `>=`).
			if !wantCompared && (len(rates) != 1 || rates[0].DiffRate != 0 || rates[0].ErrorRate != 0) {
				t.Errorf("fallback=%v: rates of skipped comparisons %+v, want 0", fallback, rates)
			}
			if skipped := testutil.ToFloat64(g.cfg.Metrics.compare.WithLabelValues("r", "skipped")); (skipped == 1) == wantCompared {
				t.Errorf("fallback=%v, %d bytes: skipped counted %v times", fallback, size, skipped)
			}
		}
	}
	// A secondary answer over the bound is cut, so it cannot match (compare.go:118
	// `Len()+len(p)` → `Len()-len(p)` would record it whole and call it a diff).
	size := maxCompareBody + 1
	big := `"` + strings.Repeat("a", size-2) + `"`
	secondary := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, big[:size/2])
		_, _ = io.WriteString(w, big[size/2:])
	})
	g := New(Config{Compare: CompareSettings{Timeout: 2 * time.Second}}, nil, nil)
	g.compare(Route{Name: "r"}, secondary, fixedSide{200, `"b"`}).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
	waitCompares(t, g)
	if rates := g.compareRates(); len(rates) != 1 || rates[0].Errors != 1 || rates[0].Diff != 0 {
		t.Errorf("secondary over the bound: rates %+v, want one error (cut answer), no diff", rates)
	}
}

// TestCompareRequestBodyMut: the secondary gets the request body whole, up to
// MaxBodyBytes (compare.go:167 `MaxBodyBytes+1` → `-1` cuts it).
func TestCompareRequestBodyMut(t *testing.T) {
	got := make(chan string, 2)
	side := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- string(b)
		_, _ = io.WriteString(w, `{}`)
	})
	g := New(Config{MaxBodyBytes: 5, Compare: CompareSettings{Timeout: 2 * time.Second}}, nil, nil)
	g.compare(Route{Name: "r"}, side, side).ServeHTTP(httptest.NewRecorder(),
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

// TestCompareEmptyAnswersMut: an answer with a body but no WriteHeader, or with nothing
// at all, is a good 200 (compare.go:292 holdWriter.Write, 332 and 346 serveFallback:
// `status == 0` → `!=`).
func TestCompareEmptyAnswersMut(t *testing.T) {
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
		// compare.go:332: the empty answer passes and is compared; the failed side is the
		// secondary, not both.
		{"nothing written", nothing, failing, ``, "", "graph"},
		{"secondary writes nothing", failing, nothing, ``, "graph", "rest"},
		{"secondary body only", failing, bodyOnly, `{"a":1}`, "graph", "rest"},
	}
	for _, tt := range tests {
		g := New(Config{Compare: CompareSettings{Fallback: true, Timeout: 2 * time.Second}}, nil, nil)
		rec := httptest.NewRecorder()
		g.compare(Route{Name: "r"}, tt.graph, tt.rest).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
		waitCompares(t, g)
		if rec.Code != http.StatusOK || rec.Body.String() != tt.wantBody || rec.Header().Get("X-V2bridge-Fallback") != tt.wantFallback {
			t.Errorf("%s: caller got %d %q fallback %q; want 200 %q fallback %q", tt.name, rec.Code, rec.Body,
				rec.Header().Get("X-V2bridge-Fallback"), tt.wantBody, tt.wantFallback)
		}
		if rates := g.compareRates(); len(rates) != 1 || rates[0].BySide[tt.wantSide] != 1 || len(rates[0].BySide) != 1 {
			t.Errorf("%s: rates %+v, want one error of side %s", tt.name, rates, tt.wantSide)
		}
	}
}

// TestCompareRatesAndLogMut: totals and rates per route, timeouts included
// (compare.go:483-486), and one log line for a difference, none for a match
// (compare.go:238 `result != "match"` → `==`).
func TestCompareRatesAndLogMut(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	g := New(Config{Compare: CompareSettings{Timeout: 100 * time.Millisecond, LogEvery: time.Nanosecond}}, nil, zap.New(core))
	rest := fixedSide{200, `{"a":1}`}
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	serve := func(graph http.Handler) {
		g.compare(Route{Name: "r"}, graph, rest).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
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
	serve(fixedSide{502, `{}`})
	serve(slow)
	rates := g.compareRates()
	if len(rates) != 1 {
		t.Fatalf("rates %+v", rates)
	}
	r := rates[0]
	if r.Total != 5 || r.Match != 2 || r.Diff != 1 || r.Errors != 1 || r.Timeouts != 1 || r.DiffRate != 0.2 || r.ErrorRate != 0.2 {
		t.Errorf("rates %+v; want total 5, match 2, diff 1, errors 1, timeouts 1, diff and error rates 0.2", r)
	}
}

// TestPassthroughLinkRewriteMut: REST v2's Link URLs point at the gateway as the caller
// reached it, and are left alone when the public base is unknown (passthrough.go:77
// `link != ""` → `==`, 123 `publicBase == ""` → `!=`).
func TestPassthroughLinkRewriteMut(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<http://`+r.Host+`/v2/applications.json?page=2>; rel="next"`)
		_, _ = io.WriteString(w, `{}`)
	}))
	defer upstream.Close()
	base, _ := url.Parse(upstream.URL + "/v2")
	g := New(Config{}, nil, nil)
	h := g.newPassthrough(base)
	for publicBase, want := range map[string]string{
		"https://gw.example/accounts/7": `<https://gw.example/accounts/7/v2/applications.json?page=2>; rel="next"`,
		"":                              `<` + upstream.URL + `/v2/applications.json?page=2>; rel="next"`,
	} {
		req := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
		req = req.WithContext(context.WithValue(req.Context(), stateKey{}, &reqState{publicBase: publicBase}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("Link"); got != want {
			t.Errorf("public base %q: Link %q, want %q", publicBase, got, want)
		}
	}
}
