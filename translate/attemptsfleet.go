package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// SharedAttempts keeps write attempt records (attempts.go) fleet-wide (fleet mode,
// issue 21; translate/fleet.Store): a retry after an unknown outcome on one replica,
// sent to another, finds the record there and looks the write up instead of sending it
// again; an Idempotency-Key replays its 201 through any replica. Only settled records
// are shared (unknown outcomes, and successes under an Idempotency-Key): identical
// requests overlapping in time on two replicas are two writes, as on two islands.
// Errors mean the store is down: the record stays this replica's (declared: duplicate
// protection degrades to per replica).
type SharedAttempts interface {
	// LoadAttempt returns the record stored under id (nil, nil: none).
	LoadAttempt(ctx context.Context, id string) ([]byte, error)
	// SaveAttempt stores rec under id for ttl.
	SaveAttempt(ctx context.Context, id string, rec []byte, ttl time.Duration) error
	// DeleteAttempt drops id's record.
	DeleteAttempt(ctx context.Context, id string) error
}

// sharedAttemptTimeout bounds one record's load or save (the store's own timeout is
// shorter; this only guards a caller whose context has none).
const sharedAttemptTimeout = time.Second

// sharedAttempt is an attempt record as stored. Answers are kept as JSON with their
// type named (the v2 types have no JSON of their own: these are Go field names).
type sharedAttempt struct {
	Hash     string          `json:"hash"`
	Idem     bool            `json:"idem,omitempty"`
	Unknown  bool            `json:"unknown,omitempty"`
	Sent     time.Time       `json:"sent"`
	SentMs   int64           `json:"sent_ms,omitempty"`
	At       time.Time       `json:"at"`
	Kind     string          `json:"kind,omitempty"`
	Recorded json.RawMessage `json:"recorded,omitempty"`
	Memo     json.RawMessage `json:"memo,omitempty"`
}

// attemptID is the store's name of a record: the SHA-256 of its key (which starts with
// the caller's key hash and may hold the caller's Idempotency-Key).
func attemptID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func answerKind(v any) string {
	switch v.(type) {
	case *v2.DeploymentShow:
		return "deployment"
	case *v2.ApplicationShow:
		return "application"
	}
	return ""
}

func decodeAnswer(kind string, b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	var v any
	switch kind {
	case "deployment":
		v = new(v2.DeploymentShow)
	case "application":
		v = new(v2.ApplicationShow)
	default:
		return nil
	}
	if json.Unmarshal(b, v) != nil {
		return nil
	}
	return v
}

// seed copies the fleet's record of key into the ledger when this replica has none.
func (l *attemptLedger) seed(ctx context.Context, key string) {
	l.mu.Lock()
	_, local := l.m[key]
	l.mu.Unlock()
	if local {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, sharedAttemptTimeout)
	defer cancel()
	b, err := l.shared.LoadAttempt(ctx, attemptID(key))
	if err != nil || b == nil {
		return
	}
	var s sharedAttempt
	if json.Unmarshal(b, &s) != nil {
		return
	}
	a := &attempt{hash: s.Hash, idem: s.Idem, unknown: s.Unknown, sent: s.Sent, sentMs: s.SentMs, at: s.At,
		recorded: decodeAnswer(s.Kind, s.Recorded), memo: decodeAnswer(s.Kind, s.Memo), fleet: true}
	if s.Idem && !s.Unknown && a.recorded == nil {
		return // an answer of a type this build does not know: not replayable
	}
	l.mu.Lock()
	if _, ok := l.m[key]; !ok {
		l.makeRoom(s.At)
		l.m[key] = a
	}
	l.mu.Unlock()
}

// share stores a's settled state fleet-wide (or drops the fleet's record when the
// ledger dropped it), before the caller gets its answer: a retry through another
// replica finds it.
func (l *attemptLedger) share(ctx context.Context, key string, a *attempt) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedAttemptTimeout)
	defer cancel()
	l.mu.Lock()
	kept := l.m[key] == a && a.fl == nil && (a.unknown || a.recorded != nil)
	s := sharedAttempt{Hash: a.hash, Idem: a.idem, Unknown: a.unknown, Sent: a.sent, SentMs: a.sentMs, At: a.at}
	recorded, memo := a.recorded, a.memo
	wasShared := a.fleet
	if kept {
		a.fleet = true
	}
	l.mu.Unlock()
	id := attemptID(key)
	if !kept {
		if wasShared {
			_ = l.shared.DeleteAttempt(ctx, id)
		}
		return
	}
	for _, v := range []any{recorded, memo} {
		if k := answerKind(v); k != "" {
			s.Kind = k
		}
	}
	if recorded != nil {
		s.Recorded, _ = json.Marshal(recorded)
	}
	if memo != nil {
		s.Memo, _ = json.Marshal(memo)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return
	}
	ttl := l.window // the record lives the ledger's window from now
	_ = l.shared.SaveAttempt(ctx, id, b, ttl)
}
