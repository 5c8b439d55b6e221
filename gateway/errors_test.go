package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// TestWriteErrorRetryAfter: Retry-After goes with 429 and 503 only, rounded to whole
// seconds and at least 1, and never replaces one already set; the cause of a 5xx is
// kept for the access log, a 4xx's (429 included) is not, and the first cause wins.
func TestWriteErrorRetryAfter(t *testing.T) {
	g := New(Config{}, nil, nil)
	tests := []struct {
		name       string
		err        error
		preset     string
		wantStatus int
		wantRetry  string
		wantCause  bool
	}{
		{"429 with 2.6 s", &ng.Error{Kind: ng.KindRateLimited, RetryAfter: 2600 * time.Millisecond}, "", 429, "3", false},
		{"429 with 1.4 s", &ng.Error{Kind: ng.KindRateLimited, RetryAfter: 1400 * time.Millisecond}, "", 429, "1", false},
		{"429 with 200 ms", &ng.Error{Kind: ng.KindRateLimited, RetryAfter: 200 * time.Millisecond}, "", 429, "1", false},
		{"503 circuit open", &ng.Error{Kind: ng.KindUnavailable, RetryAfter: 5 * time.Second}, "", 503, "5", true},
		{"503 keeps a set Retry-After", &ng.Error{Kind: ng.KindUnavailable, RetryAfter: 5 * time.Second}, "9", 503, "9", true},
		{"503 for a key's slots busy, not 429", &ng.Error{Kind: ng.KindOverloaded, RetryAfter: 2 * time.Second}, "", 503, "2", true},
		{"503 for a large answer not decoded in time, not 504", &ng.Error{Kind: ng.KindOverloaded, RetryAfter: 2 * time.Second, Err: ng.ErrAnswerWait}, "", 503, "2", true},
		{"502 has none", &ng.Error{Kind: ng.KindServer, RetryAfter: 5 * time.Second}, "", 502, "", true},
		{"504 has none", &ng.Error{Kind: ng.KindTimeout}, "", 504, "", true},
		{"404 has none and no cause", &ng.Error{Kind: ng.KindNotFound}, "", 404, "", false},
		{"400 has no cause", &restv2.ParamError{}, "", 400, "", false},
		{"500 keeps its cause", errors.New("bug"), "", 500, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &reqState{}
			r := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
			r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))
			rec := httptest.NewRecorder()
			if tt.preset != "" {
				rec.Header().Set("Retry-After", tt.preset)
			}
			g.writeError(rec, r, "json", tt.err)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d", rec.Code, tt.wantStatus)
			}
			if got := rec.Header().Get("Retry-After"); got != tt.wantRetry {
				t.Errorf("Retry-After %q, want %q", got, tt.wantRetry)
			}
			if (st.internal != nil) != tt.wantCause {
				t.Errorf("logged cause %v, want one: %v", st.internal, tt.wantCause)
			}
		})
	}
	// The first cause is kept.
	st := &reqState{internal: errors.New("first")}
	r := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
	r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))
	g.writeError(httptest.NewRecorder(), r, "json", errors.New("second"))
	if st.internal.Error() != "first" {
		t.Errorf("cause %v replaced the first", st.internal)
	}
}

// TestV2ErrorMapping pins the v2 status of every failure class (v2Error) and the
// Retry-After sent with 429/503 (retryAfterOf: never 0).
func TestV2ErrorMapping(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"auth", &ng.Error{Kind: ng.KindAuth}, 401},
		{"forbidden", &ng.Error{Kind: ng.KindForbidden}, 403},
		{"not found", &ng.Error{Kind: ng.KindNotFound}, 404},
		{"rate limited", &ng.Error{Kind: ng.KindRateLimited}, 429},
		{"timeout", &ng.Error{Kind: ng.KindTimeout}, 504},
		{"invalid", &ng.Error{Kind: ng.KindInvalid}, 500},
		{"unavailable", &ng.Error{Kind: ng.KindUnavailable}, 503},
		{"overloaded", &ng.Error{Kind: ng.KindOverloaded}, 503},
		{"server", &ng.Error{Kind: ng.KindServer}, 502},
		{"transport", &ng.Error{Kind: ng.KindTransport}, 502},
		{"wrapped", fmt.Errorf("list: %w", &ng.Error{Kind: ng.KindAuth}), 401},
		{"param", &restv2.ParamError{}, 400},
		{"pass-through", &PassthroughError{Err: errors.New("refused")}, 502},
		{"own deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), 504},
		{"anything else", errors.New("bug"), 500},
		{"v2 error as is", &restv2.Error{Status: 422, Title: "t"}, 422},
	}
	for _, tt := range tests {
		got, _ := v2Error(tt.err)
		if got.Status != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, got.Status, tt.want)
		}
		if got.Title == "" {
			t.Errorf("%s: empty title", tt.name)
		}
	}
	if got := retryAfterOf(&ng.Error{Kind: ng.KindRateLimited, RetryAfter: 7 * time.Second}); got != 7*time.Second {
		t.Errorf("retryAfterOf(7s) = %v", got)
	}
	if got := retryAfterOf(&ng.Error{Kind: ng.KindRateLimited}); got != time.Second {
		t.Errorf("retryAfterOf(none) = %v, want 1s", got)
	}
	if got := retryAfterOf(errors.New("x")); got != time.Second {
		t.Errorf("retryAfterOf(plain) = %v, want 1s", got)
	}
}
