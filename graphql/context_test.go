package graphql

import (
	"context"
	"crypto/sha256"
	"testing"
)

// TestWithAPIKeySum: a context made with the key's sum carries the same key and
// breaker/flight identity as one that hashes the key itself.
func TestWithAPIKeySum(t *testing.T) {
	for _, key := range []string{"NRAK-DEMO-ACCOUNT-1", "NRAK-DEMO-MULTI", ""} {
		want := sha256.Sum256([]byte(key))
		for name, ctx := range map[string]context.Context{
			"WithAPIKey":    WithAPIKey(context.Background(), key),
			"WithAPIKeySum": WithAPIKeySum(context.Background(), key, want),
		} {
			if got := apiKey(ctx); got != key {
				t.Errorf("%s(%q): key %q", name, key, got)
			}
			if got := tenantOf(ctx); got != want {
				t.Errorf("%s(%q): tenant %x, want %x", name, key, got, want)
			}
		}
	}
}
