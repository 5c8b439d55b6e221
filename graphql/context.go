package graphql

import (
	"context"
	"crypto/sha256"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

type ctxKey int

const (
	keyAPIKey ctxKey = iota
	keyCalls
)

// WithAPIKey returns a context whose NerdGraph calls carry key as the API-Key header.
// The key's SHA-256 (its breaker, retry budget and flight identity) is computed here,
// once per request, instead of at each of them.
func WithAPIKey(ctx context.Context, key string) context.Context {
	return WithAPIKeySum(ctx, key, tenantID(key))
}

// WithAPIKeySum is WithAPIKey for a caller that has already hashed the key: sum must be
// sha256.Sum256([]byte(key)) (translate.KeySum gives both).
func WithAPIKeySum(ctx context.Context, key string, sum [sha256.Size]byte) context.Context {
	return context.WithValue(ctx, keyAPIKey, &callerKey{key: key, sum: sum})
}

// callerKey is the API key on a context and its SHA-256.
type callerKey struct {
	key string
	sum [32]byte
}

func apiKey(ctx context.Context) string {
	if k, _ := ctx.Value(keyAPIKey).(*callerKey); k != nil {
		return k.key
	}
	return ""
}

// tenantOf is tenantID(apiKey(ctx)) without hashing again.
func tenantOf(ctx context.Context) [32]byte {
	if k, _ := ctx.Value(keyAPIKey).(*callerKey); k != nil {
		return k.sum
	}
	return sha256.Sum256(nil) // tenantID(""): calls made without a key
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
	// req is the request's context (WithCalls): its end releases the request's
	// admission to the answer gate (gate.go), which admitted records.
	req      context.Context
	admitted atomic.Bool
	// ops holds the operations' names when RecordOperations was called (a debug log).
	recordOps bool
	opsMu     sync.Mutex
	ops       []string
	opsMore   int
}

// maxRecordedOps bounds the operation names one request records.
const maxRecordedOps = 32

// RecordOperations makes c keep the name of each operation made (up to 32; retries
// are one operation), for a debug log line. Call it before the calls start.
func (c *Calls) RecordOperations() { c.recordOps = true }

// Operations are the names RecordOperations kept, in order, then "+N more" past the cap.
func (c *Calls) Operations() []string {
	c.opsMu.Lock()
	defer c.opsMu.Unlock()
	out := append([]string(nil), c.ops...)
	if c.opsMore > 0 {
		out = append(out, "+"+strconv.Itoa(c.opsMore)+" more")
	}
	return out
}

func (c *Calls) noteOperation(name string) {
	if c == nil || !c.recordOps {
		return
	}
	c.opsMu.Lock()
	defer c.opsMu.Unlock()
	if len(c.ops) < maxRecordedOps {
		c.ops = append(c.ops, name)
	} else {
		c.opsMore++
	}
}

// canHold says whether the request's admission to the answer gate can be held until
// its context ends: c is a request's (WithCalls) whose context can end.
func (c *Calls) canHold() bool { return c != nil && c.req != nil && c.req.Done() != nil }

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

// WithCalls returns a context whose NerdGraph calls are counted in c. ctx is the
// request's: when it ends, the request's hold on large answers (Options.AnswerMemory)
// ends too.
func WithCalls(ctx context.Context, c *Calls) context.Context {
	c.req = ctx
	return context.WithValue(ctx, keyCalls, c)
}

// CarryCalls prepares c for a context of the caller's own making that carries it
// instead of WithCalls (its Value method answers with CallsValue): ctx is the request's
// context, as WithCalls takes it.
func CarryCalls(ctx context.Context, c *Calls) { c.req = ctx }

// CallsValue is what a context carrying c answers for key: c, ok, for the key CallsFrom
// reads; nothing for any other key.
func CallsValue(key any, c *Calls) (any, bool) {
	if key == any(keyCalls) {
		return c, true
	}
	return nil, false
}

// CallsFrom returns the counter attached by WithCalls, or nil.
func CallsFrom(ctx context.Context) *Calls {
	c, _ := ctx.Value(keyCalls).(*Calls)
	return c
}

// WaitContext is ctx ending at the request's deadline too (SetDeadline), for a wait on
// work another caller does (its read, its shared query): the request's own NerdGraph
// calls end at that deadline, and so must its waits on others'. cancel releases its
// timer.
func WaitContext(ctx context.Context) (_ context.Context, cancel context.CancelFunc) {
	if dl, ok := requestDeadline(ctx); ok {
		return context.WithDeadline(ctx, dl)
	}
	return ctx, func() {}
}

// Stopped reports why work done for the request on ctx must stop: the context's own
// error (the caller went away, or its deadline passed), or context.DeadlineExceeded
// once the deadline SetDeadline gave the request's calls has passed. Loops a request
// drives check it on every turn, so that request_timeout bounds CPU as well as
// NerdGraph calls. nil: go on.
func Stopped(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c := CallsFrom(ctx); c != nil && !c.deadline.IsZero() && !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// APIKeySum is the SHA-256 of the API key ctx's NerdGraph calls carry, and whether
// ctx carries one: what a caller compares a key NerdGraph returns with, to tell the
// caller's own key among others without holding the key itself.
func APIKeySum(ctx context.Context) ([sha256.Size]byte, bool) {
	if k, _ := ctx.Value(keyAPIKey).(*callerKey); k != nil {
		return k.sum, true
	}
	return [sha256.Size]byte{}, false
}

type optionalKey struct{}

// WithOptional marks the fields at paths (dotted, as OnlyAt takes them) of ctx's calls
// as ones their caller can answer without: an answer whose only errors are there is
// returned at once, not sent again. The caller reads what failed some other way or
// declares it, so an optional part that timed out costs its wait once rather than once
// an attempt, and the rest of the answer is not asked for again.
func WithOptional(ctx context.Context, paths ...string) context.Context {
	return context.WithValue(ctx, optionalKey{}, paths)
}

// failedOptional reports whether err failed only fields ctx marks optional
// (WithOptional).
func failedOptional(ctx context.Context, err error) bool {
	paths, _ := ctx.Value(optionalKey{}).([]string)
	return len(paths) > 0 && OnlyAt(err, paths...)
}
