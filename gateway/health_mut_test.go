package gateway

// Readiness and NerdGraph's reachability (issue 22, health.go lines of f9be12a and
// main; health.go was NOT COVERED by own-package tests: written ahead of gremlins, every
// mutant named was applied by hand and is killed).
//
// Equivalent, no test: health.go:58 CONDITIONALS_BOUNDARY (`time.Since(rd.checked) <
// ReadyCacheFor` → `<=`): only an elapsed time of exactly 5 s (to the nanosecond) tells
// them apart.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestReadinessUpstreamMut: NerdGraph's check runs once per ReadyCacheFor with a
// 3-second deadline, its verdict reported by /readyz?verbose and the gauge; no check
// is reachable.
// Kills health.go:15 ARITHMETIC_BASE (`5 * time.Second` → `/`: no caching), :45
// CONDITIONALS_NEGATION (`err != nil` → `==`), :53 CONDITIONALS_NEGATION (`rd.check ==
// nil` → `!=`), :58 CONDITIONALS_NEGATION (`<` → `>=`), :61 ARITHMETIC_BASE
// (`3*time.Second` → `/`), :74 CONDITIONALS_NEGATION (`!= nil` → `==`).
func TestReadinessUpstreamMut(t *testing.T) {
	if ReadyCacheFor != 5*time.Second {
		t.Errorf("ReadyCacheFor = %v, want 5s", ReadyCacheFor)
	}
	var calls int
	var left time.Duration
	down := errors.New("nerdgraph down")
	rd := &readiness{check: func(ctx context.Context) error {
		calls++
		if d, ok := ctx.Deadline(); ok {
			left = time.Until(d)
		}
		return down
	}}
	if err := rd.upstream(context.Background()); !errors.Is(err, down) {
		t.Errorf("first check = %v, want %v", err, down)
	}
	if left < 2*time.Second || left > 3*time.Second {
		t.Errorf("check deadline %v away, want about 3s", left)
	}
	if err := rd.upstream(context.Background()); !errors.Is(err, down) || calls != 1 {
		t.Errorf("second check within ReadyCacheFor = %v after %d checks, want the cached %v after 1", err, calls, down)
	}
	if got := testutil.ToFloat64(rd.gauge()); got != 0 {
		t.Errorf("gauge with NerdGraph down = %v, want 0", got)
	}
	rec := httptest.NewRecorder()
	rd.serve(rec, httptest.NewRequest(http.MethodGet, "/readyz?verbose", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "nerdgraph: unreachable: nerdgraph down") {
		t.Errorf("/readyz?verbose with NerdGraph down: %d %q", rec.Code, rec.Body)
	}

	up := &readiness{check: func(context.Context) error { return nil }}
	if got := testutil.ToFloat64(up.gauge()); got != 1 {
		t.Errorf("gauge with NerdGraph up = %v, want 1", got)
	}
	rec = httptest.NewRecorder()
	up.serve(rec, httptest.NewRequest(http.MethodGet, "/readyz?verbose", nil))
	if !strings.Contains(rec.Body.String(), "nerdgraph: reachable\n") {
		t.Errorf("/readyz?verbose with NerdGraph up: %q", rec.Body)
	}
	if err := (&readiness{}).upstream(context.Background()); err != nil {
		t.Errorf("no check: %v, want nil", err)
	}
}
