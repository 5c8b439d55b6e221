package fleet

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Recent deployments (state/deploysfleet.go): a list per caller and application
// (named by the SHA-256 of the translator's key), expiring DeploymentMemory after the
// last one recorded.

// maxRecentDeployments bounds one list (older entries are trimmed).
const maxRecentDeployments = 100

// RememberDeployment appends rec to the list id for ttl.
func (s *Store) RememberDeployment(ctx context.Context, id string, rec []byte, ttl time.Duration) error {
	if !s.usable() {
		return s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	k := s.key("deploys", id)
	_, err := s.rdb.TxPipelined(c, func(p redis.Pipeliner) error {
		p.RPush(c, k, rec)
		p.LTrim(c, k, -maxRecentDeployments, -1)
		p.PExpire(c, k, ttl)
		return nil
	})
	if err != nil {
		s.fail(err)
	}
	return err
}

// RecalledDeployments returns the list id.
func (s *Store) RecalledDeployments(ctx context.Context, id string) ([][]byte, error) {
	if !s.usable() {
		return nil, s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	vals, err := s.rdb.LRange(c, s.key("deploys", id), 0, -1).Result()
	if err != nil {
		s.fail(err)
		return nil, err
	}
	out := make([][]byte, len(vals))
	for i, v := range vals {
		out[i] = []byte(v)
	}
	return out, nil
}

// LockApplication waits until the fleet-wide lock id (one application's deployment
// check-and-record) is free, or ctx ends, and returns its release. The lock is a lease
// of one (leases.go) expiring after ttl, so a replica that dies holding it frees it.
// An error that is not ctx's means the store is down (the caller goes ahead under its
// replica's own lock).
func (s *Store) LockApplication(ctx context.Context, id string, ttl time.Duration) (func(), error) {
	return s.AcquireLease(ctx, "deploy:"+id, 1, ttl)
}
