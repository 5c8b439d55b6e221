package sim

import "sync"

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

// inFlight counts each user's requests in flight.
type inFlight struct {
	limit int

	mu     sync.Mutex
	byUser map[int]int
}

// enter counts a request of user in; false (nothing counted) past the limit.
func (f *inFlight) enter(user int) bool {
	if f.limit <= 0 {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byUser == nil {
		f.byUser = map[int]int{}
	}
	if f.byUser[user] >= f.limit {
		return false
	}
	f.byUser[user]++
	return true
}

// leave counts a request of user out.
func (f *inFlight) leave(user int) {
	if f.limit <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byUser[user]--; f.byUser[user] <= 0 {
		delete(f.byUser, user)
	}
}
