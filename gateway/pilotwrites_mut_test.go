package gateway

// Compare-mode writes and pass-through request rewriting, written against surviving
// mutants of `make mutate PKG=./gateway FILES='^(passthrough|compare)\.go$'` (gremlins
// v0.6.0): a bug here is a double write to a user's account.

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestCompareWritesReachOneSideMut: every write method (not only POST) reaches exactly
// the primary side, once, with or without fallback; a GET reaches both (compare.go:
// `r.Method != http.MethodGet` → `==` would send a write to both sides, and the
// PrimaryGraph swap decides which side that is).
func TestCompareWritesReachOneSideMut(t *testing.T) {
	for _, primaryGraph := range []bool{false, true} {
		for _, fallback := range []bool{false, true} {
			g := New(Config{Compare: CompareSettings{PrimaryGraph: primaryGraph, Fallback: fallback, Timeout: time.Second}}, nil, nil)
			var restHits, graphHits atomic.Int32
			side := func(n *atomic.Int32) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					n.Add(1)
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(`{"deployment":{"id":1}}`))
				})
			}
			h := g.compare(Route{Name: "deployments.create"}, side(&graphHits), side(&restHits))
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

// TestPassthroughRewriteMut pins what the pass-through sends to REST v2 and what it
// adds to the answer (passthrough.go Rewrite and ModifyResponse): the gateway's own
// X-Account-ID selector is stripped, the caller's key and other headers are kept, the
// account prefix is removed from the path, the query is kept; the answer carries the
// mode and, outside the retained alerts namespaces, Sunset and Deprecation.
func TestPassthroughRewriteMut(t *testing.T) {
	type seen struct {
		path, query, key, acct, custom string
	}
	got := make(chan seen, 4)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.URL.Path, r.URL.RawQuery, r.Header.Get("Api-Key"), r.Header.Get("X-Account-ID"), r.Header.Get("X-Custom")}
		w.Header().Set("Link", `<https://upstream/v2/x.json?page=2>; rel="next"`)
		_, _ = w.Write([]byte(`{}`))
	}))
	defer upstream.Close()
	base, _ := url.Parse(upstream.URL + "/v2")
	g := New(Config{}, nil, nil)
	h := g.newPassthrough(base)
	tests := []struct {
		in, wantPath string
		retained     bool
	}{
		{"/v2/applications.json?filter%5Bname%5D=a", "/v2/applications.json", false},
		{"/accounts/42/v2/applications/7.json", "/v2/applications/7.json", false},
		{"/v2/alerts_policies.json", "/v2/alerts_policies.json", true},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodGet, tt.in, nil)
		req.Header.Set("Api-Key", "NRAK-X")
		req.Header.Set("X-Account-ID", "42")
		req.Header.Set("X-Custom", "kept")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		s := <-got
		if s.path != tt.wantPath || s.key != "NRAK-X" || s.acct != "" || s.custom != "kept" {
			t.Errorf("%s: upstream saw %+v; want path %s, the key, no X-Account-ID, X-Custom kept", tt.in, s, tt.wantPath)
		}
		if strings.Contains(tt.in, "?") && s.query != "filter%5Bname%5D=a" {
			t.Errorf("%s: query %q not kept", tt.in, s.query)
		}
		if m := rec.Header().Get("X-V2bridge-Mode"); m != "passthrough" {
			t.Errorf("%s: X-V2bridge-Mode = %q", tt.in, m)
		}
		if sun := rec.Header().Get("Sunset") != ""; sun == tt.retained {
			t.Errorf("%s: Sunset present = %v, want %v", tt.in, sun, !tt.retained)
		}
		if dep := rec.Header().Get("Deprecation"); !tt.retained && dep != "@"+itoa(sunset().Unix()) {
			t.Errorf("%s: Deprecation = %q", tt.in, dep)
		}
	}
	// No answer from REST v2: a REST-shaped 502, never a 500.
	// The server aborts every request (no answer), and keeps its port: a closed port
	// could be taken by another test's server.
	dead := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
	defer dead.Close()
	deadURL, _ := url.Parse(dead.URL + "/v2")
	rec := httptest.NewRecorder()
	New(Config{}, nil, nil).newPassthrough(deadURL).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
	if rec.Code != http.StatusBadGateway || !strings.Contains(rec.Body.String(), `"error"`) {
		t.Errorf("dead upstream: %d %s", rec.Code, rec.Body)
	}
}
