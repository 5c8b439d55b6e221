package state

import (
	"context"
	"errors"
	"testing"
	"time"
)

// memory is the ledgers' memory period in these tests.
const memory = 10 * time.Minute

// deployment stands for the translator's deployment: an id, an application, a time.
type deployment struct {
	ID            int64
	ApplicationID int64
	Timestamp     time.Time
}

// The deployments a replica remembers per caller and application are bounded: the
// oldest go first, the latest is always kept, a list while a dropped one is younger
// than the memory period is declared, and a reader's snapshot never changes under a
// later write.
func TestDeployLedgerBound(t *testing.T) {
	l := NewDeploys(memory, func(d deployment) int64 { return d.ID })
	c := "k|1|deployments|7"
	other := "k2|1|deployments|7"
	t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	const extra = 5
	for i := range RememberedDeployments + extra {
		l.Remember(c, deployment{ID: int64(i + 1), ApplicationID: 7, Timestamp: t0}, t0)
	}
	l.Remember(other, deployment{ID: 99, ApplicationID: 7, Timestamp: t0}, t0)

	tests := []struct {
		name      string
		caller    string
		now       time.Time
		wantN     int
		wantFirst int64
		wantCut   bool
	}{
		{"at once: the newest 1000, the bound declared", c, t0, RememberedDeployments, extra + 1, true},
		{"just before the memory period ends: the same", c, t0.Add(memory - time.Millisecond), RememberedDeployments, extra + 1, true},
		{"after the memory period: nothing, nothing to declare", c, t0.Add(memory), 0, 0, false},
		{"another caller: its own list", other, t0, 1, 99, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := l.Recalled(tt.caller, tt.now)
			if len(got) != tt.wantN || cut != tt.wantCut {
				t.Fatalf("recalled %d (cut %v), want %d (cut %v)", len(got), cut, tt.wantN, tt.wantCut)
			}
			if tt.wantN > 0 && (got[0].ID != tt.wantFirst || got[len(got)-1].ID != tt.wantFirst+int64(tt.wantN)-1) {
				t.Fatalf("recalled ids %d..%d, want %d..%d", got[0].ID, got[len(got)-1].ID, tt.wantFirst, tt.wantFirst+int64(tt.wantN)-1)
			}
		})
	}

	// Expired ones are pruned by the next write, which is then alone and not declared.
	later := t0.Add(memory + time.Minute)
	l.Remember(c, deployment{ID: 5000, ApplicationID: 7, Timestamp: later}, later)
	got, cut := l.Recalled(c, later)
	if len(got) != 1 || got[0].ID != 5000 || cut {
		t.Fatalf("after expiry: %d deployments (cut %v), want only 5000", len(got), cut)
	}
	rd, _ := l.recentOf(c)
	if len(rd.list) != 1 {
		t.Fatalf("ledger keeps %d entries after expiry, want 1", len(rd.list))
	}
}

// A reader iterating what recalled returned while writes go on (run with -race: the
// writer only appends past the reader's view or moves the front).
func TestDeployLedgerConcurrentReaders(t *testing.T) {
	l := NewDeploys(memory, func(d deployment) int64 { return d.ID })
	c := "k|1|deployments|7"
	t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 3 * RememberedDeployments {
			l.Remember(c, deployment{ID: int64(i + 1), ApplicationID: 7, Timestamp: t0}, t0)
		}
	}()
	for range 200 {
		got, _ := l.Recalled(c, t0)
		for i := 1; i < len(got); i++ {
			if got[i].ID != got[i-1].ID+1 {
				t.Fatalf("snapshot not consecutive at %d: %d after %d", i, got[i].ID, got[i-1].ID)
			}
		}
	}
	<-done
	if got, _ := l.Recalled(c, t0); len(got) != RememberedDeployments || got[len(got)-1].ID != 3*RememberedDeployments {
		t.Fatalf("final: %d deployments ending at %d", len(got), got[len(got)-1].ID)
	}
}

// lockStore is a fleet's store whose lock answers as a store that is up.
type lockStore struct{ SharedDeployments }

func (lockStore) LockApplication(ctx context.Context, _ string, _ time.Duration) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return func() {}, nil
}

// The fleet's lock of an application: a caller whose context ended gets its error; a
// replica that dies holding the lock frees it after 30 s (longer than a check and a
// write).
func TestDeployLockShared(t *testing.T) {
	l := NewDeploys(memory, func(d deployment) int64 { return d.ID })
	l.Share(lockStore{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.lockShared(ctx, 1, 7); !errors.Is(err, context.Canceled) {
		t.Errorf("ended context: %v, want context.Canceled", err)
	}
	if got := deployLockTTL; got != 30*time.Second {
		t.Errorf("fleet lock TTL %v, want 30s (longer than a check and a write)", got)
	}
}

// The deployment ledger sweeps expired deployments every two memory periods. go-cache
// exposes no accessor for its cleanup interval; the test reads the janitor's interval by
// reflection (github.com/patrickmn/go-cache: Cache embeds *cache, whose janitor holds
// Interval).
func TestDeployLedgerJanitor(t *testing.T) {
	if got := janitorInterval(t, NewDeploys(memory, func(d deployment) int64 { return d.ID }).recent); got != 2*memory {
		t.Fatalf("janitor interval %v, want %v", got, 2*memory)
	}
}

// The per-application lock is dropped when its last holder or waiter leaves, so the map
// does not grow with every application written to; while one holds it, a waiter whose
// context ends is refused and the lock stays.
func TestDeployLockRefs(t *testing.T) {
	l := NewDeploys(memory, func(d deployment) int64 { return d.ID })
	ctx := context.Background()
	for app := int64(1); app <= 3; app++ {
		unlock, err := l.Lock(ctx, 1, app)
		if err != nil {
			t.Fatal(err)
		}
		unlock()
	}
	if n := len(l.locks); n != 0 {
		t.Fatalf("%d locks kept after every unlock, want 0", n)
	}
	unlock, err := l.Lock(ctx, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := l.Lock(done, 1, 7); !errors.Is(err, context.Canceled) {
		t.Fatalf("second holder while held: %v, want context.Canceled", err)
	}
	if n := len(l.locks); n != 1 {
		t.Fatalf("%d locks while one is held, want 1", n)
	}
	unlock()
	if n := len(l.locks); n != 0 {
		t.Fatalf("%d locks kept, want 0", n)
	}
}
