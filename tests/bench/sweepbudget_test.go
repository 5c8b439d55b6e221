package main

import (
	"testing"

	"github.com/v2bridge/v2bridge/sim"
)

// A script that reads the metric data of every application of an account within one
// minute stays within NerdGraph's per-account budget of NRQL queries a minute, which
// the simulator enforces (one minute: its clock is frozen): every request answers 200
// with a small part of the budget spent. The account and the budget are scaled down
// together (600 applications, 300 queries: NerdGraph's 3,000 for 6,000) to keep the
// test short; without shared sweep queries the script makes one query per
// application and meets refusals past the 300th.
func TestSweepOfEveryApplicationWithinNRQLBudget(t *testing.T) {
	const budget = 300
	l, s, p, upstream := countedUpstream(t, "apps=600,hosts=1,names=10", sim.WithNRQLBudget(budget))
	gw := soleReplica(t, upstream)
	c := &journeyClient{base: gw.URL, l: l}
	if err := sweep(c, l.Apps, sweepWindows[0]); err != nil || c.errs != 0 {
		t.Fatalf("sweep of %d applications: %d errors, %v", l.Apps, c.errs, err)
	}
	spent := s.NRQLQueries(l.ID)
	t.Logf("sweep of %d applications: %d NRQL queries, %d round trips", l.Apps, spent, p.trips.Load())
	if spent == 0 || spent > budget/4 {
		t.Errorf("%d NRQL queries for the sweep, want some and at most %d", spent, budget/4)
	}
}
