package gateway

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"go.uber.org/zap"
)

// TestFleetUsageAccount: the fleet report's row carries the account of the row's last
// call (and the explain link names it), read back from the store by another replica.
func TestFleetUsageAccount(t *testing.T) {
	m := miniredis.RunT(t)
	open := storeOpener(t, m)
	a := New(Config{Store: open()}, nil, zap.NewNop())
	b := New(Config{Store: open()}, nil, zap.NewNop())
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	a.usage.record(&reqState{callerHash: "aaaaaaaa", route: "applications.list", fidelity: Approximate, account: 4242}, "curl/8", 200, at)
	if err := a.fleetRows.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows, err := b.fleetRows.rows(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Account != 4242 || !strings.HasSuffix(rows[0].Explain, "&account=4242") {
		t.Fatalf("replica b's rows %+v, want replica a's call with account 4242", rows)
	}
}
