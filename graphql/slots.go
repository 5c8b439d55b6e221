package graphql

import (
	"context"
	"fmt"
	"time"
)

// A key's NerdGraph slots (Options.MaxConcurrentPerKey, NerdGraph's 25 concurrent
// requests a user: newrelic/docs-website
// src/content/docs/apis/nerdgraph/nerdgraph-usage-limits.mdx) are shared two ways:
//
//   - background work (WithBackground: a name index read, a refresh) holds at most
//     Options.BackgroundSlots of them (in a fleet, of the fleet's leases too:
//     leases.go), so the key's own calls keep at least the rest;
//   - a call waits for a slot (and, in a fleet, its lease) at most Options.SlotWait,
//     apart from upstream_timeout, which starts once the slot is held. A call that
//     waited that long, or past its request's deadline, is not sent: its error is
//     KindOverloaded, the gateway's own overload (503 with Retry-After), never
//     NerdGraph's rate limit, and the breaker does not hear of it (fetch takes the
//     slot before it asks the breaker).
//
// A background call's wait has no SlotWait of its own: a refresh holds no request's
// answer, and its context (the read's deadline) bounds it. One made on a request's
// path (a cold index read) waits at most until that request's deadline, so it too is
// overloaded, not sent and then timed out as if NerdGraph had been slow.

// The slots' defaults.
const (
	DefaultBackgroundSlots = 10
	DefaultSlotWait        = 5 * time.Second
)

type backgroundKey struct{}

// WithBackground marks ctx's NerdGraph calls as background work of their key (see
// above).
func WithBackground(ctx context.Context) context.Context {
	return context.WithValue(ctx, backgroundKey{}, true)
}

// isBackground reports whether ctx's calls are background work.
func isBackground(ctx context.Context) bool {
	b, _ := ctx.Value(backgroundKey{}).(bool)
	return b
}

// keySlots holds each user key's slots (by hash), created on demand and dropped when
// idle, so the number held is bounded by the keys in flight.
type keySlots struct {
	sems keyed[*slotPair]
}

// slotPair is one key's slots: all of them, and the background share.
type slotPair struct {
	all, background chan struct{}
}

// slotWait is the bound of one call's wait for its slot and lease: SlotWait from now,
// the request's deadline when earlier; for background work only the request's
// deadline (zero when it has none).
func (c *Client) slotWait(ctx context.Context) time.Time {
	var dl time.Time
	if !isBackground(ctx) {
		dl = time.Now().Add(c.opts.SlotWait)
	}
	if calls := CallsFrom(ctx); calls != nil && !calls.deadline.IsZero() && (dl.IsZero() || calls.deadline.Before(dl)) {
		return calls.deadline
	}
	return dl
}

// acquire takes one of the n slots of the key whose SHA-256 is tenant (tenantOf), and
// first one of its bg background slots when background is set, waiting until ctx ends
// or until (zero: no bound of its own).
func (k *keySlots) acquire(ctx context.Context, tenant [32]byte, n, bg int, background bool, until time.Time) (release func(), err error) {
	p, done := k.sems.take(tenant, func() *slotPair {
		return &slotPair{all: make(chan struct{}, n), background: make(chan struct{}, min(bg, n))}
	})
	var expired <-chan time.Time
	if !until.IsZero() {
		t := time.NewTimer(time.Until(until))
		defer t.Stop()
		expired = t.C
	}
	wait := func(ch chan struct{}) error {
		select {
		case ch <- struct{}{}:
			return nil
		default:
		}
		select {
		case ch <- struct{}{}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-expired:
			return context.DeadlineExceeded
		}
	}
	if background {
		if err := wait(p.background); err != nil {
			done()
			return nil, overloaded(n, err)
		}
	}
	if err := wait(p.all); err != nil {
		if background {
			<-p.background
		}
		done()
		return nil, overloaded(n, err)
	}
	return func() {
		<-p.all
		if background {
			<-p.background
		}
		done()
	}, nil
}

// overloadRetryAfter is the Retry-After of a call that waited too long for its slot.
const overloadRetryAfter = 2 * time.Second

// overloaded is the error of a call not sent because its wait for one of the key's n
// slots (or its lease) ended with err.
func overloaded(n int, err error) error {
	return &Error{Kind: KindOverloaded, RetryAfter: overloadRetryAfter,
		Err: fmt.Errorf("waiting for one of %d NerdGraph slots of this key: %w", n, err)}
}
