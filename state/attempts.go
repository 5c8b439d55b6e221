package state

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Attempts is a replica's ledger of writes whose outcome is unknown, or that were sent
// with an Idempotency-Key, kept for a window. A record is keyed by the caller's key,
// built by the translator (key hash, account, the application and either the content
// hash of the write or the Idempotency-Key), and holds the write in flight, its
// recorded answer and what is known of its last unknown attempt; what those mean for
// a deployment or a delete is the translator's (its CreateDeployment and
// DeleteApplication say).
//
// Window semantics: identical writes that overlap in time share one execution (every
// caller gets its answer); after a known success the record is dropped, unless it was
// sent with an Idempotency-Key, whose answer is kept for the window and given again;
// after an unknown outcome the record stays for the window, and the next identical
// write is told of it (Previous) so it can look the first one up instead of sending
// again.
type Attempts struct {
	window time.Duration
	mu     sync.Mutex
	m      map[string]*attempt
	// shared and answers keep settled records in the fleet's store (attemptsfleet.go);
	// nil: this replica's only.
	shared  SharedAttempts
	answers Answers
}

// DefaultWriteAttemptWindow is how long attempt records are kept by default.
const DefaultWriteAttemptWindow = 10 * time.Minute

// maxAttempts bounds the attempt records of a replica; past it the oldest settled
// record is dropped.
const maxAttempts = 10000

// ErrKeyReused is Once's answer to an Idempotency-Key already used with another
// request within the window.
var ErrKeyReused = errors.New("idempotency key reused with a different request")

// ErrStillRecording is Once's answer to a caller whose context ended while it waited
// for an identical write in flight (which is not sent twice).
var ErrStillRecording = errors.New("an identical write is still in flight")

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
	sentMs   int64 // the timestamp the write sent (deployments)
	memo     any   // what an unknown write would have answered (deletes)
	at       time.Time
	fleet    bool // stored in the fleet's store too (attemptsfleet.go)
}

// NewAttempts returns a ledger that keeps records for window (<= 0:
// DefaultWriteAttemptWindow).
func NewAttempts(window time.Duration) *Attempts {
	if window <= 0 {
		window = DefaultWriteAttemptWindow
	}
	return &Attempts{window: window, m: map[string]*attempt{}}
}

// Window is how long the ledger keeps a record.
func (l *Attempts) Window() time.Duration { return l.window }

// join returns the record under key. lead says the caller runs the write (a new record,
// or a record whose last outcome is unknown: the caller resolves it); otherwise the
// caller waits for a.fl or takes a.recorded. A record of another content under the same
// Idempotency-Key is ErrKeyReused.
func (l *Attempts) join(key, hash string, idem bool, now time.Time) (a *attempt, fl *flight, lead bool, err error) {
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
		return nil, nil, false, ErrKeyReused
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
func (l *Attempts) makeRoom(now time.Time) {
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
func (l *Attempts) state(a *attempt) (prev Previous) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Previous{Sent: a.sent, Ms: a.sentMs, Memo: a.memo}
}

// Previous is what a record knows of its last unknown attempt (zero Sent: none): when
// it was sent, the timestamp it sent (Ms) and what it would have answered (Memo).
type Previous struct {
	Sent time.Time
	Ms   int64
	Memo any
}

// finish ends the lead's flight. unknown: the outcome is not known (sentMs is what was
// sent, 0 when nothing new was sent); else a success is kept only under an
// Idempotency-Key and any other outcome drops the record.
func (l *Attempts) finish(key string, a *attempt, fl *flight, show any, err error, unknown bool, sentMs int64, now time.Time) {
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

// Once runs write at most once at a time per key: identical requests in flight wait
// (bounded by ctx: ErrStillRecording) and take its answer; a recorded answer is
// returned again; another request under the same Idempotency-Key (idem, with another
// hash) is ErrKeyReused. write gets the record's previous unknown attempt and reports
// whether its own outcome is unknown and the timestamp it sent (non-zero: something
// was sent; with an unknown outcome, show is kept as the record's memo).
func (l *Attempts) Once(ctx context.Context, key, hash string, idem bool, now func() time.Time,
	write func(ctx context.Context, prev Previous) (show any, err error, unknown bool, sentMs int64)) (any, error) {
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
				return nil, ErrStillRecording
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
