package graphql

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"sync"
	"time"
)

// ErrCircuitOpen is returned without calling NerdGraph while the circuit is open.
var ErrCircuitOpen = errors.New("NerdGraph circuit open after repeated failures")

// maxTenantBreakers bounds the per-tenant breakers held at once. A tenant gets one only
// after a failure and loses it on its next success, so the bound is reached only when
// that many keys fail at the same time; beyond it new tenants are not tracked (their
// calls go out, as they would without a breaker).
const maxTenantBreakers = 10000

// globalQuorum is how many distinct tenants must fail, with no success in between,
// before their failures count against the global breaker too: NerdGraph failing for
// every tenant, not one tenant's outage.
const globalQuorum = 3

// breakers isolates failures per tenant: one breaker per NerdGraph
// identity (the SHA-256 of the user key the call is sent with) for the failures that
// can be that tenant's own (HTTP 5xx, timeouts, an answer cut off), and one global
// breaker for failures that cannot be any tenant's: the connection to NerdGraph could
// not be made at all (refused, unreachable, DNS, TLS), or globalQuorum tenants failing
// with no success in between. A slow or failing query of one key never opens the
// circuit of another.
type breakers struct {
	threshold int
	cooldown  time.Duration
	now       func() time.Time

	global *breaker

	mu      sync.Mutex
	tenants map[[32]byte]*breaker
	streak  map[[32]byte]struct{} // tenants failing since the last success (at most globalQuorum)
}

func newBreakers(threshold int, cooldown time.Duration, now func() time.Time) *breakers {
	return &breakers{threshold: threshold, cooldown: cooldown, now: now,
		global:  &breaker{threshold: threshold, cooldown: cooldown, now: now},
		tenants: map[[32]byte]*breaker{}, streak: map[[32]byte]struct{}{}}
}

// tenantID is the breaker identity of a call: the SHA-256 of its user key.
func tenantID(key string) [32]byte { return sha256.Sum256([]byte(key)) }

func (s *breakers) tenant(id [32]byte, create bool) *breaker {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.tenants[id]
	if b == nil && create && len(s.tenants) < maxTenantBreakers {
		b = &breaker{threshold: s.threshold, cooldown: s.cooldown, now: s.now}
		s.tenants[id] = b
	}
	return b
}

// allow reports whether a call of tenant id may go out now.
func (s *breakers) allow(id [32]byte) bool {
	if s == nil {
		return true
	}
	tb := s.tenant(id, false)
	if !tb.allow() {
		return false
	}
	if !s.global.allow() {
		tb.release()
		return false
	}
	return true
}

// record notes a call's outcome: a connection failure counts against the global
// breaker only; any other upstream failure against the tenant's only (NerdGraph did
// answer, so the connection is fine: the global count starts over).
func (s *breakers) record(id [32]byte, err error) {
	if s == nil {
		return
	}
	if connectionFailure(err) {
		s.global.record(err)
		s.tenant(id, false).release()
		return
	}
	if !upstreamFailure(err) {
		s.global.record(nil)
		s.mu.Lock()
		delete(s.tenants, id) // healthy again: hold nothing for it
		clear(s.streak)
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	if len(s.streak) < globalQuorum {
		s.streak[id] = struct{}{}
	}
	everyone := len(s.streak) >= globalQuorum
	s.mu.Unlock()
	if everyone {
		s.global.record(err)
	} else {
		s.global.release()
	}
	s.tenant(id, true).record(err)
}

// release ends a call whose outcome says nothing about NerdGraph.
func (s *breakers) release(id [32]byte) {
	if s == nil {
		return
	}
	s.global.release()
	s.tenant(id, false).release()
}

// tenantCount is the number of tenants with a breaker (tests, metrics).
func (s *breakers) tenantCount() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tenants)
}

// connectionFailure says whether an error shows NerdGraph could not be reached at all:
// no connection (dial: refused, unreachable, DNS) or no TLS session. These cannot be
// one tenant's fault.
func connectionFailure(err error) bool {
	var ge *Error
	if !errors.As(err, &ge) || ge.Kind != KindTransport || ge.Status != 0 || ge.Err == nil {
		return false
	}
	var op *net.OpError
	if errors.As(ge.Err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	var rh tls.RecordHeaderError
	var alert tls.AlertError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var inv x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	return errors.As(ge.Err, &dns) || errors.As(ge.Err, &rh) || errors.As(ge.Err, &alert) ||
		errors.As(ge.Err, &unknown) || errors.As(ge.Err, &host) || errors.As(ge.Err, &inv) || errors.As(ge.Err, &verify)
}

// breaker is one circuit breaker: after threshold consecutive upstream failures
// (server, transport, timeout) it opens and fails calls fast for cooldown; then one
// probe goes through, and its success closes the circuit (its failure reopens it). A
// nil *breaker always allows.
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
