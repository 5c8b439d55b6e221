package gateway

import (
	"testing"
	"time"
)

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
