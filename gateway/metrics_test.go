package gateway

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/v2bridge/v2bridge/state/fleet"
)

// TestStoreUpGauge: v2bridge_store_up is 1 while the store answers and 0 once a call to
// it failed.
func TestStoreUpGauge(t *testing.T) {
	m := miniredis.RunT(t)
	s, err := fleet.Open(fleet.Options{URL: "redis://" + m.Addr(), KeyPrefix: "t:", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	cs := storeCollector(s)
	if len(cs) != 2 {
		t.Fatalf("%d collectors without the shared cache, want errors and up", len(cs))
	}
	if _, err := s.Usage(context.Background()); err != nil {
		t.Fatalf("store up: %v", err)
	}
	if got := testutil.ToFloat64(cs[1]); got != 1 {
		t.Errorf("v2bridge_store_up = %v while the store answers, want 1", got)
	}
	m.Close()
	if _, err := s.Usage(context.Background()); err == nil {
		t.Fatal("a call to a closed store succeeded")
	}
	if got := testutil.ToFloat64(cs[1]); got != 0 || s.Status() == nil {
		t.Errorf("v2bridge_store_up = %v after a failed call (status %v), want 0", got, s.Status())
	}
}

// gathered returns the value of the single-series family name.
func gathered(t *testing.T, m *Metrics, name string) float64 {
	t.Helper()
	fams, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			return f.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no single series %s", name)
	return 0
}

func TestOpsMetrics(t *testing.T) {
	m := NewMetrics()
	tests := []struct {
		name string
		open func() bool
		want float64
	}{
		{"no client watched", nil, 0},
		{"closed", func() bool { return false }, 0},
		{"open", func() bool { return true }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m.WatchBreaker(tt.open)
			if got := gathered(t, m, "v2bridge_upstream_breaker_open"); got != tt.want {
				t.Fatalf("breaker gauge = %v, want %v", got, tt.want)
			}
		})
	}
	want := Sunset().Sub(time.Now()).Seconds()
	if got := gathered(t, m, "v2bridge_rest_v2_shutdown_remaining_seconds"); got > want+864 || got < want-864 {
		t.Errorf("seconds until shutdown = %v, want about %v", got, want)
	}
}
