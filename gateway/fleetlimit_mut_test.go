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

func (s *scriptedShared) Allow(_ context.Context, _ string, limit int, _ time.Time, _ time.Duration) (bool, int, error) {
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
		{true, 5},  // store: 5 (lower; the mirror keeps 7)
		{true, 2},  // store down: the replica's count goes on from 7 to 8
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
