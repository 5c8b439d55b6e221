package sim_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

type classedError struct{}

func (classedError) Error() string      { return "NRQL Syntax Error: unexpected 'FORM'" }
func (classedError) ErrorClass() string { return "INVALID_INPUT" }

func TestNRQL(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var (
		mu    sync.Mutex
		calls [][]int
	)
	runner := sim.NRQLRunnerFunc(func(ctx context.Context, accounts []int, query string, at time.Time) ([]map[string]any, time.Time, time.Time, error) {
		mu.Lock()
		calls = append(calls, accounts)
		mu.Unlock()
		if !at.Equal(now) {
			return nil, time.Time{}, time.Time{}, errors.New("clock not passed through")
		}
		switch query {
		case "SELECT bad FORM x":
			return nil, time.Time{}, time.Time{}, classedError{}
		case "SELECT sleep()":
			<-ctx.Done()
			return nil, time.Time{}, time.Time{}, ctx.Err()
		}
		return []map[string]any{{"count": 42, "appName": "x"}}, now.Add(-time.Hour), now, nil
	})
	h := demoHarness(t, sim.WithNRQL(runner), sim.WithClock(func() time.Time { return now }))

	t.Run("account nrql", func(t *testing.T) {
		var out struct {
			Actor struct {
				Account struct {
					Q struct {
						Nrql     string
						Results  []map[string]any
						Metadata struct{ TimeWindow struct{ Begin, End int64 } }
					}
				}
			}
		}
		h.mustQuery(t, keyOne, `{ actor { account(id: 1000001) { q: nrql(query: "SELECT count(*) FROM Transaction", timeout: 30) { nrql results metadata { timeWindow { begin end } } } } } }`, nil, &out)
		q := out.Actor.Account.Q
		if len(q.Results) != 1 || q.Results[0]["count"] != float64(42) || q.Nrql != "SELECT count(*) FROM Transaction" {
			t.Errorf("result %+v", q)
		}
		if q.Metadata.TimeWindow.Begin != now.Add(-time.Hour).UnixMilli() || q.Metadata.TimeWindow.End != now.UnixMilli() {
			t.Errorf("time window %+v", q.Metadata.TimeWindow)
		}
	})
	t.Run("cross-account nrql", func(t *testing.T) {
		var out struct {
			Actor struct {
				Nrql struct{ Results []map[string]any }
			}
		}
		h.mustQuery(t, keyMulti, `{ actor { nrql(accounts: [1000001, 1000002], query: "SELECT 1") { results } } }`, nil, &out)
		if len(out.Actor.Nrql.Results) != 1 {
			t.Errorf("results %+v", out.Actor.Nrql.Results)
		}
		mu.Lock()
		defer mu.Unlock()
		if last := calls[len(calls)-1]; !slices.Equal(last, []int{acctOne, acctTwo}) {
			t.Errorf("runner got accounts %v", last)
		}
	})
	errCases := []struct {
		name  string
		key   string
		query string
		class string
		msg   string
	}{
		{name: "cross-account nrql outside the key", key: keyOne, query: `{ actor { nrql(accounts: [1000001, 1000002], query: "SELECT 1") { results } } }`, class: "FORBIDDEN", msg: "1000002"},
		{name: "runner error class", key: keyOne, query: `{ actor { account(id: 1000001) { nrql(query: "SELECT bad FORM x") { results } } } }`, class: "INVALID_INPUT", msg: "NRQL Syntax Error"},
		{name: "timeout", key: keyOne, query: `{ actor { account(id: 1000001) { nrql(query: "SELECT sleep()", timeout: 0.05) { results } } } }`, class: "TIMEOUT", msg: "timed out"},
	}
	for _, tt := range errCases {
		t.Run(tt.name, func(t *testing.T) {
			if errs := h.query(t, tt.key, tt.query, nil, nil); !hasError(errs, tt.class, tt.msg) {
				t.Fatalf("errors %+v, want %s %q", errs, tt.class, tt.msg)
			}
		})
	}
}

func TestNRQLDisabled(t *testing.T) {
	h := demoHarness(t)
	var out struct {
		Actor struct {
			Account struct{ Nrql *struct{ Results []any } }
			User    struct{ ID int }
		}
	}
	errs := h.query(t, keyOne, `{ actor { user { id } account(id: 1000001) { nrql(query: "SELECT 1") { results } } } }`, nil, &out)
	if !hasError(errs, "", "NRQL is not enabled in this simulator") || out.Actor.Account.Nrql != nil || out.Actor.User.ID == 0 {
		t.Fatalf("errors %+v data %+v; want the NRQL error next to the other data", errs, out)
	}
}
