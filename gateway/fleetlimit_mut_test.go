package gateway

// The fleet-wide rate limit (issue 22, fleet.go lines of f9be12a and main; written
// ahead of gremlins reaching fleet.go: every mutant named was applied by hand and is
// killed).

import (
	"context"
	"errors"
	"testing"
	"time"
)

// scriptedShared answers Allow with its next scripted count (ok while count <= limit),
// or an error when the script says -1.
type scriptedShared struct{ counts []int }

func (s *scriptedShared) Allow(_ context.Context, _ string, limit int, _ time.Time, _ time.Duration, _ int) (bool, int, error) {
	c := s.counts[0]
	s.counts = s.counts[1:]
	if c < 0 {
		return false, 0, errors.New("store down")
	}
	return c <= limit, c, nil
}

func (s *scriptedShared) Forget(context.Context, string, time.Time) {}

// TestAllowFleetMut: the store's count decides and sets the remaining calls; when the
// store fails the replica counts on from the highest count the store gave in the
// window (a lower later count does not lower the mirror).
// Kills fleet.go:27 CONDITIONALS_NEGATION (`l.shared == nil` → `!=`), :32
// CONDITIONALS_NEGATION (`err != nil` → `==`), :36 CONDITIONALS_NEGATION (`w != nil` →
// `==`, `w.start == start` → `!=`), :42 ARITHMETIC_BASE (`l.limit-count` → `+`).
func TestAllowFleetMut(t *testing.T) {
	at := time.Date(2026, 4, 20, 12, 0, 30, 0, time.UTC)
	l := newRateLimiter(10, func() time.Time { return at })
	l.shared = &scriptedShared{counts: []int{4, 7, 5, -1, 11}}
	steps := []struct {
		ok        bool
		remaining int
	}{
		{true, 6},  // store: 4
		{true, 3},  // store: 7
		{true, 2},  // store: 5, lower than the 7 seen: the floor makes it 8
		{true, 1},  // store down: the replica's count goes on from 8 to 9
		{false, 0}, // store: 11 over the limit
	}
	for i, s := range steps {
		ok, remaining, reset := l.allowFleet(context.Background(), "k")
		if ok != s.ok || remaining != s.remaining {
			t.Errorf("call %d: (%v, %d), want (%v, %d)", i+1, ok, remaining, s.ok, s.remaining)
		}
		if want := at.Truncate(time.Minute).Add(time.Minute); !reset.Equal(want) {
			t.Errorf("call %d: reset %v, want %v", i+1, reset, want)
		}
	}
}

// A store that restarts empty within a window does not hand a key its whole limit
// again: the replica's view of the window is a floor.
func TestFleetLimitSurvivesStoreRestartedEmpty(t *testing.T) {
	at := time.Date(2026, 4, 20, 12, 0, 30, 0, time.UTC)
	l := newRateLimiter(1000, func() time.Time { return at })
	counts := make([]int, 0, 144)
	for i := 1; i <= 141; i++ {
		counts = append(counts, i)
	}
	counts = append(counts, 1, 2, 3) // the store restarted empty
	l.shared = &scriptedShared{counts: counts}
	var remaining int
	for range counts {
		_, remaining, _ = l.allowFleet(context.Background(), "k")
	}
	if remaining != 1000-144 {
		t.Fatalf("remaining %d after 144 calls in the window, want %d", remaining, 1000-144)
	}
}
