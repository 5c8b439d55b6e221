package graphql

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Leases bounds the NerdGraph calls in flight per user key across a fleet of replicas
// (fleet mode; state/fleet.Store implements it). NerdGraph's limit of 25
// concurrent requests is per user, not per replica (newrelic/docs-website
// src/content/docs/apis/nerdgraph/nerdgraph-usage-limits.mdx), so N
// replicas each holding 25 exceed it. A lease expires after ttl, so a replica that
// dies holding leases frees them.
type Leases interface {
	// AcquireLease waits until one of n leases of keyHash is free (or ctx ends) and
	// returns its release. An error other than ctx's means the store is down: the call
	// goes ahead under this replica's own bound.
	AcquireLease(ctx context.Context, keyHash string, n int, ttl time.Duration) (release func(), err error)
}

// fleetLease takes a fleet-wide lease for key when the client has Leases. It returns
// a release (a no-op without one) and an error only when ctx ended while waiting.
// The wait ends at until too (zero: no bound of its own; slots.go), with
// KindOverloaded.
func (c *Client) fleetLease(ctx context.Context, key string, until time.Time) (func(), error) {
	if c.opts.Leases == nil {
		return func() {}, nil
	}
	sum := sha256.Sum256([]byte(key))
	wctx := ctx
	if !until.IsZero() {
		var cancel context.CancelFunc
		wctx, cancel = context.WithDeadline(ctx, until)
		defer cancel()
	}
	keyHash := hex.EncodeToString(sum[:])
	if !isBackground(ctx) || c.opts.BackgroundSlots >= c.opts.MaxConcurrentPerKey {
		return c.lease(wctx, keyHash, c.opts.MaxConcurrentPerKey)
	}
	// Background work holds at most its share of the fleet's leases too, not its share
	// on every replica: it first takes one of the share's own leases.
	share, err := c.lease(wctx, keyHash+backgroundLeases, c.opts.BackgroundSlots)
	if err != nil {
		return nil, err
	}
	release, err := c.lease(wctx, keyHash, c.opts.MaxConcurrentPerKey)
	if err != nil {
		share()
		return nil, err
	}
	return func() { release(); share() }, nil
}

// backgroundLeases names the leases of a key's background share (after its hash).
const backgroundLeases = ":background"

// lease takes one of n leases of keyHash, waiting within ctx; a store that is down
// gives a no-op release (this replica's bound only).
func (c *Client) lease(ctx context.Context, keyHash string, n int) (func(), error) {
	// The lease outlives the call: fetchHTTP's context ends by c.opts.Timeout.
	release, err := c.opts.Leases.AcquireLease(ctx, keyHash, n, c.opts.Timeout+5*time.Second)
	if err != nil {
		if ctx.Err() != nil {
			return nil, overloaded(c.opts.MaxConcurrentPerKey, err)
		}
		return func() {}, nil // the store is down: this replica's bound only
	}
	return release, nil
}
