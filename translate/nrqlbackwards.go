package translate

import (
	"context"
	"encoding/json"
	"math"
	"time"

	gql "github.com/Khan/genqlient/graphql"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// readBackwards reads every row of query over [since, until) into values, newest
// first. A read that comes back full (MaxFacets rows) is followed by one that ends
// at its oldest row's millisecond + 1 (UNTIL is exclusive, so the rows of that
// instant come back whole), and a row whose key was already kept is dropped: the
// first read of a key saw all of its events, a later one only the older part.
// complete is false when rows were left unread: a full read of one millisecond (no
// progress), or maxReads reads.
func readBackwards[T any](ctx context.Context, client gql.Client, account int64, since, until time.Time, maxReads int,
	query func(since, until time.Time) (string, error),
	value func(raw json.RawMessage) (v T, key string, at int64, ok bool)) (values []T, complete bool, err error) {
	seen := map[string]bool{}
	end := until
	for reads := 1; ; reads++ {
		q, err := query(since, end)
		if err != nil {
			return values, false, err
		}
		resp, err := ng.NrqlQuery(ctx, client, int(account), q)
		if err != nil {
			return values, false, err
		}
		var rows []*json.RawMessage
		if acct := resp.GetActor().GetAccount(); acct != nil && acct.Nrql != nil {
			rows = acct.Nrql.Results
		}
		oldest := int64(math.MaxInt64)
		for _, row := range rows {
			if row == nil {
				continue
			}
			v, key, at, ok := value(*row)
			if at > 0 {
				oldest = min(oldest, at)
			}
			if !ok || seen[key] {
				continue
			}
			seen[key] = true
			values = append(values, v)
		}
		if len(rows) < MaxFacets {
			return values, true, nil
		}
		next := time.UnixMilli(oldest + 1)
		if oldest == math.MaxInt64 || !next.Before(end) || !since.Before(next) || reads == maxReads {
			return values, false, nil
		}
		end = next
	}
}
