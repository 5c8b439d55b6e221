package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
)

// Writes whose outcome is unknown: the v2 answers (restv2.WriteOutcomeUnknown, a retry's
// 503 while the first attempt may still appear, an Idempotency-Key reused) and the glue
// between the writes of every resource and the attempt ledger (state.Attempts).
//
// A deployment mutation that was sent but not answered (the gateway's deadline passed,
// the connection was reset, NerdGraph answered 5xx) may have been recorded. REST v2
// recorded one deployment per POST, identical or not; a client that retries after the
// gateway's 502/504 "may have been recorded" would record a second one. The gateway
// therefore keeps, per replica, an attempt record (state.Attempts) for
// WriteAttemptWindow keyed by the caller (key hash and account), the application and
// either
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

// DeploymentSettle is how long after an unknown outcome a deployment that is not found
// is still taken as possibly recorded: New Relic's own streaming alerts wait 2 minutes
// for late data by default
// (https://docs.newrelic.com/docs/alerts/create-alert/fine-tune/streaming-alerts-key-terms-concepts/).
const DeploymentSettle = 2 * time.Minute

// MaxIdempotencyKey is the longest Idempotency-Key accepted.
const MaxIdempotencyKey = 255

// ErrIdempotencyKeyReused is the 422 for an Idempotency-Key already used with another
// request within the window.
func ErrIdempotencyKeyReused(window time.Duration) *restv2.Error {
	return restv2.Unprocessable("Idempotency-Key was already used with a different request in the last " +
		window.String() + "; use a new key for a new request")
}

// retryLater is a v2 error answered with Retry-After (the gateway reads RetryAfter of
// the wrapped ng.Error for 429 and 503).
type retryLater struct {
	ve    *restv2.Error
	after time.Duration
}

func (e *retryLater) Error() string { return e.ve.Error() }
func (e *retryLater) Unwrap() []error {
	return []error{e.ve, &ng.Error{Kind: ng.KindUnavailable, RetryAfter: e.after}}
}

// once runs write through the attempt ledger (state.Attempts.Once), answering the
// ledger's refusals as v2 errors: an Idempotency-Key reused with another request is
// ErrIdempotencyKeyReused, a wait for an identical write in flight that ctx ended is a
// 503 with Retry-After.
func (t *Translator) once(ctx context.Context, key, hash string, idem bool,
	write func(ctx context.Context, prev state.Previous) (show any, err error, unknown bool, sentMs int64)) (any, error) {
	v, err := t.st.Attempts.Once(ctx, key, hash, idem, t.now, write)
	switch {
	case errors.Is(err, state.ErrKeyReused):
		return nil, ErrIdempotencyKeyReused(t.st.Attempts.Window())
	case errors.Is(err, state.ErrStillRecording):
		return nil, &retryLater{ve: restv2.Unavailable("An identical request is still being recorded; " +
			"retry to get its outcome (it is not sent twice)"), after: time.Second}
	}
	return v, err
}

// attemptAnswers carries the answers a write records (deployments, applications)
// through the fleet's store (state.Answers). The v2 types have no JSON of their own:
// the stored names are Go field names.
type attemptAnswers struct{}

func (attemptAnswers) Kind(v any) string {
	switch v.(type) {
	case *restv2.DeploymentShow:
		return "deployment"
	case *restv2.ApplicationShow:
		return "application"
	}
	return ""
}

func (attemptAnswers) Decode(kind string, b []byte) any {
	var v any
	switch kind {
	case "deployment":
		v = new(restv2.DeploymentShow)
	case "application":
		v = new(restv2.ApplicationShow)
	default:
		return nil
	}
	if json.Unmarshal(b, v) != nil {
		return nil
	}
	return v
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
	return &retryLater{ve: restv2.Unavailable(fmt.Sprintf("An identical %s sent at %s got no answer and is not found yet; "+
		"it may still appear (New Relic lists new ones after a delay). It is not sent again: retry after %d seconds "+
		"(it is then answered if found, or recorded if it never arrived)", what, restv2.FormatTime(sent), max(secs, 1))), after: after}
}
