package gateway

import (
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// The usage book keeps rows for the top callers by calls (issue 17 item 1), not the
// first seen: a caller that overtakes the smallest kept one takes its place, and the
// smaller one's rows and series fold into "other" with their calls. Fails with
// first-seen bucketing (c stays "other" however often it calls).
func TestUsageBookKeepsTopCallersByCalls(t *testing.T) {
	m := NewMetrics()
	b := newUsageBook(m, 2, 5)
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	call := func(caller string, n int) {
		for i := 0; i < n; i++ {
			b.record(&reqState{callerHash: caller, route: "applications.list", fidelity: Approximate}, "curl/8", 200, at)
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
		return testutil.ToFloat64(m.calls.WithLabelValues("applications.list", caller, string(ModeTranslate), string(Approximate)))
	}
	if got := series(otherBucket); got != 6 {
		t.Errorf(`v2bridge_v2_calls_total{caller="other"} = %v, want 6 (c's 3 and b's 3)`, got)
	}
	if n := testutil.CollectAndCount(m.calls); n != 3 {
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
