package translate

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// keysDouble stands for the edge's key acceptance (gateway/keyauth.go): it hears every
// verdict, and a key is fresh until refused.
type keysDouble struct {
	mu       sync.Mutex
	refused  map[string]bool
	verdicts []string
}

// useKeysDouble hands tr a keysDouble.
func useKeysDouble(tr *Translator) *keysDouble {
	k := &keysDouble{refused: map[string]bool{}}
	tr.UseKeys(k)
	return k
}

func (k *keysDouble) Fresh(keyHash string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return !k.refused[keyHash]
}

func (k *keysDouble) FleetAccepted(string, time.Duration) {}

func (k *keysDouble) Verdict(keyHash string, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v := keyHash + ": answered"
	if err != nil {
		v = keyHash + ": " + err.Error()
	}
	k.verdicts = append(k.verdicts, v)
}

func (k *keysDouble) refuse(keyHash string) {
	k.mu.Lock()
	k.refused[keyHash] = true
	k.mu.Unlock()
}

// Every call made for a caller's key tells the edge its outcome, the error as the
// client returned it; a call made for no key, or before the edge is known, tells
// nothing.
func TestCallsTellTheEdgeTheirOutcome(t *testing.T) {
	var next error
	f := &opFake{answer: func(string, map[string]any) (any, error) { return nrqlAnswer(nil), next }}
	tr := New(f, Options{})
	ctx := WithKeyHash(context.Background(), "kh")
	if _, err := ng.NrqlQuery(ctx, tr.client, 1, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	k := useKeysDouble(tr)
	_, _ = ng.NrqlQuery(ctx, tr.client, 1, "SELECT 1")
	next = &ng.Error{Kind: ng.KindAuth, Status: 401}
	if _, err := ng.NrqlQuery(ctx, tr.client, 1, "SELECT 1"); !errors.As(err, new(*ng.Error)) {
		t.Fatalf("error not passed on: %v", err)
	}
	_, _ = ng.NrqlQuery(context.Background(), tr.client, 1, "SELECT 1")
	if len(k.verdicts) != 2 || k.verdicts[0] != "kh: answered" || k.verdicts[1] != "kh: "+next.Error() {
		t.Errorf("verdicts %q", k.verdicts)
	}
}
