package translate

import (
	"context"
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// The deployments a replica remembers per caller and application are bounded: the
// oldest go first, the latest is always kept, a list while a dropped one is younger
// than DeploymentMemory is declared, and a reader's snapshot never changes under a
// later write. Without the bound the list grew by every write and each write copied it
// (BenchmarkGatewayDeploymentCreate: 2.2 MB and 240 allocations a write after 10,000).
func TestDeployLedgerBound(t *testing.T) {
	l := newDeployLedger()
	c := Caller{KeyHash: HashKey("k"), AccountID: 1}
	other := Caller{KeyHash: HashKey("k2"), AccountID: 1}
	t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	const extra = 5
	for i := range RememberedDeployments + extra {
		l.remember(c, v2.Deployment{ID: int64(i + 1), ApplicationID: 7, Timestamp: t0}, t0)
	}
	l.remember(other, v2.Deployment{ID: 99, ApplicationID: 7, Timestamp: t0}, t0)

	tests := []struct {
		name      string
		caller    Caller
		now       time.Time
		wantN     int
		wantFirst int64
		wantCut   bool
	}{
		{"at once: the newest 1000, the bound declared", c, t0, RememberedDeployments, extra + 1, true},
		{"just before DeploymentMemory: the same", c, t0.Add(DeploymentMemory - time.Millisecond), RememberedDeployments, extra + 1, true},
		{"after DeploymentMemory: nothing, nothing to declare", c, t0.Add(DeploymentMemory), 0, 0, false},
		{"another caller: its own list", other, t0, 1, 99, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := l.recalled(tt.caller, 7, tt.now)
			if len(got) != tt.wantN || cut != tt.wantCut {
				t.Fatalf("recalled %d (cut %v), want %d (cut %v)", len(got), cut, tt.wantN, tt.wantCut)
			}
			if tt.wantN > 0 && (got[0].ID != tt.wantFirst || got[len(got)-1].ID != tt.wantFirst+int64(tt.wantN)-1) {
				t.Fatalf("recalled ids %d..%d, want %d..%d", got[0].ID, got[len(got)-1].ID, tt.wantFirst, tt.wantFirst+int64(tt.wantN)-1)
			}
		})
	}

	// Expired ones are pruned by the next write, which is then alone and not declared.
	later := t0.Add(DeploymentMemory + time.Minute)
	l.remember(c, v2.Deployment{ID: 5000, ApplicationID: 7, Timestamp: later}, later)
	got, cut := l.recalled(c, 7, later)
	if len(got) != 1 || got[0].ID != 5000 || cut {
		t.Fatalf("after expiry: %d deployments (cut %v), want only 5000", len(got), cut)
	}
	rd, _ := l.recentOf(recentKey(c, 7))
	if len(rd.list) != 1 {
		t.Fatalf("ledger keeps %d entries after expiry, want 1", len(rd.list))
	}
}

// A reader iterating what recalled returned while writes go on (run with -race: the
// writer only appends past the reader's view or moves the front).
func TestDeployLedgerConcurrentReaders(t *testing.T) {
	l := newDeployLedger()
	c := Caller{KeyHash: HashKey("k"), AccountID: 1}
	t0 := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 3 * RememberedDeployments {
			l.remember(c, v2.Deployment{ID: int64(i + 1), ApplicationID: 7, Timestamp: t0}, t0)
		}
	}()
	for range 200 {
		got, _ := l.recalled(c, 7, t0)
		for i := 1; i < len(got); i++ {
			if got[i].ID != got[i-1].ID+1 {
				t.Fatalf("snapshot not consecutive at %d: %d after %d", i, got[i].ID, got[i-1].ID)
			}
		}
	}
	<-done
	if got, _ := l.recalled(c, 7, t0); len(got) != RememberedDeployments || got[len(got)-1].ID != 3*RememberedDeployments {
		t.Fatalf("final: %d deployments ending at %d", len(got), got[len(got)-1].ID)
	}
}

// A list read while the bound has dropped a deployment younger than DeploymentMemory
// declares it (X-V2bridge-Degraded), and stops declaring once that one is older.
func TestDeploymentListDeclaresDroppedRecent(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	for i := range RememberedDeployments + 1 {
		now = depNow.Add(time.Duration(i) * time.Millisecond)
		if _, err := tr.CreateDeployment(context.Background(), c, 7, DeploymentInput{Revision: "r"}, now, false); err != nil {
			t.Fatal(err)
		}
	}
	list := func(at time.Time) (int, string) {
		now = at
		var notes Notes
		l, err := tr.ListDeployments(WithNotes(context.Background(), &notes), c, 7, 1)
		if err != nil {
			t.Fatal(err)
		}
		return len(l.Doc.Deployments), notes.String()
	}
	if n, notes := list(now); n != PageSize || notes != string(CapRecentDeployments) {
		t.Fatalf("page of %d, notes %q; want %d and %q", n, notes, PageSize, CapRecentDeployments)
	}
	// The dropped one (recorded at depNow) is DeploymentMemory old: nothing to declare.
	if _, notes := list(depNow.Add(DeploymentMemory)); notes != "" {
		t.Fatalf("notes %q after the dropped one aged out", notes)
	}
}
