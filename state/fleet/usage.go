package fleet

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/v2bridge/v2bridge/state"
)

// Usage report rows (migrate/fleetusage.go): every replica adds the calls it counted
// since its last flush to one hash; any replica's report reads the fleet's rows from
// it. Each push carries the replica's id and a sequence number, and the script applies
// a push only once (the last number applied per replica is kept in a second hash, for
// usageSeqTTL), so a push resent after its answer was lost is not counted twice. Fields are "caller\tagent\troute\tkind" (caller: 8 hex characters of a key's
// SHA-256, never the key; kind c count, e errors, s last seen (Unix seconds), m
// "mode\tfidelity", a account).
//
// A third key holds the rows' epoch, a name the first push into an empty store sets
// and no push changes. A replica pushes into the epoch it last pushed into: a store
// that restarted empty (its epoch gone, or set anew by another replica since) refuses
// the push with state.ErrUsageLost, and the replica adds its whole book again, as the
// rate-limit window takes a replica's own count as its floor.

// usageSeqTTL is how long a replica's last applied push number is kept after its last
// push (a resend after longer is applied again).
const usageSeqTTL = 24 * time.Hour

// usageScript applies push ARGV[2] of replica ARGV[1] into epoch ARGV[4] ("": the
// replica's first push, into whichever epoch the store holds) unless it was applied
// already ({0, epoch}), then adds ARGV[6..]'s rows, six values each (row, count,
// errors, last seen, mode\tfidelity, account), and answers {1, epoch}. An empty store
// takes ARGV[5] as its epoch; a push into another epoch than the store's is refused
// ({-1, epoch}). KEYS[1] is the rows, KEYS[2] the last push per replica, KEYS[3] the
// epoch.
const usageScript = `
local epoch = redis.call('GET', KEYS[3])
if ARGV[4] ~= '' and ARGV[4] ~= epoch then return {-1, epoch or ''} end
if not epoch then
  epoch = ARGV[5]
  redis.call('SET', KEYS[3], epoch)
end
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if tonumber(ARGV[2]) <= last then return {0, epoch} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
for i = 6, #ARGV, 6 do
  local f = ARGV[i]
  redis.call('HINCRBY', KEYS[1], f .. '\tc', ARGV[i+1])
  redis.call('HINCRBY', KEYS[1], f .. '\te', ARGV[i+2])
  local s = tonumber(redis.call('HGET', KEYS[1], f .. '\ts') or '0')
  if tonumber(ARGV[i+3]) > s then redis.call('HSET', KEYS[1], f .. '\ts', ARGV[i+3]) end
  redis.call('HSET', KEYS[1], f .. '\tm', ARGV[i+4])
  if ARGV[i+5] ~= '0' then redis.call('HSET', KEYS[1], f .. '\ta', ARGV[i+5]) end
end
return {1, epoch}`

var usage = newScript(usageScript)

// AddUsage adds deltas (counts since the last push; LastSeen and the labels are the
// latest) to the fleet's rows, as push seq (from 1, increasing) of replica: a push
// already applied is not applied again, so a push whose answer was lost is resent
// with the same seq and deltas.
func (s *Store) AddUsage(ctx context.Context, replica string, seq uint64, deltas []state.UsageRow) error {
	_, err := s.AddUsageIn(ctx, "", replica, replica, seq, deltas)
	return err
}

// AddUsageIn is AddUsage into epoch ("": the store's, whichever it holds), which an
// empty store takes from proposed. It returns the epoch the push went into, or
// state.ErrUsageLost when the store no longer holds epoch.
func (s *Store) AddUsageIn(ctx context.Context, epoch, proposed, replica string, seq uint64, deltas []state.UsageRow) (string, error) {
	if len(deltas) == 0 {
		return epoch, nil
	}
	if !s.usable() {
		return "", s.Status()
	}
	args := make([]any, 0, 5+6*len(deltas))
	args = append(args, replica, seq, usageSeqTTL.Milliseconds(), epoch, proposed)
	for _, d := range deltas {
		args = append(args, d.Caller+"\t"+d.Agent+"\t"+d.Route, d.Count, d.Errors, d.LastSeen, d.Mode+"\t"+d.Fidelity, d.Account)
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	res, err := usage.Run(c, s.rdb, []string{s.key("usage"), s.key("usage-seq"), s.key("usage-epoch")}, args...).Slice()
	if err != nil || len(res) != 2 {
		if err == nil {
			err = errors.New("fleet store: unexpected answer to a usage push")
		}
		s.fail(err)
		return "", err
	}
	got, _ := res[1].(string)
	if n, _ := res[0].(int64); n < 0 {
		return got, state.ErrUsageLost
	}
	return got, nil
}

// UsageEpoch is the epoch of the store's usage rows ("" when it holds none).
func (s *Store) UsageEpoch(ctx context.Context) (string, error) {
	if !s.usable() {
		return "", s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	e, err := s.rdb.Get(c, s.key("usage-epoch")).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	if err != nil {
		s.fail(err)
		return "", err
	}
	return e, nil
}

// Usage reads the fleet's rows.
func (s *Store) Usage(ctx context.Context) ([]state.UsageRow, error) {
	if !s.usable() {
		return nil, s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	m, err := s.rdb.HGetAll(c, s.key("usage")).Result()
	if err != nil {
		s.fail(err)
		return nil, err
	}
	rows := map[string]*state.UsageRow{}
	for field, v := range m {
		parts := strings.Split(field, "\t")
		if len(parts) != 4 {
			continue
		}
		id := parts[0] + "\t" + parts[1] + "\t" + parts[2]
		r := rows[id]
		if r == nil {
			r = &state.UsageRow{Caller: parts[0], Agent: parts[1], Route: parts[2]}
			rows[id] = r
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		switch parts[3] {
		case "c":
			r.Count = n
		case "e":
			r.Errors = n
		case "s":
			r.LastSeen = n
		case "a":
			r.Account = n
		case "m":
			r.Mode, r.Fidelity, _ = strings.Cut(v, "\t")
		}
	}
	out := make([]state.UsageRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	return out, nil
}
