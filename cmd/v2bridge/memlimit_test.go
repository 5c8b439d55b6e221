package main

import (
	"math"
	"runtime/debug"
	"testing"

	"go.uber.org/zap"
)

// V2BRIDGE_MEMORY_LIMIT (the container limit in bytes) sets the Go memory limit to
// 90 % of it; an explicit GOMEMLIMIT or a malformed value leaves it alone.
func TestApplyMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	tests := []struct {
		name string
		env  map[string]string
		want int64
	}{
		{"256Mi", map[string]string{"V2BRIDGE_MEMORY_LIMIT": "268435456"}, 241591910},
		{"GOMEMLIMIT wins", map[string]string{"V2BRIDGE_MEMORY_LIMIT": "268435456", "GOMEMLIMIT": "100MiB"}, math.MaxInt64},
		{"malformed", map[string]string{"V2BRIDGE_MEMORY_LIMIT": "256Mi"}, math.MaxInt64},
		{"unset", map[string]string{}, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetMemoryLimit(math.MaxInt64)
			applyMemoryLimit(func(k string) string { return tt.env[k] }, zap.NewNop())
			if got := debug.SetMemoryLimit(-1); got != tt.want {
				t.Fatalf("memory limit %d, want %d", got, tt.want)
			}
		})
	}
}
