package gateway

import (
	"context"
	"strconv"
	"sync"
	"time"
)

// rateLimiter is REST v2's per-key limit: a fixed one-minute window per key hash
// (1000 calls a minute, X-RateLimit-* headers, 429 with an empty object body, as
// rateLimitDocs describes). Windows are kept per key hash only and swept as they expire.
type rateLimiter struct {
	limit int
	now   func() time.Time
	// maxWindows, when positive, bounds the windows held: a new key beyond it is
	// treated as having used up its limit (the failed-authentication limit fails
	// closed for unknown addresses under a flood from more than that many).
	maxWindows int

	// shared, when set, counts calls fleet-wide; windows then mirror it.
	shared sharedLimit

	mu      sync.Mutex
	windows map[string]*window
	sweep   time.Time
}

type window struct {
	start time.Time
	count int
}

func newRateLimiter(limit int, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, now: now, windows: map[string]*window{}}
}

// allow counts one call of keyHash and returns whether it is within the limit, the
// calls left in the window and when the window resets.
func (l *rateLimiter) allow(keyHash string) (ok bool, remaining int, reset time.Time) {
	now := l.now()
	start := now.Truncate(time.Minute)
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > time.Minute {
		for k, w := range l.windows {
			if w.start.Before(start) {
				delete(l.windows, k)
			}
		}
		l.sweep = now
	}
	w := l.windows[keyHash]
	if w == nil && l.maxWindows > 0 && len(l.windows) >= l.maxWindows {
		return false, 0, start.Add(time.Minute)
	}
	if w == nil || w.start != start {
		w = &window{start: start}
		l.windows[keyHash] = w
	}
	reset = start.Add(time.Minute)
	if w.count >= l.limit {
		return false, 0, reset
	}
	w.count++
	return true, l.limit - w.count, reset
}

// exhausted reports, without counting, whether key has used up the current window.
func (l *rateLimiter) exhausted(key string) (bool, time.Time) {
	now := l.now()
	start := now.Truncate(time.Minute)
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[key]
	if w == nil {
		return l.maxWindows > 0 && len(l.windows) >= l.maxWindows, start.Add(time.Minute)
	}
	return w.start == start && w.count >= l.limit, start.Add(time.Minute)
}

// forget drops key's window: a key NerdGraph refused keeps no state here (its caller's
// failures are counted per address instead).
func (l *rateLimiter) forget(key string) {
	l.mu.Lock()
	delete(l.windows, key)
	l.mu.Unlock()
	if l.shared != nil {
		l.shared.Forget(context.Background(), key, l.now().Truncate(time.Minute))
	}
}

// rateLimitDocs is the X-RateLimit-Docs of REST's 429, as docs-website
// src/content/docs/apis/rest-api-v2/basic-functions/api-overload-protection-handling-429-errors.mdx
// shows it ("Hyperlink to this document").
const rateLimitDocs = "https://docs.newrelic.com/docs/apis/rest-api-v2/requirements/api-overload-protection-preventing-429-errors"

func (l *rateLimiter) headers(h interface{ Set(string, string) }, remaining int, reset time.Time) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(l.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
}
