package main

import (
	"context"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/gateway"
)

// memoryLimitShare is the part of the container's memory limit given to the Go heap
// limit: the rest covers stacks, the runtime and what GOMEMLIMIT does not count.
const memoryLimitShare = 0.9

// applyMemoryLimit sets the Go memory limit (GOMEMLIMIT) to 90 % of the container's
// memory limit, which the Kubernetes manifest passes in bytes as V2BRIDGE_MEMORY_LIMIT
// (resourceFieldRef limits.memory): the GC then works harder near the limit instead of
// the pod being OOM-killed. An explicit GOMEMLIMIT wins.
func applyMemoryLimit(getenv func(string) string, log *zap.Logger) {
	if getenv("GOMEMLIMIT") != "" {
		return
	}
	s := strings.TrimSpace(getenv("V2BRIDGE_MEMORY_LIMIT"))
	if s == "" {
		return
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		log.Warn("V2BRIDGE_MEMORY_LIMIT is not a byte count; memory limit not set", zap.String("value", s))
		return
	}
	limit := int64(float64(n) * memoryLimitShare)
	debug.SetMemoryLimit(limit)
	log.Info("memory limit set", zap.Int64("container_bytes", n), zap.Int64("gomemlimit_bytes", limit))
}

// drainFirst returns a context that ends shutdown_delay after ctx does: at SIGTERM the
// replica first reports not ready (/readyz 503) and keeps answering, so the endpoint is
// removed from load balancing before the server stops accepting; then the graceful
// shutdown lets in-flight requests finish.
func drainFirst(ctx context.Context, g *gateway.Gateway, delay time.Duration, log *zap.Logger) context.Context {
	out, cancel := context.WithCancel(context.Background())
	go func() {
		defer cancel()
		<-ctx.Done()
		g.Drain()
		if delay > 0 {
			log.Info("draining before shutdown", zap.Duration("shutdown_delay", delay))
			time.Sleep(delay)
		}
	}()
	return out
}
