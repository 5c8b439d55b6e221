package fleet

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Usage report rows (migrate/fleetusage.go): every replica adds the calls it counted
// since its last flush to one hash; any replica's report reads the fleet's rows from
// it. Each push carries the replica's id and a sequence number, and the script applies
// a push only once (the last number applied per replica is kept in a second hash, for
// usageSeqTTL), so a push resent after its answer was lost is not counted twice. Fields are "caller\tagent\troute\tkind" (caller: 8 hex characters of a key's
// SHA-256, never the key; kind c count, e errors, s last seen (Unix seconds), m
// "mode\tfidelity", a account).

// UsageRow is one row of the usage report: calls of one caller, User-Agent product
// and route.
type UsageRow struct {
	Caller, Agent, Route, Mode, Fidelity string
	Account                              int64
	Count, Errors                        int64
	LastSeen                             int64 // Unix seconds
}

// usageSeqTTL is how long a replica's last applied push number is kept after its last
// push (a resend after longer is applied again).
const usageSeqTTL = 24 * time.Hour

// usageScript applies push ARGV[2] of replica ARGV[1] unless it was applied already
// (0), then adds ARGV[4..]'s rows, six values each (row, count, errors, last seen,
// mode\tfidelity, account); KEYS[1] is the rows, KEYS[2] the last push per replica.
const usageScript = `
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if tonumber(ARGV[2]) <= last then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
for i = 4, #ARGV, 6 do
  local f = ARGV[i]
  redis.call('HINCRBY', KEYS[1], f .. '\tc', ARGV[i+1])
  redis.call('HINCRBY', KEYS[1], f .. '\te', ARGV[i+2])
  local s = tonumber(redis.call('HGET', KEYS[1], f .. '\ts') or '0')
  if tonumber(ARGV[i+3]) > s then redis.call('HSET', KEYS[1], f .. '\ts', ARGV[i+3]) end
  redis.call('HSET', KEYS[1], f .. '\tm', ARGV[i+4])
  if ARGV[i+5] ~= '0' then redis.call('HSET', KEYS[1], f .. '\ta', ARGV[i+5]) end
end
return 1`

var usage = newScript(usageScript)

// AddUsage adds deltas (counts since the last push; LastSeen and the labels are the
// latest) to the fleet's rows, as push seq (from 1, increasing) of replica: a push
// already applied is not applied again, so a push whose answer was lost is resent
// with the same seq and deltas.
func (s *Store) AddUsage(ctx context.Context, replica string, seq uint64, deltas []UsageRow) error {
	if len(deltas) == 0 {
		return nil
	}
	if !s.usable() {
		return s.Status()
	}
	args := make([]any, 0, 3+6*len(deltas))
	args = append(args, replica, seq, usageSeqTTL.Milliseconds())
	for _, d := range deltas {
		args = append(args, d.Caller+"\t"+d.Agent+"\t"+d.Route, d.Count, d.Errors, d.LastSeen, d.Mode+"\t"+d.Fidelity, d.Account)
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	if err := usage.Run(c, s.rdb, []string{s.key("usage"), s.key("usage-seq")}, args...).Err(); err != nil {
		s.fail(err)
		return err
	}
	return nil
}

// Usage reads the fleet's rows.
func (s *Store) Usage(ctx context.Context) ([]UsageRow, error) {
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
	rows := map[string]*UsageRow{}
	for field, v := range m {
		parts := strings.Split(field, "\t")
		if len(parts) != 4 {
			continue
		}
		id := parts[0] + "\t" + parts[1] + "\t" + parts[2]
		r := rows[id]
		if r == nil {
			r = &UsageRow{Caller: parts[0], Agent: parts[1], Route: parts[2]}
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
	out := make([]UsageRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	return out, nil
}
