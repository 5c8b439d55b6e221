package translate

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Mutant attempts.go:247 CONDITIONALS_NEGATION (`fl.err != nil` in once): a request
// that waited for an identical one in flight takes that one's refusal (422), is not
// answered with nothing, and nothing is sent twice. The test knows the second request
// waits by reading the goroutines' stacks (a goroutine in `select` inside once), not
// by sleeping.
func TestIdenticalWriteWaitsForRefusalMut(t *testing.T) {
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
	in := DeploymentInput{Revision: "r1"}
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
		var ve *v2.Error
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
		if bytes.Contains(g, []byte("[select")) && bytes.Contains(g, []byte("(*attemptLedger).once")) {
			return true
		}
	}
	return false
}
