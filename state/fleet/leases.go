package fleet

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NerdGraph concurrency leases (graphql/leases.go): a sorted set per user key hash
// whose members are lease ids scored by their expiry (ms). Taking a lease first drops
// the expired ones, so a replica that died holding leases frees them after the ttl.

// leaseScript takes one of ARGV[2] leases at time ARGV[1] (ms) for ARGV[4] ms under the
// id ARGV[3]; 1 taken, 0 all held.
const leaseScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[4]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`

var lease = newScript(leaseScript)

// leaseWait is how long a caller waits before asking again for a lease that all others
// hold (doubling up to leaseWaitMax).
const (
	leaseWait    = 2 * time.Millisecond
	leaseWaitMax = 50 * time.Millisecond
)

// AcquireLease waits until one of n leases of keyHash is free, or ctx ends, and
// returns its release. An error that is not ctx's means the store is down (the
// caller goes ahead under its own bound).
func (s *Store) AcquireLease(ctx context.Context, keyHash string, n int, ttl time.Duration) (func(), error) {
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	key := s.key("leases", keyHash)
	wait := leaseWait
	for {
		if !s.usable() {
			return nil, s.Status()
		}
		c, cancel := s.ctx(ctx)
		got, err := lease.Run(c, s.rdb, []string{key}, time.Now().UnixMilli(), n, id, ttl.Milliseconds()).Int()
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.fail(err)
			return nil, err
		}
		if got == 1 {
			return func() {
				c, cancel := s.ctx(context.Background())
				defer cancel()
				if err := s.rdb.ZRem(c, key, id).Err(); err != nil {
					s.fail(err) // the lease expires with its ttl
				}
			}, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, leaseWaitMax)
	}
}
