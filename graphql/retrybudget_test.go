package graphql

import "testing"

// TestRetryBudget: a tenant gets retryBurst retries, then one per 1/retryEarn first
// attempts.
func TestRetryBudget(t *testing.T) {
	var r retryBudgets
	id := tenantID("k")
	r.earn(id) // no bucket yet: nothing to earn, nothing held
	if len(r.tenants) != 0 {
		t.Fatal("earn made a bucket for a tenant without retries")
	}
	for i := range int(retryBurst) {
		if !r.spend(id) {
			t.Fatalf("retry %d refused within the burst of %v", i+1, retryBurst)
		}
	}
	if r.spend(id) {
		t.Fatal("retry beyond the burst allowed")
	}
	for range 5 {
		r.earn(id)
	}
	if !r.spend(id) {
		t.Fatal("five first attempts did not earn one retry")
	}
	if r.spend(id) {
		t.Fatal("more than one retry earned by five first attempts")
	}
	for range 60 { // 0.2 × 50 is a hair under 10 in floating point
		r.earn(id)
	}
	if _, held := r.tenants[id]; held {
		t.Fatal("a full bucket is still held")
	}
}

// TestRetryBudgetRefillEdge: a bucket earned back to exactly retryBurst is dropped (a
// full bucket is not held for ever), and the nil breakers release and record nothing.
func TestRetryBudgetRefillEdge(t *testing.T) {
	id := tenantID("k")
	r := retryBudgets{tenants: map[[32]byte]float64{id: retryBurst - retryEarn}}
	r.earn(id)
	if _, held := r.tenants[id]; held {
		t.Fatalf("a bucket back at exactly %v is still held", retryBurst)
	}
	var nilS *breakers
	nilS.release(id)
	nilS.record(id, &Error{Kind: KindServer})
}
