package translate

import (
	"context"
	"encoding/json"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// SharedDeployments keeps the deployments recorded through any replica in the last
// DeploymentMemory (fleet mode, issue 21; translate/fleet.Store): a deployments list
// through another replica shows them before NRDB has ingested them, and a new
// deployment's timestamp must be later than them (the "later than the latest" rule of
// CreateDeployment). The per-application lock stays per replica (declared). Errors
// mean the store is down: this replica's memory only.
type SharedDeployments interface {
	// RememberDeployment appends rec to the list id for ttl.
	RememberDeployment(ctx context.Context, id string, rec []byte, ttl time.Duration) error
	// RecalledDeployments returns the list id.
	RecalledDeployments(ctx context.Context, id string) ([][]byte, error)
}

type sharedDeployment struct {
	D  v2.Deployment `json:"d"`
	At time.Time     `json:"at"`
}

func (l *deployLedger) rememberShared(key string, d v2.Deployment, now time.Time) {
	if l.shared == nil {
		return
	}
	b, err := json.Marshal(sharedDeployment{D: d, At: now})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedAttemptTimeout)
	defer cancel()
	_ = l.shared.RememberDeployment(ctx, attemptID(key), b, DeploymentMemory)
}

// recalledShared adds the fleet's deployments of key (recorded within
// DeploymentMemory of now) that local lacks.
func (l *deployLedger) recalledShared(key string, now time.Time, local []v2.Deployment) []v2.Deployment {
	if l.shared == nil {
		return local
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedAttemptTimeout)
	defer cancel()
	recs, err := l.shared.RecalledDeployments(ctx, attemptID(key))
	if err != nil {
		return local
	}
	seen := map[int64]bool{}
	for _, d := range local {
		seen[d.ID] = true
	}
	for _, b := range recs {
		var r sharedDeployment
		if json.Unmarshal(b, &r) != nil || seen[r.D.ID] || now.Sub(r.At) >= DeploymentMemory {
			continue
		}
		seen[r.D.ID] = true
		local = append(local, r.D)
	}
	return local
}
