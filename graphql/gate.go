package graphql

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
)

// LargeAnswer is the size from which a NerdGraph answer passes the answer gate
// (Options.AnswerMemory) before it is decoded: 10 metric names × 180 slices are 536
// KB; a 200-application page (188 KB) and everything smaller never wait.
const LargeAnswer = 256 << 10

// DefaultAnswerMemoryPerCPU is Options.AnswerMemory's default per CPU (GOMAXPROCS).
const DefaultAnswerMemoryPerCPU = 2 << 20

// answerGate bounds the large answers being decoded and answered at once, by their
// bytes: a large answer costs about four times its size while it is worked on (the
// answer, the decoder's copy of it, the decoded rows and the rendered body, which for
// metric data is larger than the answer), and that work is CPU-bound, so on a few CPUs
// letting every concurrent request hold it at once raises memory without raising
// throughput. The request's own answer is admitted once: later answers of the same
// request pass (no request waits for itself), and what it holds is released when the
// request ends (its Calls' context), so the rendering is inside the bound too.
//
// Fairness: one key may hold at most half of the budget, so another key's large answer
// always finds room within a turn, and answers below LargeAnswer (almost every
// request) never wait.
type answerGate struct {
	global  *semaphore.Weighted
	perKey  int64
	observe func(time.Duration)        // Options.ObserveAnswerWait; nil: none
	keys    keyed[*semaphore.Weighted] // each key's half, by key hash, while a request of it is in
}

// newAnswerGate is a gate of budget bytes (0: DefaultAnswerMemoryPerCPU per CPU; < 0:
// no gate), telling observe how long each answer that waited waited.
func newAnswerGate(budget int64, observe func(time.Duration)) *answerGate {
	if budget < 0 {
		return nil
	}
	if budget == 0 {
		budget = int64(DefaultAnswerMemoryPerCPU) * int64(runtime.GOMAXPROCS(0))
	}
	budget = max(budget, 2*LargeAnswer)
	return &answerGate{global: semaphore.NewWeighted(budget), perKey: budget / 2, observe: observe}
}

func nop() {}

// enter waits until an answer of size bytes for tenant may be decoded. The returned
// release is to be called once the answer is decoded; when the request's Calls hold the
// admission instead (released when the request's context ends), it does nothing.
func (g *answerGate) enter(ctx context.Context, tenant [32]byte, size int) (release func(), err error) {
	if g == nil || size < LargeAnswer {
		return nop, nil
	}
	// A request whose context can end holds its admission until then; the first of its
	// calls to get here takes it for all of them, before it waits, so that a call of the
	// same request running beside it never waits for an admission only the request's
	// end releases.
	calls := CallsFrom(ctx)
	held := calls.canHold()
	if held && !calls.admitted.CompareAndSwap(false, true) {
		return nop, nil // the request is in, or on its way in
	}
	w := min(int64(size), g.perKey)
	half, drop := g.keys.take(tenant, func() *semaphore.Weighted { return semaphore.NewWeighted(g.perKey) })
	if err := g.acquire(ctx, half, w); err != nil {
		drop()
		if held {
			calls.admitted.Store(false)
		}
		return nil, gateError(ctx, err)
	}
	release = sync.OnceFunc(func() {
		g.global.Release(w)
		half.Release(w)
		drop()
	})
	if held {
		context.AfterFunc(calls.req, release)
		return nop, nil
	}
	return release, nil
}

// acquire takes w of the key's half and of the budget, telling g.observe how long that
// took when it could not be taken at once.
func (g *answerGate) acquire(ctx context.Context, key *semaphore.Weighted, w int64) error {
	if key.TryAcquire(w) {
		if g.global.TryAcquire(w) {
			return nil
		}
		key.Release(w)
	}
	start := time.Now()
	if g.observe != nil {
		defer func() { g.observe(time.Since(start)) }()
	}
	if calls := CallsFrom(ctx); calls != nil && !calls.deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, calls.deadline) // the wait ends with the request
		defer cancel()
	}
	if err := key.Acquire(ctx, w); err != nil {
		return err
	}
	if err := g.global.Acquire(ctx, w); err != nil {
		key.Release(w)
		return err
	}
	return nil
}

// ErrAnswerWait is in the error of a call whose answer NerdGraph gave but which waited
// at the answer gate until the request's end.
var ErrAnswerWait = errors.New("waiting to decode a large answer")

// gateError is the error of a call whose context ended while its answer waited: at the
// request's deadline the gateway's own overload (KindOverloaded, 503 with Retry-After:
// NerdGraph answered in time), else the request's end (the caller left).
func gateError(ctx context.Context, err error) error {
	if errors.Is(Stopped(ctx), context.DeadlineExceeded) {
		return &Error{Kind: KindOverloaded, RetryAfter: overloadRetryAfter, Err: fmt.Errorf("%w: %w", ErrAnswerWait, err)}
	}
	return &Error{Kind: KindTransport, Err: fmt.Errorf("%w: %w", ErrAnswerWait, err)}
}
