package state

import (
	"context"
	"encoding/json"
	"strconv"
	"time"
)

// SharedDeployments keeps the deployments recorded through any replica in the memory
// period (fleet mode; state/fleet.Store): a deployments list through another replica
// shows them before NRDB has ingested them, and a new deployment's timestamp must be
// later than them (the "later than the latest" rule of the translator's
// CreateDeployment). The per-application lock of the check-and-record is fleet-wide
// too (LockApplication), so two replicas cannot both pass the "later than the latest"
// rule. Errors mean the store is down: this replica's memory and lock only.
type SharedDeployments interface {
	// LockApplication waits for the fleet-wide lock id (or ctx) and returns its
	// release; the lock expires after ttl. An error other than ctx's: the store is down.
	LockApplication(ctx context.Context, id string, ttl time.Duration) (func(), error)
	// RememberDeployment appends rec to the list id for ttl.
	RememberDeployment(ctx context.Context, id string, rec []byte, ttl time.Duration) error
	// RecalledDeployments returns the list id.
	RecalledDeployments(ctx context.Context, id string) ([][]byte, error)
}

// Share keeps the ledger's deployments, and its locks, in the fleet's store too. Call
// it before the ledger is used.
func (l *Deploys[D]) Share(shared SharedDeployments) { l.shared = shared }

type sharedDeployment[D any] struct {
	D  D         `json:"d"`
	At time.Time `json:"at"`
}

func (l *Deploys[D]) rememberShared(key string, d D, now time.Time) {
	if l.shared == nil {
		return
	}
	b, err := json.Marshal(sharedDeployment[D]{D: d, At: now})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), SharedTimeout)
	defer cancel()
	_ = l.shared.RememberDeployment(ctx, RecordID(key), b, l.memory)
}

// recalledShared adds the fleet's deployments of key (recorded within the memory
// period before now) that local lacks.
func (l *Deploys[D]) recalledShared(key string, now time.Time, local []D) []D {
	if l.shared == nil {
		return local
	}
	ctx, cancel := context.WithTimeout(context.Background(), SharedTimeout)
	defer cancel()
	recs, err := l.shared.RecalledDeployments(ctx, RecordID(key))
	if err != nil {
		return local
	}
	seen := map[int64]bool{}
	for _, d := range local {
		seen[l.id(d)] = true
	}
	for _, b := range recs {
		var r sharedDeployment[D]
		if json.Unmarshal(b, &r) != nil || seen[l.id(r.D)] || now.Sub(r.At) >= l.memory {
			continue
		}
		seen[l.id(r.D)] = true
		local = append(local, r.D)
	}
	return local
}

// deployLockTTL bounds how long a replica holds an application's fleet-wide lock when
// it dies holding it: longer than a check-and-record takes (two NerdGraph calls, each
// bounded by the client's timeout).
const deployLockTTL = 30 * time.Second

// lockShared takes the application's fleet-wide lock after this replica's own: it
// returns ctx's error if ctx ends first, and a no-op release when the store is down
// (the replica's own lock still serialises its requests).
func (l *Deploys[D]) lockShared(ctx context.Context, accountID, appID int64) (func(), error) {
	if l.shared == nil {
		return func() {}, nil
	}
	release, err := l.shared.LockApplication(ctx, strconv.FormatInt(accountID, 10)+":"+strconv.FormatInt(appID, 10), deployLockTTL)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return func() {}, nil
	}
	return release, nil
}
