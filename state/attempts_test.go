package state

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The attempt ledger's rules, step by step on one key: what a call runs, what it is
// answered and what it learns of the previous attempt.
func TestAttemptLedger(t *testing.T) {
	t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	unknownErr := errors.New("unknown")
	known := errors.New("no")
	type step struct {
		name    string
		at      time.Duration // after t0
		hash    string
		idem    bool
		result  string // what the write returns: "ok", "unknown", "fail"
		ran     bool   // the write ran
		prevMs  int64  // the previous unknown attempt the write was told of
		want    string // the answer: "ok:<n>" (n: the run that produced it), "unknown", "fail", "reused"
		sentMs  int64
		comment string
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"content key: a success is not kept", []step{
			{name: "first", hash: "a", result: "ok", ran: true, want: "ok:1"},
			{name: "deliberate duplicate", hash: "a", result: "ok", ran: true, want: "ok:2"},
		}},
		{"content key: unknown, then resolved", []step{
			{name: "first", hash: "a", result: "unknown", sentMs: 7, ran: true, want: "unknown"},
			{name: "retry is told of it", at: time.Minute, hash: "a", result: "ok", ran: true, prevMs: 7, want: "ok:2"},
			{name: "settled", at: 2 * time.Minute, hash: "a", result: "ok", ran: true, want: "ok:3"},
		}},
		{"content key: unknown record expires with the window", []step{
			{name: "first", hash: "a", result: "unknown", sentMs: 7, ran: true, want: "unknown"},
			{name: "after the window", at: 10 * time.Minute, hash: "a", result: "ok", ran: true, want: "ok:2"},
		}},
		{"known failure is not kept", []step{
			{name: "first", hash: "a", result: "fail", ran: true, want: "fail"},
			{name: "again", hash: "a", result: "ok", ran: true, want: "ok:2"},
		}},
		{"idempotency key: replayed, refused with other content, expires", []step{
			{name: "first", hash: "a", idem: true, result: "ok", ran: true, want: "ok:1"},
			{name: "repeat", at: 9 * time.Minute, hash: "a", idem: true, want: "ok:1"},
			{name: "other body", at: 9 * time.Minute, hash: "b", idem: true, want: "reused"},
			{name: "after the window", at: 19 * time.Minute, hash: "b", idem: true, result: "ok", ran: true, want: "ok:2"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewAttempts(0)
			runs := 0
			for _, s := range tt.steps {
				now := func() time.Time { return t0.Add(s.at) }
				ran, prevMs := false, int64(-1)
				v, err := l.Once(context.Background(), "k", s.hash, s.idem, now, func(_ context.Context, p Previous) (any, error, bool, int64) {
					runs++
					ran, prevMs = true, p.Ms
					switch s.result {
					case "unknown":
						return nil, unknownErr, true, s.sentMs
					case "fail":
						return nil, known, false, 0
					}
					return runs, nil, false, 1
				})
				var got string
				switch {
				case err == nil:
					got = "ok:" + strconv.Itoa(v.(int))
				case errors.Is(err, unknownErr):
					got = "unknown"
				case errors.Is(err, known):
					got = "fail"
				case errors.Is(err, ErrKeyReused):
					got = "reused"
				default:
					got = err.Error()
				}
				if got != s.want || ran != s.ran || (ran && prevMs != s.prevMs) {
					t.Fatalf("%s: answered %s, ran %v (told of %d); want %s, ran %v (told of %d)", s.name, got, ran, prevMs, s.want, s.ran, s.prevMs)
				}
			}
		})
	}
}

// A caller waiting for an identical write in flight is answered ErrStillRecording
// when its own deadline comes first, and nothing is sent for it (the translator
// answers it 503 with Retry-After).
func TestAttemptLedgerWaiterDeadline(t *testing.T) {
	l := NewAttempts(0)
	now := time.Now
	release := make(chan struct{})
	started := make(chan struct{})
	go func() {
		_, _ = l.Once(context.Background(), "k", "a", false, now, func(context.Context, Previous) (any, error, bool, int64) {
			close(started)
			<-release
			return 1, nil, false, 1
		})
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := l.Once(ctx, "k", "a", false, now, func(context.Context, Previous) (any, error, bool, int64) {
		t.Error("a waiter sent the write")
		return nil, nil, false, 0
	})
	close(release)
	if !errors.Is(err, ErrStillRecording) {
		t.Fatalf("err %v", err)
	}
}

// The ledger never holds more than maxAttempts records.
func TestAttemptLedgerBounded(t *testing.T) {
	l := NewAttempts(0)
	now := func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }
	for i := range maxAttempts + 50 {
		_, _ = l.Once(context.Background(), "k"+strconv.Itoa(i), "a", true, now, func(context.Context, Previous) (any, error, bool, int64) {
			return i, nil, false, 1
		})
	}
	if n := len(l.m); n > maxAttempts {
		t.Fatalf("%d records", n)
	}
}

// On a full ledger, the records exactly a window old are expired and dropped (the live
// ones all kept), so no live record has to go.
func TestMakeRoomExpired(t *testing.T) {
	now := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	l := NewAttempts(time.Minute)
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
