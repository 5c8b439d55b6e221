package translate

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
)

// Fleet mode's shared write records and deployment memory (state.Attempts and
// state.Deploys given the fleet's store): two replicas (two Translators) over one
// NerdGraph (depFake) and one store (memStore, an in-memory SharedAttempts and
// SharedDeployments; the real one is state/fleet.Store, tested against Redis in its own
// package).

type memStore struct {
	mu       sync.Mutex
	attempts map[string][]byte
	deploys  map[string][][]byte
	down     bool
	lockDown bool // LockApplication fails as a store that is down
	held     int  // fleet locks taken and not released
	saves    int
	deletes  int
}

func newMemStore() *memStore {
	return &memStore{attempts: map[string][]byte{}, deploys: map[string][][]byte{}}
}

var errStoreDown = errors.New("store down")

func (m *memStore) LoadAttempt(_ context.Context, id string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return nil, errStoreDown
	}
	return m.attempts[id], nil
}

func (m *memStore) SaveAttempt(_ context.Context, id string, rec []byte, _ time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return errStoreDown
	}
	m.saves++
	m.attempts[id] = rec
	return nil
}

func (m *memStore) DeleteAttempt(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.deletes++
	delete(m.attempts, id)
	return nil
}

func (m *memStore) LockApplication(ctx context.Context, _ string, _ time.Duration) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lockDown {
		return nil, errStoreDown
	}
	m.held++
	return func() { m.mu.Lock(); m.held--; m.mu.Unlock() }, nil
}

func (m *memStore) RememberDeployment(_ context.Context, id string, rec []byte, _ time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return errStoreDown
	}
	m.deploys[id] = append(m.deploys[id], rec)
	return nil
}

func (m *memStore) RecalledDeployments(_ context.Context, id string) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return nil, errStoreDown
	}
	return m.deploys[id], nil
}

// A deployment whose
// outcome was unknown on replica A is looked up, not sent again, when its retry reaches
// replica B; an Idempotency-Key's 201 replays through B; a store that is down leaves
// each replica its own records. A record is read only when this replica has none, and
// not when it does not decode or holds an Idempotency-Key answer of an unknown type;
// only settled records are stored, and dropped when the ledger drops them.
func TestFleetAttemptsAcrossReplicas(t *testing.T) {
	var sentMs float64
	inNRQL := false
	d := newDepFake(func(int, int64, int64) []map[string]any {
		if !inNRQL {
			return nil
		}
		r := depRow("ct-a", int64(sentMs))
		r["version"] = "r1"
		return []map[string]any{r}
	})
	create := d.answer
	timeouts := 1
	d.answer = func(op string, vars map[string]any) (any, error) {
		if op == "DeploymentCreateEvent" {
			sentMs = vars["event"].(map[string]any)["timestamp"].(float64)
			if timeouts > 0 {
				timeouts--
				d.created++
				return nil, &ng.Error{Kind: ng.KindTimeout}
			}
		}
		return create(op, vars)
	}
	store := newMemStore()
	now := depNow
	replica := func() *Translator {
		return New(d, Options{Now: func() time.Time { return now }, Attempts: store, Deployments: store})
	}
	a, b := replica(), replica()
	c := Caller{KeyHash: "k", AccountID: 1}
	in := restv2.DeploymentInput{Revision: "r1"}
	var ve *restv2.Error
	if _, err := a.CreateDeployment(context.Background(), c, 7, in, now, false); !errors.As(err, &ve) || ve.Status != 504 {
		t.Fatalf("A: %v", err)
	}
	if store.saves != 1 {
		t.Fatalf("%d records stored after the unknown outcome, want 1", store.saves)
	}
	now = depNow.Add(time.Minute)
	if _, err := b.CreateDeployment(context.Background(), c, 7, in, now, false); !errors.As(err, &ve) || ve.Status != 503 || d.created != 1 {
		t.Fatalf("B within the settle time: %v, %d sent; want 503, 1 sent", err, d.created)
	}
	inNRQL = true
	show, err := b.CreateDeployment(context.Background(), c, 7, in, now, false)
	if err != nil || show.Deployment.ID != SurrogateID("deployment", 1, "ct-a") || d.created != 1 {
		t.Fatalf("B once NRQL has it: %+v, %v, %d sent", show, err, d.created)
	}
	// Resolved: B's ledger dropped the record, so the fleet's is deleted too.
	if store.deletes != 1 || len(store.attempts) != 0 {
		t.Errorf("after the lookup: %d deletes, %d records; want 1, 0", store.deletes, len(store.attempts))
	}

	// An Idempotency-Key's answer replays through the other replica; another body under
	// it is refused there.
	key := restv2.DeploymentInput{Revision: "r2", IdempotencyKey: "idem-1"}
	first, err := a.CreateDeployment(context.Background(), c, 7, key, now, false)
	if err != nil {
		t.Fatal(err)
	}
	sent := d.created
	again, err := b.CreateDeployment(context.Background(), c, 7, key, now, false)
	if err != nil || again.Deployment.ID != first.Deployment.ID || d.created != sent {
		t.Fatalf("replay through B: %+v, %v, %d more sent", again, err, d.created-sent)
	}
	other := restv2.DeploymentInput{Revision: "r3", IdempotencyKey: "idem-1"}
	if _, err := replica().CreateDeployment(context.Background(), c, 7, other, now, false); !errors.As(err, &ve) || ve.Status != 422 {
		t.Errorf("key reused with another body on a third replica: %v, want 422", err)
	}

	// A successful write without a key is not shared (nothing to replay).
	saves := store.saves
	if _, err := a.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "r4"}, now, false); err != nil || store.saves != saves {
		t.Errorf("plain success stored: %v, %d saves", err, store.saves-saves)
	}

	// A record that does not decode, or an Idempotency-Key record of an unknown answer
	// type, is ignored: the replica writes.
	at := now.Format(time.RFC3339Nano)
	for _, rec := range []string{`not json`, `{"hash":"x","idem":true,"kind":"martian","recorded":{},"at":"` + at + `"}`} {
		store.attempts[state.RecordID(c.cacheKey("idempotency-key", "idem-2"))] = []byte(rec)
		sent := d.created
		if _, err := replica().CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "r5", IdempotencyKey: "idem-2"}, now, false); err != nil || d.created != sent+1 {
			t.Errorf("record %s: %v, %d sent", rec, err, d.created-sent)
		}
		delete(store.attempts, state.RecordID(c.cacheKey("idempotency-key", "idem-2")))
	}
}

// The store down: each replica keeps its own records (duplicate protection degrades to
// per replica, as state.SharedAttempts declares), and answers are still served.
func TestFleetAttemptsStoreDown(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	store := newMemStore()
	store.down = true
	now := depNow
	a := New(d, Options{Now: func() time.Time { return now }, Attempts: store, Deployments: store})
	b := New(d, Options{Now: func() time.Time { return now }, Attempts: store, Deployments: store})
	c := Caller{KeyHash: "k", AccountID: 1}
	key := restv2.DeploymentInput{Revision: "r", IdempotencyKey: "idem"}
	if _, err := a.CreateDeployment(context.Background(), c, 7, key, now, false); err != nil {
		t.Fatal(err)
	}
	if _, err := a.CreateDeployment(context.Background(), c, 7, key, now, false); err != nil || d.created != 1 {
		t.Fatalf("replay on A: %v, %d sent", err, d.created)
	}
	if _, err := b.CreateDeployment(context.Background(), c, 7, key, now, false); err != nil || d.created != 2 {
		t.Fatalf("B without the store: %v, %d sent; want 2 (its own record)", err, d.created)
	}
	l, err := b.ListDeployments(context.Background(), c, 7, 1)
	if err != nil || len(l.Doc.Deployments) != 1 {
		t.Errorf("B's list with the store down: %+v, %v (want its own deployment only)", l, err)
	}
}

// A deployment recorded through replica A is listed by replica B until NRQL
// has it, once (an unreadable record skipped), and no longer after DeploymentMemory.
func TestFleetDeploymentMemory(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	store := newMemStore()
	now := depNow
	a := New(d, Options{Now: func() time.Time { return now }, Attempts: store, Deployments: store})
	b := New(d, Options{Now: func() time.Time { return now }, Attempts: store, Deployments: store})
	c := Caller{KeyHash: "k", AccountID: 1}
	show, err := a.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "via A"}, now, false)
	if err != nil {
		t.Fatal(err)
	}
	key := state.RecordID(recentKey(c, 7))
	store.deploys[key] = append(store.deploys[key], []byte("not json"))
	for _, tr := range []*Translator{a, b} {
		l, err := tr.ListDeployments(context.Background(), c, 7, 1)
		if err != nil || len(l.Doc.Deployments) != 1 || l.Doc.Deployments[0].ID != show.Deployment.ID {
			t.Fatalf("list: %+v, %v; want the one deployment once", l, err)
		}
	}
	now = depNow.Add(DeploymentMemory - time.Second)
	if l, err := b.ListDeployments(context.Background(), c, 7, 1); err != nil || len(l.Doc.Deployments) != 1 {
		t.Errorf("B just within DeploymentMemory: %+v, %v", l, err)
	}
	now = depNow.Add(DeploymentMemory)
	if l, err := b.ListDeployments(context.Background(), c, 7, 1); err != nil || len(l.Doc.Deployments) != 0 {
		t.Errorf("B after DeploymentMemory: %+v, %v", l, err)
	}
}

// A DELETE of an
// application whose outcome was unknown on replica A, retried through replica B after
// the application is gone, is answered with the application A would have answered
// (the memo travels in the fleet's record), not 404; nothing is sent again.
func TestFleetDeleteMemo(t *testing.T) {
	a := newAppFake()
	a.del = func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindTimeout} }
	store := newMemStore()
	c := Caller{KeyHash: "k", AccountID: 1}
	var ve *restv2.Error
	if _, err := New(a, Options{Attempts: store}).DeleteApplication(context.Background(), c, 7); !errors.As(err, &ve) || ve.Status != 504 {
		t.Fatalf("A: %v", err)
	}
	a.missing = true
	show, err := New(a, Options{Attempts: store}).DeleteApplication(context.Background(), c, 7)
	if err != nil || show.Application.ID != 7 || show.Application.Name != "shop" || a.count("AppDelete") != 1 {
		t.Fatalf("B after the application is gone: %+v, %v, %d deletes", show, err, a.count("AppDelete"))
	}
}

// The fleet's lock is taken and released around a checked write; a store that is down
// leaves the replica's lock only (the write goes on). (A caller whose context ended
// gets its error: state's TestDeployLockShared.)
func TestFleetDeployLock(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	store := newMemStore()
	now := depNow
	tr := New(d, Options{Now: func() time.Time { return now }, Deployments: store})
	c := Caller{KeyHash: "k", AccountID: 1}
	ts := depNow.Add(-time.Hour)
	if _, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "a", Timestamp: &ts}, now, false); err != nil {
		t.Fatal(err)
	}
	if store.held != 0 {
		t.Fatalf("%d fleet locks held after the write, want 0", store.held)
	}
	store.lockDown = true
	ts2 := ts.Add(time.Minute)
	if _, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "b", Timestamp: &ts2}, now, false); err != nil || d.created != 2 {
		t.Fatalf("store down: %v, %d sent", err, d.created)
	}
}
