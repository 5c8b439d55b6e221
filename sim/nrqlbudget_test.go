package sim_test

import (
	"context"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// An account's NRQL queries past the budget in one minute of the simulator's clock
// are refused as NerdGraph's rate limits are (TOO_MANY_REQUESTS), refused ones not
// counted; a cross-account query is refused when any of its accounts has spent the
// minute's budget; another account keeps its own; the next minute starts afresh.
func TestNRQLBudgetPerAccountPerMinute(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 30, 0, time.UTC)
	runner := sim.NRQLRunnerFunc(func(context.Context, []int, string, time.Time) ([]map[string]any, time.Time, time.Time, error) {
		return []map[string]any{{"count": 1}}, time.Time{}, time.Time{}, nil
	})
	h := demoHarness(t, sim.WithNRQL(runner), sim.WithClock(func() time.Time { return now }), sim.WithNRQLBudget(2))
	one := `{ actor { account(id: 1000001) { nrql(query: "SELECT 1") { results } } } }`
	two := `{ actor { account(id: 1000002) { nrql(query: "SELECT 1") { results } } } }`
	both := `{ actor { nrql(accounts: [1000001, 1000002], query: "SELECT 1") { results } } }`
	steps := []struct {
		name, key, query string
		refused          bool
	}{
		{"first of account 1", keyOne, one, false},
		{"second of account 1", keyOne, one, false},
		{"third of account 1: past the budget", keyOne, one, true},
		{"cross-account, account 1 spent", keyMulti, both, true},
		{"account 2 keeps its own", keyMulti, two, false},
		{"cross-account, account 1 still spent", keyMulti, both, true},
		{"next minute", keyOne, one, false},
		{"next minute, cross-account", keyMulti, both, false},
		{"next minute, account 2's second", keyMulti, two, false},
		{"next minute, account 2's third", keyMulti, two, true},
	}
	for _, s := range steps {
		if s.name == "next minute" {
			now = now.Add(time.Minute)
		}
		var out any
		errs := h.query(t, s.key, s.query, nil, &out)
		if got := hasError(errs, "TOO_MANY_REQUESTS", "NRQL query limit"); got != s.refused {
			t.Errorf("%s: refused %v, want %v (%v)", s.name, got, s.refused, errs)
		}
	}
	if n := h.sim.NRQLQueries(1000001); n != 2 {
		t.Errorf("account 1's queries this minute: %d, want 2", n)
	}
}
