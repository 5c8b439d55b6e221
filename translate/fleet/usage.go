package fleet

import (
	"context"
	"strconv"
	"strings"
)

// Usage report rows (gateway/fleetusage.go): every replica adds the calls it counted
// since its last flush to one hash; any replica's report reads the fleet's rows from
// it. Fields are "caller\tagent\troute\tkind" (caller: 8 hex characters of a key's
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

// usageScript adds ARGV's rows, six values each (row, count, errors, last seen,
// mode\tfidelity, account).
const usageScript = `
for i = 1, #ARGV, 6 do
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

// AddUsage adds deltas (counts since the last flush; LastSeen and the labels are the
// latest) to the fleet's rows.
func (s *Store) AddUsage(ctx context.Context, deltas []UsageRow) error {
	if len(deltas) == 0 {
		return nil
	}
	if !s.usable() {
		return s.Status()
	}
	args := make([]any, 0, 6*len(deltas))
	for _, d := range deltas {
		args = append(args, d.Caller+"\t"+d.Agent+"\t"+d.Route, d.Count, d.Errors, d.LastSeen, d.Mode+"\t"+d.Fidelity, d.Account)
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	if err := usage.Run(c, s.rdb, []string{s.key("usage")}, args...).Err(); err != nil {
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
