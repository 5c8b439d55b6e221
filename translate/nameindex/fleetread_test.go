package nameindex

import (
	"context"
	"errors"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// heldLock is a fleet's store whose index lock another replica holds and never
// releases (it stopped mid-read), or, with free, one nobody holds; stored, when set,
// is the index in the store.
type heldLock struct {
	stored *index
	free   bool
}

func (h heldLock) GetChunks(context.Context, string, string, string) ([]byte, [][]byte, time.Duration, error) {
	if h.stored == nil {
		return nil, nil, 0, nil
	}
	meta, chunks := encode(h.stored)
	return meta, chunks, time.Hour, nil
}
func (heldLock) SetChunks(context.Context, string, string, []byte, [][]byte, time.Duration) error {
	return nil
}
func (h heldLock) TryLock(context.Context, string, string, time.Duration) (func(), bool, error) {
	if h.free {
		return func() {}, true, nil
	}
	return nil, false, nil
}

// readAttempted is NerdGraph refusing every read: a read made shows as its error.
type readAttempted struct{}

var errReadAttempted = errors.New("read attempted")

func (readAttempted) MakeRequest(context.Context, *gql.Request, *gql.Response) error {
	return errReadAttempted
}

// A cold caller waits for another replica's read only so long: while the lock's holder
// never stores the index, the caller reads it itself once the wait is over, and a
// caller whose own deadline comes first ends with it, having read nothing.
func TestColdWaitForAnotherReplicaIsBounded(t *testing.T) {
	query := func(int64, string, []string) (string, error) { return "q", nil }
	x := New(Options{Shared: heldLock{}, Client: readAttempted{}, Query: query})
	x.coldWait, x.coldPoll = 30*time.Millisecond, time.Millisecond
	c := Caller{Key: "k", KeyHash: "h", AccountID: 1}
	if _, err := x.readCold(context.Background(), c, 0); !errors.Is(err, errReadAttempted) {
		t.Fatalf("after the wait: %v, want the caller's own read", err)
	}
	x.coldWait = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := x.readCold(ctx, c, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("caller's deadline first: %v, want its end without a read", err)
	}
	// The request's deadline as the gateway sets it: on its calls, not its context.
	calls := new(ng.Calls)
	calls.SetDeadline(time.Now().Add(30 * time.Millisecond))
	if _, err := x.readCold(ng.WithCalls(context.Background(), calls), c, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("request's deadline first: %v, want its end without a read", err)
	}
}

// A waiter takes the index another replica stored only when it holds the writes the
// waiter knows of (its write count at least the waiter's): one read before a write
// the waiter has heard of is not served in its place.
func TestColdWaitTakesOnlyAnIndexNotBehindAWrite(t *testing.T) {
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	query := func(int64, string, []string) (string, error) { return "q", nil }
	stored := &index{entries: []Entry{{ID: 7, Name: "seven", Language: "go"}}, readAt: clock, gen: 4}
	x := New(Options{Shared: heldLock{stored: stored}, Client: readAttempted{}, Query: query,
		Now: func() time.Time { return clock }})
	x.coldWait, x.coldPoll = 30*time.Millisecond, time.Millisecond
	c := Caller{Key: "k", KeyHash: "h", AccountID: 1}
	for _, tt := range []struct {
		gen  uint64
		took bool
	}{{3, true}, {4, true}, {5, false}} {
		ix, err := x.readCold(context.Background(), c, tt.gen)
		if took := err == nil && ix != nil && len(ix.entries) == 1 && ix.gen == 4; took != tt.took {
			t.Errorf("waiter at write count %d: took the stored index %v (%v), want %v", tt.gen, took, err, tt.took)
		}
		if !tt.took && !errors.Is(err, errReadAttempted) {
			t.Errorf("waiter at write count %d: %v, want its own read", tt.gen, err)
		}
	}
}

// A caller that takes the lock just as its reader has stored the index and let the
// lock go serves that index instead of reading the account again.
func TestColdReadTakesAnIndexStoredAsTheLockFreed(t *testing.T) {
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	query := func(int64, string, []string) (string, error) { return "q", nil }
	stored := &index{entries: []Entry{{ID: 7, Name: "seven", Language: "go"}}, readAt: clock, gen: 2}
	x := New(Options{Shared: heldLock{stored: stored, free: true}, Client: readAttempted{}, Query: query,
		Now: func() time.Time { return clock }})
	ix, err := x.readCold(context.Background(), Caller{Key: "k", KeyHash: "h", AccountID: 1}, 2)
	if err != nil || ix == nil || len(ix.entries) != 1 {
		t.Fatalf("%v, %v; want the stored index and no read", ix, err)
	}
	if _, err := x.readCold(context.Background(), Caller{Key: "k", KeyHash: "h", AccountID: 1}, 3); !errors.Is(err, errReadAttempted) {
		t.Fatalf("behind a write: %v, want a read", err)
	}
}
