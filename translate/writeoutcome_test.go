package translate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
)

// The translator's side of write attempts: the ledger's refusals as v2 answers, and
// the 503 of a retry whose first attempt is not found yet.

// A caller waiting for an identical write in flight is answered 503 with Retry-After
// when its own deadline comes first, and nothing is sent for it.
func TestOnceWaiterDeadline(t *testing.T) {
	tr := New(nil, Options{})
	release := make(chan struct{})
	started := make(chan struct{})
	go func() {
		_, _ = tr.once(context.Background(), "k", "a", false, func(context.Context, state.Previous) (any, error, bool, int64) {
			close(started)
			<-release
			return 1, nil, false, 1
		})
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := tr.once(ctx, "k", "a", false, func(context.Context, state.Previous) (any, error, bool, int64) {
		t.Error("a waiter sent the write")
		return nil, nil, false, 0
	})
	close(release)
	var ve *restv2.Error
	var ge *ng.Error
	if !errors.As(err, &ve) || ve.Status != 503 || !errors.As(err, &ge) || ge.RetryAfter != time.Second {
		t.Fatalf("err %v", err)
	}
}

// The 503's "retry after N seconds" is after rounded up to whole seconds, at least 1,
// and its Retry-After is after itself.
func TestOutcomePendingSeconds(t *testing.T) {
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

// A request that waited for an identical one in flight takes that one's refusal (422), is not
// answered with nothing, and nothing is sent twice. The test knows the second request
// waits by reading the goroutines' stacks (a goroutine in `select` inside once), not
// by sleeping.
func TestIdenticalWriteWaitsForRefusal(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	entered, release := make(chan struct{}), make(chan struct{})
	create := d.answer
	d.answer = func(op string, vars map[string]any) (any, error) {
		if op == "DeploymentCreateEvent" {
			d.created++
			close(entered)
			<-release
			return nil, &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "version rejected"}}}
		}
		return create(op, vars)
	}
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	in := restv2.DeploymentInput{Revision: "r1"}
	errs := make(chan error, 2)
	go func() {
		_, err := tr.CreateDeployment(context.Background(), c, 7, in, now, false)
		errs <- err
	}()
	<-entered
	go func() {
		defer func() {
			if r := recover(); r != nil {
				errs <- errors.New("the waiting request panicked")
			}
		}()
		_, err := tr.CreateDeployment(context.Background(), c, 7, in, now, false)
		errs <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); !waitingInOnce(); {
		if time.Now().After(deadline) {
			t.Fatal("the second request never waited for the first")
		}
		runtime.Gosched()
	}
	close(release)
	for i := 0; i < 2; i++ {
		var ve *restv2.Error
		if err := <-errs; !errors.As(err, &ve) || ve.Status != 422 {
			t.Errorf("request %d: %v, want the 422", i+1, err)
		}
	}
	if d.created != 1 {
		t.Errorf("%d sent, want 1", d.created)
	}
}

// waitingInOnce reports whether a goroutine is blocked in a select of the attempt
// ledger's once (a request waiting for an identical one in flight).
func waitingInOnce() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("[select")) && bytes.Contains(g, []byte("state.(*Attempts).Once")) {
			return true
		}
	}
	return false
}
