package graphql

import (
	"errors"
	"sync"
	"time"
)

// ErrCircuitOpen is returned without calling NerdGraph while the circuit is open.
var ErrCircuitOpen = errors.New("NerdGraph circuit open after repeated failures")

// breaker is the client's circuit breaker: after Threshold consecutive upstream
// failures (server, transport, timeout) it opens and fails calls fast for Cooldown; then
// one probe goes through, and its success closes the circuit (its failure reopens it).
type breaker struct {
	threshold int
	cooldown  time.Duration
	now       func() time.Time

	mu       sync.Mutex
	failures int
	openTill time.Time
	probing  bool
}

// allow reports whether a call may go out now.
func (b *breaker) allow() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failures < b.threshold {
		return true
	}
	if b.now().Before(b.openTill) || b.probing {
		return false
	}
	b.probing = true // half-open: this call is the probe
	return true
}

// record notes a call's outcome.
func (b *breaker) record(err error) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
	if !upstreamFailure(err) {
		b.failures = 0
		return
	}
	b.failures++
	if b.failures >= b.threshold {
		b.openTill = b.now().Add(b.cooldown)
	}
}

// release ends a probe whose outcome says nothing about NerdGraph (the caller went
// away first): the next call probes again.
func (b *breaker) release() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.probing = false
	b.mu.Unlock()
}

// upstreamFailure says whether an error counts against NerdGraph's health (a bad key or
// a rate limit does not).
func upstreamFailure(err error) bool {
	if err == nil {
		return false
	}
	var ge *Error
	if !errors.As(err, &ge) {
		return false
	}
	switch ge.Kind {
	case KindServer, KindTransport:
		return true
	case KindTimeout:
		return true
	}
	return false
}
