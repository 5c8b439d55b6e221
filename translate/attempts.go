package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Writes whose outcome is unknown (issue 17, item 4).
//
// A deployment mutation that was sent but not answered (the gateway's deadline passed,
// the connection was reset, NerdGraph answered 5xx) may have been recorded. REST v2
// recorded one deployment per POST, identical or not; a client that retries after the
// gateway's 502/504 "may have been recorded" would record a second one. The gateway
// therefore keeps, per replica, an attempt record for WriteAttemptWindow keyed by the
// caller (key hash and account), the application and either
//
//   - the content of the deployment (revision, changelog, description, user, and the
//     timestamp when the caller gave one), or
//   - the caller's Idempotency-Key header (the exact tool: its own key space).
//
// Window semantics, without Idempotency-Key: identical POSTs that overlap in time share
// one write (one deployment, every caller gets the same 201); after a known success the
// record is dropped, so a deliberate identical deployment afterwards is recorded as REST
// would; after an unknown outcome the record stays for the window and an identical
// retry first looks the deployment up (NRQL, by the exact millisecond timestamp the
// gateway sent, and the content) instead of sending again. Found: 201 with it. Not
// found yet: NRDB ingests change events with a delay, so for DeploymentSettle after the
// unknown attempt the retry is answered 503 with Retry-After (the first attempt may
// still appear) and nothing is sent; after that, it is taken as not recorded and sent.
// With Idempotency-Key a success is also kept for the window: a repeat with the same
// key gets the recorded 201 again; the same key with a different request is a 422.
//
// Application updates need no record: UpdateApplication reads the current values and
// sends only what differs, so a retry after an unknown outcome sends nothing if the
// first attempt was applied and answers 200 with the values read. Deletes: a delete
// whose outcome is unknown is remembered; a retry that finds the application gone
// within the window answers 200 with the application as REST's delete did (the first
// attempt deleted it), instead of REST's 404 for an application that never existed.

// DefaultWriteAttemptWindow is how long attempt records are kept by default.
const DefaultWriteAttemptWindow = 10 * time.Minute

// DeploymentSettle is how long after an unknown outcome a deployment that is not found
// is still taken as possibly recorded: New Relic's own streaming alerts wait 2 minutes
// for late data by default (docs-website
// src/content/docs/alerts/create-alert/fine-tune/streaming-alerts-key-terms-concepts.mdx).
const DeploymentSettle = 2 * time.Minute

// maxAttempts bounds the attempt records of a replica; past it the oldest settled
// record is dropped.
const maxAttempts = 10000

// MaxIdempotencyKey is the longest Idempotency-Key accepted.
const MaxIdempotencyKey = 255

// ErrIdempotencyKeyReused is the 422 for an Idempotency-Key already used with another
// request within the window.
func ErrIdempotencyKeyReused(window time.Duration) *v2.Error {
	return &v2.Error{Status: 422, Title: "Idempotency-Key was already used with a different request in the last " +
		window.String() + "; use a new key for a new request"}
}

// retryLater is a v2 error answered with Retry-After (the gateway reads RetryAfter of
// the wrapped ng.Error for 429 and 503).
type retryLater struct {
	ve    *v2.Error
	after time.Duration
}

func (e *retryLater) Error() string { return e.ve.Error() }
func (e *retryLater) Unwrap() []error {
	return []error{e.ve, &ng.Error{Kind: ng.KindUnavailable, RetryAfter: e.after}}
}

// flight is one execution of a write; identical requests that arrive meanwhile wait
// for it and take its result.
type flight struct {
	done    chan struct{}
	show    any
	err     error
	unknown bool
}

// attempt is the record of one write.
type attempt struct {
	hash     string
	idem     bool
	fl       *flight // the write in progress, if any
	recorded any     // the answer of a known success (Idempotency-Key only)
	unknown  bool    // the last execution's outcome is unknown
	sent     time.Time
	sentMs   int64 // the timestamp the gateway sent (deployments)
	memo     any   // what an unknown write would have answered (deletes)
	at       time.Time
	fleet    bool // stored in the fleet's store too (attemptsfleet.go)
}

// attemptLedger holds a replica's attempt records.
type attemptLedger struct {
	window time.Duration
	mu     sync.Mutex
	m      map[string]*attempt
	shared SharedAttempts // fleet mode (attemptsfleet.go); nil: this replica's only
}

func newAttemptLedger(window time.Duration) *attemptLedger {
	if window <= 0 {
		window = DefaultWriteAttemptWindow
	}
	return &attemptLedger{window: window, m: map[string]*attempt{}}
}

// join returns the record under key. lead says the caller runs the write (a new record,
// or a record whose last outcome is unknown: the caller resolves it); otherwise the
// caller waits for a.fl or takes a.recorded. A record of another content under the same
// Idempotency-Key is ErrIdempotencyKeyReused.
func (l *attemptLedger) join(key, hash string, idem bool, now time.Time) (a *attempt, fl *flight, lead bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a = l.m[key]
	if a != nil && a.fl == nil && now.Sub(a.at) >= l.window {
		delete(l.m, key)
		a = nil
	}
	if a == nil {
		l.makeRoom(now)
		a = &attempt{hash: hash, idem: idem, at: now}
		l.m[key] = a
	}
	if a.hash != hash {
		return nil, nil, false, ErrIdempotencyKeyReused(l.window)
	}
	if a.fl != nil {
		return a, a.fl, false, nil
	}
	if a.recorded != nil {
		return a, nil, false, nil
	}
	a.fl = &flight{done: make(chan struct{})}
	return a, a.fl, true, nil
}

// makeRoom drops expired records and, at maxAttempts, the oldest settled one.
func (l *attemptLedger) makeRoom(now time.Time) {
	if len(l.m) < maxAttempts {
		return
	}
	var oldest string
	var at time.Time
	for k, a := range l.m {
		if a.fl != nil {
			continue
		}
		if now.Sub(a.at) >= l.window {
			delete(l.m, k)
			continue
		}
		if oldest == "" || a.at.Before(at) {
			oldest, at = k, a.at
		}
	}
	if len(l.m) >= maxAttempts && oldest != "" {
		delete(l.m, oldest)
	}
}

// state reads a record's resolution state.
func (l *attemptLedger) state(a *attempt) (prev previous) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return previous{sent: a.sent, ms: a.sentMs, memo: a.memo}
}

// previous is what a record knows of its last unknown attempt (zero sent: none).
type previous struct {
	sent time.Time
	ms   int64
	memo any
}

// finish ends the lead's flight. unknown: the outcome is not known (sentMs is what was
// sent, 0 when nothing new was sent); else a success is kept only under an
// Idempotency-Key and any other outcome drops the record.
func (l *attemptLedger) finish(key string, a *attempt, fl *flight, show any, err error, unknown bool, sentMs int64, now time.Time) {
	l.mu.Lock()
	fl.show, fl.err, fl.unknown = show, err, unknown
	a.fl = nil
	a.at = now
	switch {
	case unknown:
		a.unknown = true
		if sentMs != 0 {
			a.sent, a.sentMs = now, sentMs
			if show != nil {
				a.memo = show
			}
		}
	case err == nil && a.idem:
		a.recorded, a.unknown = show, false
	default:
		if l.m[key] == a {
			delete(l.m, key)
		}
	}
	l.mu.Unlock()
	close(fl.done)
}

// once runs write at most once at a time per key: identical requests in flight wait
// (bounded by ctx) and take its answer; a recorded answer is returned again. write
// gets the record's previous unknown attempt and reports whether its own outcome is
// unknown and the timestamp it sent (non-zero: something was sent; with an unknown
// outcome, show is kept as the record's memo).
func (l *attemptLedger) once(ctx context.Context, key, hash string, idem bool, now func() time.Time,
	write func(ctx context.Context, prev previous) (show any, err error, unknown bool, sentMs int64)) (any, error) {
	if l.shared != nil {
		l.seed(ctx, key) // a record another replica left (attemptsfleet.go)
	}
	for {
		a, fl, lead, err := l.join(key, hash, idem, now())
		if err != nil {
			return nil, err
		}
		if !lead {
			if fl == nil {
				return a.recorded, nil
			}
			select {
			case <-fl.done:
			case <-ctx.Done():
				return nil, &retryLater{ve: &v2.Error{Status: 503, Title: "An identical request is still being recorded; " +
					"retry to get its outcome (it is not sent twice)"}, after: time.Second}
			}
			if fl.unknown {
				continue // resolve it (look it up) in turn
			}
			if fl.err != nil {
				return nil, fl.err
			}
			return fl.show, nil
		}
		finished := false
		defer func() {
			if !finished { // write panicked: it may have sent; waiters must not hang
				l.finish(key, a, fl, nil, errors.New("write failed"), true, 0, now())
			}
		}()
		show, werr, unknown, sentMs := write(ctx, l.state(a))
		finished = true
		l.finish(key, a, fl, show, werr, unknown, sentMs, now())
		if l.shared != nil {
			l.share(ctx, key, a)
		}
		if werr != nil {
			return nil, werr
		}
		return show, nil
	}
}

// contentHash is the hex SHA-256 of the parts, each length-prefixed.
func contentHash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p))))
		h.Write([]byte{':'})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// optPart renders an optional field so that absent and empty differ.
func optPart(s *string) string {
	if s == nil {
		return "-"
	}
	return "+" + *s
}

// outcomeUnknown says whether a failed mutation may have been applied: a timeout, a
// reset or unreadable answer, a 5xx. A connection that was never made, an open circuit
// or a rejection are known not to have recorded anything.
func outcomeUnknown(err error) bool {
	var ge *ng.Error
	if !errors.As(err, &ge) {
		return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
	}
	switch ge.Kind {
	case ng.KindTimeout, ng.KindServer:
		return true
	case ng.KindTransport:
		var op *net.OpError
		return !(errors.As(ge.Err, &op) && op.Op == "dial")
	}
	return false
}

// errOutcomePending is the answer to a retry of a write whose outcome is unknown and
// that is not found yet.
func errOutcomePending(what string, sent time.Time, after time.Duration) error {
	secs := int((after + time.Second - 1) / time.Second)
	return &retryLater{ve: &v2.Error{Status: 503, Title: fmt.Sprintf("An identical %s sent at %s got no answer and is not found yet; "+
		"it may still appear (New Relic lists new ones after a delay). It is not sent again: retry after %d seconds "+
		"(it is then answered if found, or recorded if it never arrived)", what, v2.FormatTime(sent), max(secs, 1))}, after: after}
}
