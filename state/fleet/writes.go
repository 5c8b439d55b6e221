package fleet

import (
	"context"
	"maps"
	"strconv"
)

// Write counts (write retirement): the count of writes made through the
// fleet per account lives in one hash; a write increments it and publishes
// "account=count" on the writes channel, and every replica raises its own count to it,
// which retires its cached reads of the account at once. The stored hash is reloaded
// on every (re)subscription and every probeEvery, so a replica that missed a message
// catches up.

// WatchWrites registers fn to hear of every fleet write count (published, reloaded,
// or returned by BumpWrites), first of every count heard before it registered (those
// Open loaded among them). fn must be cheap and must not call the store.
func (s *Store) WatchWrites(fn func(account int64, count uint64)) {
	s.mu.Lock()
	s.watchers = append(s.watchers, fn)
	known := maps.Clone(s.counts)
	s.mu.Unlock()
	for account, count := range known {
		fn(account, count)
	}
}

func (s *Store) notify(account int64, count uint64) {
	s.mu.Lock()
	if s.counts == nil {
		s.counts = map[int64]uint64{}
	}
	s.counts[account] = max(s.counts[account], count)
	ws := s.watchers
	s.mu.Unlock()
	for _, fn := range ws {
		fn(account, count)
	}
}

// BumpWrites counts one write to account fleet-wide and returns the fleet's count.
// While the store is down the write is remembered and replayed when it returns (the
// other replicas then retire their reads of the account, late but surely).
func (s *Store) BumpWrites(ctx context.Context, account int64) (uint64, error) {
	if !s.usable() {
		s.mu.Lock()
		s.pending[account]++
		s.mu.Unlock()
		return 0, s.Status()
	}
	n, err := s.publishBump(ctx, account, 1)
	if err != nil {
		s.fail(err)
		s.mu.Lock()
		s.pending[account]++
		s.mu.Unlock()
		return 0, err
	}
	return n, nil
}

// bumpScript increments an account's count and publishes the new one, atomically (a
// subscriber never sees a count the hash does not hold yet).
const bumpScript = `
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
redis.call('PUBLISH', KEYS[2], ARGV[1] .. '=' .. n)
return n`

var bump = newScript(bumpScript)

func (s *Store) publishBump(ctx context.Context, account int64, by uint64) (uint64, error) {
	c, cancel := s.ctx(ctx)
	defer cancel()
	n, err := bump.Run(c, s.rdb, []string{s.key("writes"), s.key("writes")},
		strconv.FormatInt(account, 10), strconv.FormatUint(by, 10)).Int64()
	if err != nil {
		return 0, err
	}
	return uint64(n), nil
}

// replay sends the writes counted while the store was down.
func (s *Store) replay(ctx context.Context) {
	s.mu.Lock()
	pending := s.pending
	s.pending = map[int64]uint64{}
	s.mu.Unlock()
	for account, by := range pending {
		n, err := s.publishBump(ctx, account, by)
		if err != nil {
			s.fail(err)
			s.mu.Lock()
			s.pending[account] += by
			s.mu.Unlock()
			continue
		}
		s.notify(account, n)
	}
}

// reload reads every stored count and tells the watchers.
func (s *Store) reload(ctx context.Context) {
	if !s.usable() {
		return
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	m, err := s.rdb.HGetAll(c, s.key("writes")).Result()
	if err != nil {
		if ctx.Err() == nil {
			s.fail(err)
		}
		return
	}
	for a, v := range m {
		account, err1 := strconv.ParseInt(a, 10, 64)
		count, err2 := strconv.ParseUint(v, 10, 64)
		if err1 == nil && err2 == nil {
			s.notify(account, count)
		}
	}
}
