package gateway

// New's configuration defaults and wiring (issue 22, whole-tree gremlins run at f9be12a,
// gateway.go lines of that commit). Each test names the mutants it kills.
//
// Equivalent, no test: gateway.go:155:28 CONDITIONALS_BOUNDARY (`RateLimitPerMinute > 0`
// → `>= 0`): a 0 was replaced by the default 1000 at :132, so the value is never 0 there.

import (
	"context"
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/v2bridge/v2bridge/translate"
)

// TestNewRegistersCollectorsMut: with a readiness check New registers the
// v2bridge_nerdgraph_reachable gauge, with a translator the cache collector; a second
// registration of the same collector is then refused as already registered.
// Kills gateway.go:166:15 CONDITIONALS_NEGATION (`cfg.Ready != nil` → `==`) and :169:8
// CONDITIONALS_NEGATION (`tr != nil` → `==`).
func TestNewRegistersCollectorsMut(t *testing.T) {
	tr := translate.New(&refusingClient{}, translate.Options{})
	g := New(Config{Ready: func(context.Context) error { return nil }}, tr, nil)
	var already prometheus.AlreadyRegisteredError
	if err := g.cfg.Metrics.reg.Register(g.ready.gauge()); !errors.As(err, &already) {
		t.Errorf("readiness gauge registered again: %v, want AlreadyRegisteredError (New did not register it)", err)
	}
	if err := g.cfg.Metrics.reg.Register(cacheCollector{tr}); !errors.As(err, &already) {
		t.Errorf("cache collector registered again: %v, want AlreadyRegisteredError (New did not register it)", err)
	}
}
