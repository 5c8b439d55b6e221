package graphql

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
)

// request is a v2 request's context as the gateway makes it: Calls whose end is
// cancel's.
func request(t *testing.T) (context.Context, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return WithCalls(ctx, new(Calls)), cancel
}

// waits reports whether entering g for tenant with an answer of size bytes waits
// (its context, given 30 ms, ends first); when it does not, the admission is released.
// Either outcome is the gate's: the time only bounds how long a wait is watched.
func waits(t *testing.T, g *answerGate, ctx context.Context, tenant [32]byte, size int) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	release, err := g.enter(ctx, tenant, size)
	if err == nil {
		release()
		return false
	}
	var ge *Error
	if !errors.As(err, &ge) || ge.Kind != KindOverloaded || ge.RetryAfter <= 0 || !errors.Is(err, ErrAnswerWait) {
		t.Fatalf("err = %v, want the gate's overload with a Retry-After", err)
	}
	return true
}

// TestAnswerGate: a request's large answer holds its bytes until the request ends;
// meanwhile another large answer of the same key waits (a key holds at most half the
// budget), another key's does not, nor does an answer below LargeAnswer or a second
// answer of the admitted request; when the request ends the key's next answer enters
// and the gate forgets the idle key.
func TestAnswerGate(t *testing.T) {
	g := newAnswerGate(2*LargeAnswer, nil) // per key: LargeAnswer
	a, b := [32]byte{'a'}, [32]byte{'b'}
	first, end := request(t)
	release, err := g.enter(first, a, LargeAnswer)
	if err != nil {
		t.Fatal(err)
	}
	release() // held by the request, not by the call
	other, _ := request(t)
	if !waits(t, g, other, a, LargeAnswer) {
		t.Fatal("a second large answer of the key entered while the first request held its half")
	}
	if waits(t, g, other, a, LargeAnswer-1) {
		t.Fatal("an answer below LargeAnswer waited")
	}
	if waits(t, g, first, a, 4*LargeAnswer) {
		t.Fatal("the admitted request waited for its own admission")
	}
	third, _ := request(t)
	if waits(t, g, third, b, 8*LargeAnswer) {
		t.Fatal("another key's large answer waited although half the budget was free")
	}
	end()
	release, err = g.enter(other, a, LargeAnswer) // waits for first's end, not for a timer
	if err != nil {
		t.Fatal(err)
	}
	release()
	// other's admission is held until other ends; third's until third ends.
	if n := g.keys.len(); n == 0 {
		t.Fatal("the gate forgot keys whose requests still hold it")
	}
}

// TestAnswerGateForgetsIdleKeys: once every request of a key has ended, the gate holds
// nothing for it (its map is bounded by the keys in flight).
func TestAnswerGateForgetsIdleKeys(t *testing.T) {
	g := newAnswerGate(2*LargeAnswer, nil)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel() // the request ends: its admission is released
			ctx = WithCalls(ctx, new(Calls))
			release, err := g.enter(ctx, [32]byte{byte(i % 3)}, LargeAnswer)
			if err != nil {
				t.Error(err)
				return
			}
			release()
		}()
	}
	wg.Wait()
	// The releases run after each context's end, on their own goroutines.
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := g.keys.len()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d keys still held after every request ended", n)
		}
		time.Sleep(time.Millisecond)
	}
	if !g.global.TryAcquire(2 * LargeAnswer) {
		t.Fatal("the budget was not given back whole")
	}
}

// TestAnswerGateWithoutRequest: a call made outside a request (no Calls, or a context
// that never ends) holds its admission only while its answer is decoded.
func TestAnswerGateWithoutRequest(t *testing.T) {
	g := newAnswerGate(2*LargeAnswer, nil)
	for _, ctx := range []context.Context{context.Background(), WithCalls(context.Background(), new(Calls))} {
		release, err := g.enter(ctx, [32]byte{'a'}, LargeAnswer)
		if err != nil {
			t.Fatal(err)
		}
		if !waits(t, g, ctx, [32]byte{'a'}, LargeAnswer) {
			t.Fatal("entered while the call held the key's half")
		}
		release()
		if waits(t, g, ctx, [32]byte{'a'}, LargeAnswer) {
			t.Fatal("still held after the call released it")
		}
	}
	if newAnswerGate(-1, nil) != nil {
		t.Fatal("a negative AnswerMemory still gates")
	}
}

// TestClientGatesLargeAnswers: the client passes a large answer through the gate
// before decoding it, holds it for the rest of the request, and a second request of
// the same key waits until then (AnswerMemory of two large answers: one per key).
func TestClientGatesLargeAnswers(t *testing.T) {
	body := `{"data":{"x":"` + strings.Repeat("a", LargeAnswer) + `"}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	var waits []time.Duration
	var mu sync.Mutex
	c := NewClient(srv.URL, Options{AnswerMemory: 2 * LargeAnswer, MaxAttempts: 1,
		ObserveAnswerWait: func(d time.Duration) { mu.Lock(); waits = append(waits, d); mu.Unlock() }})
	observed := func() int { mu.Lock(); defer mu.Unlock(); return len(waits) }
	call := func(ctx context.Context) error {
		var data struct{ X string }
		return c.MakeRequest(WithAPIKey(ctx, "NRAK-ONE"), &gql.Request{OpName: "Q", Query: "query Q { x }"}, &gql.Response{Data: &data})
	}
	first, end := request(t)
	if err := call(first); err != nil {
		t.Fatal(err)
	}
	if n := observed(); n != 0 {
		t.Fatalf("an answer that entered at once was observed waiting (%d)", n)
	}
	other, _ := request(t)
	short, cancel := context.WithTimeout(other, 30*time.Millisecond)
	defer cancel()
	var ge *Error
	if err := call(short); !errors.As(err, &ge) || ge.Kind != KindOverloaded {
		t.Fatalf("second request's err = %v, want the gate's overload (NerdGraph answered in time)", err)
	}
	if n := observed(); n != 1 {
		t.Fatalf("the answer that waited (and gave up) observed %d times, want 1", n)
	}
	end()
	if err := call(other); err != nil {
		t.Fatalf("after the first request ended: %v", err)
	}
}

// TestAnswerGateConcurrentCallsOfOneRequest: calls of one request made side by side,
// each with an answer as large as the key's whole half, all enter: the first takes the
// request's admission before it waits, the others pass, and none waits for an admission
// only the request's own end would release.
func TestAnswerGateConcurrentCallsOfOneRequest(t *testing.T) {
	g := newAnswerGate(2*LargeAnswer, nil)
	req, _ := request(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(req, 5*time.Second) // a deadlock fails, it does not hang
			defer cancel()
			release, err := g.enter(ctx, [32]byte{'a'}, 4*LargeAnswer)
			if err != nil {
				t.Errorf("a call of the request waited for the request: %v", err)
				return
			}
			release()
		}()
	}
	wg.Wait()
	if !waits(t, g, context.Background(), [32]byte{'a'}, LargeAnswer) {
		t.Fatal("the request's admission was not held once its calls were decoded")
	}
}

// TestAnswerGateBudget: AnswerMemory 0 is the default, DefaultAnswerMemoryPerCPU per
// CPU, of which a key holds half; a budget below two large answers is raised to two.
func TestAnswerGateBudget(t *testing.T) {
	for _, tt := range []struct {
		given, want int64
	}{
		{0, int64(DefaultAnswerMemoryPerCPU) * int64(runtime.GOMAXPROCS(0))},
		{1, 2 * LargeAnswer},
		{64 << 20, 64 << 20},
	} {
		g := newAnswerGate(tt.given, nil)
		if g == nil {
			t.Fatalf("AnswerMemory %d: no gate", tt.given)
		}
		if g.perKey != tt.want/2 {
			t.Errorf("AnswerMemory %d: a key holds %d, want %d", tt.given, g.perKey, tt.want/2)
		}
		if !g.global.TryAcquire(tt.want) || g.global.TryAcquire(1) {
			t.Errorf("AnswerMemory %d: the budget is not %d", tt.given, tt.want)
		}
	}
}

// TestAnswerGateWaitEndsAtRequestDeadline: a large answer waiting for the gate gives up
// at the request's deadline (Calls.SetDeadline), with nothing else ending its context,
// as the gateway's own overload: NerdGraph answered in time.
func TestAnswerGateWaitEndsAtRequestDeadline(t *testing.T) {
	g := newAnswerGate(2*LargeAnswer, nil)
	tenant := tenantID("NRAK-ONE")
	first, _ := request(t)
	release, err := g.enter(first, tenant, LargeAnswer)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := new(Calls)
	calls.SetDeadline(time.Now().Add(30 * time.Millisecond))
	done := make(chan error, 1)
	go func() {
		_, err := g.enter(WithCalls(ctx, calls), tenant, LargeAnswer)
		done <- err
	}()
	select {
	case err := <-done:
		var ge *Error
		if !errors.As(err, &ge) || ge.Kind != KindOverloaded {
			t.Fatalf("err = %v, want the gate's overload at the request's deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait outlived the request's deadline")
	}
}
