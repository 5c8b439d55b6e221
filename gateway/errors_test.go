package gateway

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

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
		{"server", &ng.Error{Kind: ng.KindServer}, 502},
		{"transport", &ng.Error{Kind: ng.KindTransport}, 502},
		{"wrapped", fmt.Errorf("list: %w", &ng.Error{Kind: ng.KindAuth}), 401},
		{"param", &v2.ParamError{}, 400},
		{"pass-through", &PassthroughError{Err: errors.New("refused")}, 502},
		{"own deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), 504},
		{"anything else", errors.New("bug"), 500},
		{"v2 error as is", &v2.Error{Status: 422, Title: "t"}, 422},
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
