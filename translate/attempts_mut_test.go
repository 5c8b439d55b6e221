package translate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// attempts.go:164 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (`now.Sub(a.at) >=
// l.window` in makeRoom): on a full ledger, the records exactly a window old are
// expired and dropped (the live ones all kept), so no live record has to go.
func TestMakeRoomExpiredMut(t *testing.T) {
	now := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	l := newAttemptLedger(time.Minute)
	l.m["old1"] = &attempt{hash: "h", at: now.Add(-time.Minute)}
	l.m["old2"] = &attempt{hash: "h", at: now.Add(-time.Minute)}
	for i := len(l.m); i < maxAttempts; i++ {
		l.m[fmt.Sprint("k", i)] = &attempt{hash: "h", at: now.Add(-time.Second)}
	}
	if _, _, lead, err := l.join("new", "h", false, now); !lead || err != nil {
		t.Fatalf("join: lead %v, err %v", lead, err)
	}
	if len(l.m) != maxAttempts-1 {
		t.Fatalf("%d records after the join, want %d", len(l.m), maxAttempts-1)
	}
	for k := range l.m {
		if strings.HasPrefix(k, "old") {
			t.Fatalf("%s, a window old, is kept", k)
		}
	}
	if l.m["k2"] == nil || l.m["k9999"] == nil || l.m["new"] == nil {
		t.Fatal("a live record was dropped")
	}
}

// attempts.go:311 ARITHMETIC_BASE ×3 and INVERT_NEGATIVES (`(after + time.Second - 1)
// / time.Second`): the 503's "retry after N seconds" is after rounded up to whole
// seconds, at least 1, and its Retry-After is after itself.
func TestOutcomePendingSecondsMut(t *testing.T) {
	sent := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		after time.Duration
		secs  int
	}{{0, 1}, {time.Nanosecond, 1}, {time.Second, 1}, {time.Second + 1, 2}, {2 * time.Minute, 120}, {90*time.Second - 1, 90}} {
		err := errOutcomePending("deployment", sent, tt.after)
		if want := fmt.Sprintf("retry after %d seconds ", tt.secs); !strings.Contains(err.Error(), want) {
			t.Errorf("after %v: %q, want %q", tt.after, err.Error(), want)
		}
		var ge *ng.Error
		if !errors.As(err, &ge) || ge.Kind != ng.KindUnavailable || ge.RetryAfter != tt.after {
			t.Errorf("after %v: wrapped %+v", tt.after, ge)
		}
	}
}
