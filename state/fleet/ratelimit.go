package fleet

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

func newScript(src string) *redis.Script { return redis.NewScript(src) }

// windowScript is REST v2's per-key fixed one-minute window, fleet-wide, in one
// atomic step: a call within the limit is counted, one beyond it is refused and not
// counted (as the replica's own limiter does, gateway/ratelimit.go). The window's key
// expires a second after the window ends. ARGV[3] is the calling replica's own count
// of the window, a floor: a store that restarted empty, or missed calls while it was
// down, takes the highest count a replica saw, so the window never starts again from
// full within its minute and every replica counts from the same figure again.
const windowScript = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local floor = tonumber(ARGV[3])
if c < floor then
  c = floor
  redis.call('SET', KEYS[1], c, 'PX', ARGV[2])
end
if c >= tonumber(ARGV[1]) then return {0, c} end
c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, c}`

var window = newScript(windowScript)

// Allow counts one call of keyHash (the SHA-256 of the caller's key, never the key) in
// the window starting at start and lasting length, against limit, from at least floor
// (the calls this replica has seen in the window). It returns the calls counted in the
// window, including this one when allowed. An error means the store did not answer in
// time: the caller falls back to its own count.
func (s *Store) Allow(ctx context.Context, keyHash string, limit int, start time.Time, length time.Duration, floor int) (ok bool, count int, err error) {
	if !s.usable() {
		return false, 0, s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	ttl := length + time.Second // the window's key outlives it by a second
	res, err := window.Run(c, s.rdb, []string{s.key("rl", keyHash, strconv.FormatInt(start.Unix(), 10))},
		limit, ttl.Milliseconds(), floor).Int64Slice()
	if err != nil || len(res) != 2 {
		if err == nil {
			err = redis.Nil
		}
		s.fail(err)
		return false, 0, err
	}
	return res[0] == 1, int(res[1]), nil
}

// Forget drops keyHash's windows (a key NerdGraph refused keeps no state).
func (s *Store) Forget(ctx context.Context, keyHash string, start time.Time) {
	if !s.usable() {
		return
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	if err := s.rdb.Del(c, s.key("rl", keyHash, strconv.FormatInt(start.Unix(), 10))).Err(); err != nil {
		s.fail(err)
	}
}
