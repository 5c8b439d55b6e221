package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// SharedAttempts keeps write attempt records (attempts.go) fleet-wide (fleet mode;
// state/fleet.Store): a retry after an unknown outcome on one replica, sent to another,
// finds the record there and looks the write up instead of sending it again; an
// Idempotency-Key replays its answer through any replica. Only settled records are
// shared (unknown outcomes, and successes under an Idempotency-Key): identical
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

// Answers names the answers a ledger holds and reads them back from the fleet's store:
// the ledger keeps them as JSON with their kind.
type Answers interface {
	// Kind names v's type ("": not one the store carries).
	Kind(v any) string
	// Decode reads an answer of kind from b (nil: an unknown kind, or b does not read).
	Decode(kind string, b []byte) any
}

// Share keeps the ledger's settled records in the fleet's store too, their answers
// carried by answers. Call it before the ledger is used.
func (l *Attempts) Share(shared SharedAttempts, answers Answers) {
	l.shared, l.answers = shared, answers
}

// sharedAttempt is an attempt record as stored. Answers are kept as JSON with their
// kind named.
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

// RecordID is the store's name of a record kept under key: the SHA-256 of the key
// (which starts with the caller's key hash and may hold the caller's Idempotency-Key).
func RecordID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func (l *Attempts) decode(kind string, b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return l.answers.Decode(kind, b)
}

// seed copies the fleet's record of key into the ledger when this replica has none,
// and reconciles a settled record this replica kept while the store was down: the
// store's record, when it has one, replaces it (every replica then replays the same
// answer, the first one stored); else this replica's is stored and the store's is
// read back, so two replicas reconciling at once end on one.
func (l *Attempts) seed(ctx context.Context, key string) {
	l.mu.Lock()
	a, local := l.m[key]
	pending := local && !a.fleet && a.fl == nil && (a.unknown || a.recorded != nil)
	l.mu.Unlock()
	if local && !pending {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, SharedTimeout)
	defer cancel()
	id := RecordID(key)
	b, err := l.shared.LoadAttempt(ctx, id)
	if err != nil {
		return // still down: the record stays this replica's, pending
	}
	if b == nil && pending {
		l.share(ctx, key, a)
		if b, err = l.shared.LoadAttempt(ctx, id); err != nil || b == nil {
			return
		}
	}
	if b == nil {
		return
	}
	var s sharedAttempt
	if json.Unmarshal(b, &s) != nil {
		return
	}
	fleetA := &attempt{hash: s.Hash, idem: s.Idem, unknown: s.Unknown, sent: s.Sent, sentMs: s.SentMs, at: s.At,
		recorded: l.decode(s.Kind, s.Recorded), memo: l.decode(s.Kind, s.Memo), fleet: true}
	if s.Idem && !s.Unknown && fleetA.recorded == nil {
		return // an answer of a type this build does not know: not replayable
	}
	l.mu.Lock()
	switch cur, ok := l.m[key]; {
	case !ok:
		l.makeRoom(s.At)
		l.m[key] = fleetA
	case cur == a && pending && cur.fl == nil:
		l.m[key] = fleetA // the fleet's answer wins over this replica's outage record
	}
	l.mu.Unlock()
}

// share stores a's settled state fleet-wide (or drops the fleet's record when the
// ledger dropped it), before the caller gets its answer: a retry through another
// replica finds it.
func (l *Attempts) share(ctx context.Context, key string, a *attempt) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), SharedTimeout)
	defer cancel()
	l.mu.Lock()
	kept := l.m[key] == a && a.fl == nil && (a.unknown || a.recorded != nil)
	s := sharedAttempt{Hash: a.hash, Idem: a.idem, Unknown: a.unknown, Sent: a.sent, SentMs: a.sentMs, At: a.at}
	recorded, memo := a.recorded, a.memo
	wasShared := a.fleet
	l.mu.Unlock()
	id := RecordID(key)
	if !kept {
		if wasShared {
			_ = l.shared.DeleteAttempt(ctx, id)
		}
		return
	}
	for _, v := range []any{recorded, memo} {
		if v == nil {
			continue
		}
		if k := l.answers.Kind(v); k != "" {
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
	if l.shared.SaveAttempt(ctx, id, b, ttl) == nil {
		l.mu.Lock()
		a.fleet = true // else pending: reconciled on its key's next use (seed)
		l.mu.Unlock()
	}
}
