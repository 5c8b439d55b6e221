package state

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"
)

// outageStore is a SharedAttempts that can be down.
type outageStore struct {
	mu   sync.Mutex
	down bool
	recs map[string][]byte
}

var errStoreDown = errors.New("store down")

func (s *outageStore) LoadAttempt(_ context.Context, id string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return nil, errStoreDown
	}
	return s.recs[id], nil
}

func (s *outageStore) SaveAttempt(_ context.Context, id string, rec []byte, _ time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return errStoreDown
	}
	s.recs[id] = rec
	return nil
}

func (s *outageStore) DeleteAttempt(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return errStoreDown
	}
	delete(s.recs, id)
	return nil
}

func (s *outageStore) setDown(down bool) { s.mu.Lock(); s.down = down; s.mu.Unlock() }

// stringAnswers carries string answers through the store.
type stringAnswers struct{}

func (stringAnswers) Kind(v any) string {
	if _, ok := v.(string); ok {
		return "string"
	}
	return ""
}

func (stringAnswers) Decode(kind string, b []byte) any {
	var s string
	if kind != "string" || json.Unmarshal(b, &s) != nil {
		return nil
	}
	return s
}

// One Idempotency-Key used through two replicas while the store is down makes two
// writes (each replica on its own, as declared); once the store is back, both replicas
// replay one answer — the first one stored — not each its own.
func TestIdempotencyRecordsReconciledAfterOutage(t *testing.T) {
	store := &outageStore{recs: map[string][]byte{}}
	a, b := NewAttempts(0), NewAttempts(0)
	a.Share(store, stringAnswers{})
	b.Share(store, stringAnswers{})
	now := func() time.Time { return time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC) }
	once := func(l *Attempts, made string) string {
		t.Helper()
		v, err := l.Once(context.Background(), "caller|idem|k1", "body", true, now,
			func(context.Context, Previous) (any, error, bool, int64) { return made, nil, false, 0 })
		if err != nil {
			t.Fatal(err)
		}
		return v.(string)
	}
	store.setDown(true)
	if got := once(a, "deployment-A"); got != "deployment-A" {
		t.Fatalf("A during the outage: %s", got)
	}
	if got := once(b, "deployment-B"); got != "deployment-B" {
		t.Fatalf("B during the outage: %s", got)
	}
	store.setDown(false)
	first := once(a, "never written")
	second := once(b, "never written")
	if first != second {
		t.Fatalf("after the outage A replays %s and B %s: want one answer", first, second)
	}
	if again := once(b, "never written"); again != first {
		t.Fatalf("B then replays %s, want %s", again, first)
	}
}
