package sim

import (
	"strconv"
	"sync"
	"sync/atomic"
)

// NerdGraphConcurrency is NerdGraph's limit of concurrent requests per user: 25 are
// guaranteed, more "may" be allowed, and a request past the limit is rejected with
// HTTP status 429 (newrelic/docs-website
// src/content/docs/apis/nerdgraph/nerdgraph-usage-limits.mdx). The limit is per user,
// not per key: every key of one user counts together. The simulator rejects the 26th
// by default (it never allows more), with a body like its other errors: the real
// body is not published.
const NerdGraphConcurrency = 25

// WithConcurrentRequests sets the requests one user may have in flight (default
// NerdGraphConcurrency; 0: no limit).
func WithConcurrentRequests(n int) Option {
	return func(s *Server) { s.inflight.limit = n }
}

// tooManyConcurrentBody is the body of a request rejected by the concurrency limit.
const tooManyConcurrentBody = `{"errors":[{"message":"Too many concurrent requests","extensions":{"errorClass":"TOO_MANY_REQUESTS"}}]}`

// inFlight counts each user's requests in flight, by userIdentity.
type inFlight struct {
	limit int

	mu      sync.Mutex
	byUser  map[string]int
	refused atomic.Int64
}

// enter counts a request of user in; false (nothing counted) past the limit.
func (f *inFlight) enter(user string) bool {
	if f.limit <= 0 {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byUser == nil {
		f.byUser = map[string]int{}
	}
	if f.byUser[user] >= f.limit {
		f.refused.Add(1)
		return false
	}
	f.byUser[user]++
	return true
}

// leave counts a request of user out.
func (f *inFlight) leave(user string) {
	if f.limit <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byUser[user]--; f.byUser[user] <= 0 {
		delete(f.byUser, user)
	}
}

// ConcurrencyRefusals is how many requests the simulator has rejected for their user's
// concurrency (HTTP 429).
func (s *Server) ConcurrencyRefusals() int64 { return s.inflight.refused.Load() }

// userIdentity is whom c's requests count against: its user, or, for a user the data
// gives no id, its key alone.
func userIdentity(c *caller) string {
	if c.user != nil && c.user.ID != nil {
		return "user " + strconv.Itoa(*c.user.ID)
	}
	return "key " + *c.key.Key
}
