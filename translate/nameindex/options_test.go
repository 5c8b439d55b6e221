package nameindex

import (
	"context"
	"testing"
	"time"
)

// Options left zero take the defaults; options given are kept, the clock and the
// hooks included.
func TestNewDefaultsZeroOptionsAndKeepsGivenOnes(t *testing.T) {
	zero := New(Options{})
	if zero.refresh != DefaultRefresh || zero.maxStale != DefaultMaxStale || zero.MaxApps() != DefaultMaxApps ||
		zero.Cache().MaxEntries() != DefaultIndexes || zero.Cache().TTL() != DefaultMaxStale {
		t.Errorf("zero options: refresh %v, max stale %v, max apps %d, indexes %d", zero.refresh, zero.maxStale, zero.MaxApps(), zero.Cache().MaxEntries())
	}
	if zero.opts.Now == nil || zero.opts.Background == nil || zero.opts.Accepted == nil || zero.opts.Detach == nil {
		t.Fatal("a zero hook left nil")
	}
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	var background, accepted, detached bool
	x := New(Options{Refresh: 3 * time.Second, MaxStale: 7 * time.Second, MaxApps: 11, Indexes: 13,
		Now:        func() time.Time { return clock },
		Background: func(string, error) { background = true },
		Accepted:   func(string, time.Duration) { accepted = true },
		Detach: func(ctx context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
			detached = true
			return context.WithCancel(ctx)
		}})
	if x.refresh != 3*time.Second || x.maxStale != 7*time.Second || x.MaxApps() != 11 || x.Cache().MaxEntries() != 13 {
		t.Errorf("given options: refresh %v, max stale %v, max apps %d, indexes %d", x.refresh, x.maxStale, x.MaxApps(), x.Cache().MaxEntries())
	}
	x.opts.Background("", nil)
	x.opts.Accepted("", 0)
	_, cancel := x.opts.Detach(context.Background(), time.Second)
	cancel()
	if !x.opts.Now().Equal(clock) || !background || !accepted || !detached {
		t.Errorf("a given hook replaced: clock %v, background %v, accepted %v, detach %v", x.opts.Now(), background, accepted, detached)
	}
}
