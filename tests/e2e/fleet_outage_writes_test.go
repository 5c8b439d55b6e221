package e2e

import (
	"bytes"
	"net/http"
	"testing"
)

// The declared window of docs/fleet.md: while the store is down the attempt ledger is
// per replica, and NerdGraph takes no client id to deduplicate by, so one
// Idempotency-Key retried through another replica records a second deployment; each
// replica still replays its own 201 for the key.
func TestFleetIdempotencyKeyWhileStoreDownIsPerReplica(t *testing.T) {
	f := newFleet(t, 2, true, -1)
	f.redis.Close()
	const body = `{"deployment":{"revision":"outage-1"}}`
	a := fleetDo(t, f.replicas[0], http.MethodPost, deployPath, body, "Idempotency-Key", "outage-key")
	b := fleetDo(t, f.replicas[1], http.MethodPost, deployPath, body, "Idempotency-Key", "outage-key")
	if a.status != 201 || b.status != 201 || f.sim.RequestsByOperation()[createOp] != 2 {
		t.Fatalf("through A then B with the store down: %d / %d, recorded %d (the declared window: 2)", a.status, b.status,
			f.sim.RequestsByOperation()[createOp])
	}
	again := fleetDo(t, f.replicas[0], http.MethodPost, deployPath, body, "Idempotency-Key", "outage-key")
	if again.status != 201 || !bytes.Equal(again.body, a.body) || f.sim.RequestsByOperation()[createOp] != 2 {
		t.Fatalf("the key again through A: %d %s, recorded %d; want A's 201 replayed", again.status, again.body,
			f.sim.RequestsByOperation()[createOp])
	}
}
