package gateway

// The fleet store's metrics (fleet.go) and the fleet's usage rows (fleetusage.go), written against the survivors of the gremlins
// run at b689aed.

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/v2bridge/v2bridge/state/fleet"
)

// TestStoreUpGaugeMut: v2bridge_store_up is 1 while the store answers and 0 once a call
// to it failed. Kills fleet.go:57:18 CONDITIONALS_NEGATION (`s.Status() != nil` →
// `==`: the gauge inverted).
func TestStoreUpGaugeMut(t *testing.T) {
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
