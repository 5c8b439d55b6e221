package sim

import (
	"sync"
	"time"
)

// NRQLBudget is NerdGraph's limit on NRQL queries made through its API: 3,000 per
// account per minute; past it, queries may be rejected until the count is back under
// the limit (newrelic/docs-website
// src/content/docs/nrql/using-nrql/rate-limits-nrql-queries.mdx). The simulator holds
// every account to it by default, counted per minute of its clock: a test on a frozen
// clock holds all its queries of an account to one minute's budget.
const NRQLBudget = 3000

// WithNRQLBudget sets the NRQL queries an account may make in one minute of the
// simulator's clock (default NRQLBudget; 0: no limit). A query past it, or a
// cross-account query past it on any of its accounts, is refused with a GraphQL error
// of errorClass TOO_MANY_REQUESTS; the shape of NerdGraph's own refusal is not
// published, so the simulator answers as it answers its other rate limits.
func WithNRQLBudget(n int) Option {
	return func(s *Server) { s.budget.limit = n }
}

// nrqlBudget counts each account's NRQL queries in the current minute.
type nrqlBudget struct {
	limit int

	mu     sync.Mutex
	minute time.Time
	spent  map[int]int
}

// take counts one query in each of accounts at now; false (nothing counted) when one
// of them has spent the minute's budget.
func (b *nrqlBudget) take(accounts []int, now time.Time) bool {
	if b.limit <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if m := now.Truncate(time.Minute); !m.Equal(b.minute) || b.spent == nil {
		b.minute, b.spent = m, map[int]int{}
	}
	for _, a := range accounts {
		if b.spent[a] >= b.limit {
			return false
		}
	}
	for _, a := range accounts {
		b.spent[a]++
	}
	return true
}

// NRQLQueries is how many NRQL queries account has made in the current minute of the
// simulator's clock (refused ones not counted).
func (s *Server) NRQLQueries(account int) int {
	s.budget.mu.Lock()
	defer s.budget.mu.Unlock()
	if !s.now().Truncate(time.Minute).Equal(s.budget.minute) {
		return 0
	}
	return s.budget.spent[account]
}
