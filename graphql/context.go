package graphql

import (
	"context"
	"sync/atomic"
	"time"
)

type ctxKey int

const (
	keyAPIKey ctxKey = iota
	keyCalls
)

// WithAPIKey returns a context whose NerdGraph calls carry key as the API-Key header.
func WithAPIKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, keyAPIKey, key)
}

func apiKey(ctx context.Context) string {
	s, _ := ctx.Value(keyAPIKey).(string)
	return s
}

// Calls counts the NerdGraph round trips made on behalf of one v2 request and the time
// spent in them (X-V2bridge-Upstream-Calls and the Server-Timing "upstream" metric),
// and carries the request's deadline.
type Calls struct {
	n       atomic.Int64
	elapsed atomic.Int64
	// deadline ends every call made for the request (MakeRequest applies it, so a
	// request answered from a cache never arms a timer). Set before the calls start.
	deadline time.Time
}

// SetDeadline makes every NerdGraph call counted in c end by t. Call it before handing
// the context on.
func (c *Calls) SetDeadline(t time.Time) { c.deadline = t }

// Count is the number of NerdGraph HTTP requests made.
func (c *Calls) Count() int64 { return c.n.Load() }

// Elapsed is the total time spent waiting for NerdGraph.
func (c *Calls) Elapsed() time.Duration { return time.Duration(c.elapsed.Load()) }

func (c *Calls) add(d time.Duration) {
	c.n.Add(1)
	c.elapsed.Add(int64(d))
}

// WithCalls returns a context whose NerdGraph calls are counted in c.
func WithCalls(ctx context.Context, c *Calls) context.Context {
	return context.WithValue(ctx, keyCalls, c)
}

// CallsFrom returns the counter attached by WithCalls, or nil.
func CallsFrom(ctx context.Context) *Calls {
	c, _ := ctx.Value(keyCalls).(*Calls)
	return c
}
