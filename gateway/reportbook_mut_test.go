package gateway

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// Survivors of report.go found by applying its mutants by hand (go test -overlay) on
// the tests of f9be12a, ahead of the whole-tree gremlins run reaching the file.
// Equivalent, not tested: report.go:107:14 CONDITIONALS_BOUNDARY (`len(tok) > 64` →
// `>=`): a token of exactly 64 bytes cut to 64 is the same token.

// TestUsageBookDefaultBoundsMut: a bound of 0 callers or agents means the default,
// not "none" (report.go:92:16 and :95:15 CONDITIONALS_BOUNDARY, `<= 0` → `< 0`, f9be12a
// lines: with a bound of 0 the second caller, and the first agent, would be "other").
func TestUsageBookDefaultBoundsMut(t *testing.T) {
	b := newUsageBook(NewMetrics(), 0, 0)
	if b.maxCallers != DefaultReportMaxCallers || b.maxAgents != DefaultReportMaxAgents {
		t.Fatalf("bounds %d callers, %d agents; want the defaults %d, %d", b.maxCallers, b.maxAgents, DefaultReportMaxCallers, DefaultReportMaxAgents)
	}
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, c := range []string{"aaaaaaaa", "bbbbbbbb"} {
		b.record(&reqState{callerHash: c, route: "applications.list", fidelity: Approximate}, "curl/8", 200, at)
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

// TestUsageBookCandidateEvictionMut: a caller outside the table is a candidate; the
// candidates table evicts only when full (report.go:156:30 CONDITIONALS_NEGATION,
// `len(b.candidates) >= b.maxCallers` → `<`: a candidate's count would be lost to a
// newcomer while there is room, and C below would never pass A), and then evicts the
// candidate of fewest calls, the least key among equals (report.go:159:23
// CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION on `v.n < lowN`, :159:38
// CONDITIONALS_NEGATION on `v.n == lowN`, :159:51 CONDITIONALS_NEGATION on `k < low`;
// f9be12a lines). Some of these mutants pick by map order, so each case runs 32 times:
// a mutant passes them all with a chance of 2^-32.
//
// Equivalent, not tested: report.go:159:12 CONDITIONALS_BOUNDARY (`lowN < 0` → `<= 0`):
// a candidate has at least one call, so lowN is never 0; report.go:159:51
// CONDITIONALS_BOUNDARY (`k < low` → `<=`): map keys are distinct.
func TestUsageBookCandidateEvictionMut(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	rec := func(b *usageBook, c string, n int) {
		for range n {
			b.record(&reqState{callerHash: c, route: "applications.list", fidelity: Approximate}, "curl/8", 200, at)
		}
	}
	// A and B fill the table of two; C and D are candidates; C's second call passes A.
	b := newUsageBook(NewMetrics(), 2, 10)
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
				b := newUsageBook(NewMetrics(), 2, 10)
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

// TestUsageBookPromotionMut: a candidate whose calls pass the table's smallest caller
// takes that caller's place (report.go:174:33 CONDITIONALS_NEGATION, `v == lowN` → `!=`
// in the scan for the smallest caller: a larger caller of a lesser key could be taken
// for the smallest, by map order, so 32 rounds; f9be12a lines).
//
// Equivalent, not tested (f9be12a lines): report.go:169:7 CONDITIONALS_BOUNDARY (`n <=
// b.minCaller` → `<`): minCaller is never above the table's smallest count (counts only
// grow, it is reset to 0 when a caller is replaced, and callers are restored only into
// a table not full), so at n == minCaller the scan below finds n <= lowN and answers
// "other" too; it only refreshes minCaller to the true smallest count, a bound that
// gives the same answers. report.go:174:11 CONDITIONALS_BOUNDARY (`lowN < 0` → `<= 0`):
// a caller of the table has at least one call. report.go:174:46 CONDITIONALS_BOUNDARY
// (`k < low` → `<=`): map keys are distinct.
func TestUsageBookPromotionMut(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	rec := func(b *usageBook, c string, n int) {
		for range n {
			b.record(&reqState{callerHash: c, route: "applications.list", fidelity: Approximate}, "curl/8", 200, at)
		}
	}
	for round := range 32 {
		b := newUsageBook(NewMetrics(), 2, 10)
		rec(b, "aaaaaaaa", 5)
		rec(b, "bbbbbbbb", 3) // the smallest, of the greater key
		rec(b, "cccccccc", 4) // passes bbbbbbbb at its fourth call
		if got := callerRows(b); len(got) != 3 || !got["aaaaaaaa"] || !got["cccccccc"] || !got[otherBucket] {
			t.Fatalf("round %d: callers %v, want aaaaaaaa, cccccccc and %s", round, got, otherBucket)
		}
	}
}

// TestUsageBookDemoteNewOtherRowMut: a caller replaced in the table folds its rows into
// "other", also on a route "other" has no row for yet, with its Prometheus calls
// (report.go:204:14 CONDITIONALS_NEGATION, `o.calls == nil` → `!=`: the new row would
// have no counter and the fold would panic; f9be12a lines).
func TestUsageBookDemoteNewOtherRowMut(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	m := NewMetrics()
	b := newUsageBook(m, 2, 10)
	rec := func(c, route string, n int) {
		for range n {
			b.record(&reqState{callerHash: c, route: route, fidelity: Approximate}, "curl/8", 200, at)
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
	if n := testutil.ToFloat64(m.calls.WithLabelValues("applications.show", otherBucket, string(ModeTranslate), string(Approximate))); n != 3 {
		t.Fatalf("v2bridge_v2_calls_total of %s on applications.show = %v, want 3", otherBucket, n)
	}
}

// TestUsageBookSeriesMut: each call counts in the v2bridge_v2_calls_total series of its
// mode and fidelity, also after the route's mode or fidelity changed, and after a
// restart that restored the row (report.go:233:13, :233:30, :233:52
// CONDITIONALS_NEGATION on `u.calls == nil`, `u.Mode != mode`, `u.Fidelity !=
// st.fidelity`; f9be12a lines: the row would keep counting in its first series, or a
// restored row would have none and panic).
func TestUsageBookSeriesMut(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	const route, caller = "applications.list", "aaaaaaaa"
	m := NewMetrics()
	b := newUsageBook(m, 10, 10)
	calls := []struct {
		mode Mode
		fid  Fidelity
	}{
		{ModeTranslate, Approximate},
		{ModePassthrough, Approximate},
		{ModePassthrough, Exact},
		{ModePassthrough, Exact},
	}
	for _, c := range calls {
		b.record(&reqState{callerHash: caller, route: route, mode: c.mode, fidelity: c.fid}, "curl/8", 200, at)
	}
	series := func(m *Metrics, mode Mode, fid Fidelity) float64 {
		return testutil.ToFloat64(m.calls.WithLabelValues(route, caller, string(mode), string(fid)))
	}
	for _, w := range []struct {
		mode Mode
		fid  Fidelity
		n    float64
	}{{ModeTranslate, Approximate, 1}, {ModePassthrough, Approximate, 1}, {ModePassthrough, Exact, 2}} {
		if n := series(m, w.mode, w.fid); n != w.n {
			t.Errorf("series %s %s = %v, want %v", w.mode, w.fid, n, w.n)
		}
	}
	// Restored, the row counts its next call of the same mode and fidelity.
	path := filepath.Join(t.TempDir(), "state.json")
	if err := b.save(path); err != nil {
		t.Fatal(err)
	}
	m2 := NewMetrics()
	b2 := newUsageBook(m2, 10, 10)
	if err := b2.load(path); err != nil {
		t.Fatal(err)
	}
	b2.record(&reqState{callerHash: caller, route: route, mode: ModePassthrough, fidelity: Exact}, "curl/8", 200, at)
	if n := series(m2, ModePassthrough, Exact); n != 1 {
		t.Fatalf("restored row's next call: series = %v, want 1", n)
	}
}
