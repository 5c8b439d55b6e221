package nameindex

import (
	"context"
	"errors"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
)

// heldLock is a fleet's store whose index lock another replica holds and never
// releases (it stopped mid-read), with no index stored.
type heldLock struct{}

func (heldLock) GetChunks(context.Context, string, string, string) ([]byte, [][]byte, time.Duration, error) {
	return nil, nil, 0, nil
}
func (heldLock) SetChunks(context.Context, string, string, []byte, [][]byte, time.Duration) error {
	return nil
}
func (heldLock) TryLock(context.Context, string, string, time.Duration) (func(), bool, error) {
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
}
