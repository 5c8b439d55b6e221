package graphql

import (
	"errors"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestStatusKind pins how every upstream HTTP status is classed (500 and above are server
// failures, not transport failures).
func TestStatusKind(t *testing.T) {
	tests := []struct {
		status int
		want   Kind
	}{
		{401, KindAuth}, {403, KindForbidden}, {429, KindRateLimited},
		{504, KindTimeout}, {408, KindTimeout},
		{500, KindServer}, {502, KindServer}, {503, KindServer}, {599, KindServer},
		{400, KindInvalid}, {422, KindInvalid},
		{499, KindTransport}, {302, KindTransport}, {404, KindTransport},
	}
	for _, tt := range tests {
		if got := statusKind(tt.status); got != tt.want {
			t.Errorf("statusKind(%d) = %v, want %v", tt.status, got, tt.want)
		}
	}
}

// TestRetryable pins the retry rules, above all that a mutation is sent again only when
// the connection was refused before anything left (a dial error).
func TestRetryable(t *testing.T) {
	dial := &net.OpError{Op: "dial", Err: errors.New("connection refused")}
	read := &net.OpError{Op: "read", Err: errors.New("connection reset")}
	tests := []struct {
		name  string
		err   error
		query bool
		want  bool
	}{
		{"mutation refused at dial", &Error{Kind: KindTransport, Err: dial}, false, true},
		{"mutation reset while reading", &Error{Kind: KindTransport, Err: read}, false, false},
		{"mutation 5xx", &Error{Kind: KindServer, Status: 502}, false, false},
		{"mutation 429", &Error{Kind: KindRateLimited, Status: 429}, false, false},
		{"mutation timeout", &Error{Kind: KindTimeout, Status: 200}, false, false},
		{"mutation dial but not transport", &Error{Kind: KindServer, Err: dial}, false, false},
		{"mutation transport without net error", &Error{Kind: KindTransport, Err: errors.New("bad json")}, false, false},
		{"query 429", &Error{Kind: KindRateLimited, Status: 429}, true, true},
		{"query 5xx", &Error{Kind: KindServer, Status: 503}, true, true},
		{"query reset", &Error{Kind: KindTransport, Err: read}, true, true},
		{"query NerdGraph TIMEOUT class", &Error{Kind: KindTimeout, Status: 200}, true, true},
		{"query our own deadline", &Error{Kind: KindTimeout}, true, false},
		{"query 504", &Error{Kind: KindTimeout, Status: 504}, true, false},
		{"query auth", &Error{Kind: KindAuth, Status: 401}, true, false},
		{"query invalid", &Error{Kind: KindInvalid}, true, false},
		{"query not found", &Error{Kind: KindNotFound}, true, false},
		{"query circuit open", &Error{Kind: KindUnavailable}, true, false},
		{"plain error", errors.New("x"), true, false},
	}
	for _, tt := range tests {
		if got := retryable(tt.err, tt.query); got != tt.want {
			t.Errorf("%s: retryable = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRetryAfter pins which answers carry a Retry-After (seconds or a date still to
// come).
func TestRetryAfter(t *testing.T) {
	tests := []struct {
		give string
		min  time.Duration
		max  time.Duration
	}{
		{"", 0, 0},
		{"0", 0, 0},
		{"7", 7 * time.Second, 7 * time.Second},
		{"-3", 0, 0},
		{"soon", 0, 0},
		{time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat), 0, 0},
		{time.Now().Add(time.Hour).UTC().Format(http.TimeFormat), 58 * time.Minute, time.Hour},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.give != "" {
			h.Set("Retry-After", tt.give)
		}
		if got := retryAfter(h); got < tt.min || got > tt.max {
			t.Errorf("retryAfter(%q) = %v, want in [%v, %v]", tt.give, got, tt.min, tt.max)
		}
	}
}

// TestBackoff pins the jittered exponential backoff and that Retry-After wins.
func TestBackoff(t *testing.T) {
	c := &Client{opts: Options{Backoff: 100 * time.Millisecond}}
	for n, base := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond} {
		for range 20 {
			if got := c.backoff(n, errors.New("x")); got < base/2 || got >= base/2+base {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v)", n, got, base/2, base/2+base)
			}
		}
	}
	if got := c.backoff(1, &Error{Kind: KindRateLimited, RetryAfter: 3 * time.Second}); got != 3*time.Second {
		t.Errorf("backoff with Retry-After 3s = %v", got)
	}
	if got := c.backoff(1, &Error{Kind: KindRateLimited}); got < 50*time.Millisecond || got >= 150*time.Millisecond {
		t.Errorf("backoff without Retry-After = %v, want the jittered base", got)
	}
}

// TestOnlyQueriesAreCollapsedAndRetried: only documents starting with "query" are
// collapsed and retried as queries; a mutation never is (isQuery).
func TestOnlyQueriesAreCollapsedAndRetried(t *testing.T) {
	for doc, want := range map[string]bool{
		"query X { a }":         true,
		"\n  query X { a }":     true,
		"mutation X { a }":      false,
		"fragment F on T { a }": false,
	} {
		if got := isQuery(doc); got != want {
			t.Errorf("isQuery(%q) = %v, want %v", doc, got, want)
		}
	}
}
