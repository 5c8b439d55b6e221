package main

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/translate"
)

// The fleet journeys run without an error on a generated account of 5,000 applications
// behind two replicas on one store, and their round trips, counted at the upstream,
// hold the targets: a rename on one replica and lookups on both at most 8, a restarted
// replica's first lookup at most 2, sequential sweeps of 100 and 1,000 applications
// at most 20 and 60 (with their listing). No count depends on time: the proxy sleeps
// not at all, and each step's count ends once every replica's background reads have.
func TestFleetJourneysOnAGeneratedAccount(t *testing.T) {
	l, _, p, upstream := countedUpstream(t, "apps=5000,hosts=1,names=10")
	m := miniredis.RunT(t)
	var replicas []*translate.Translator // every replica started, stopped ones too
	start := func() (string, func(), error) {
		// A generous store timeout: on a loaded test machine a slow store call would
		// leave the index out of the store (the store's default is a deployment's).
		h, tr, closeStore, err := fleetReplica(upstream, "redis://"+m.Addr(), 2*time.Second, zapcore.WarnLevel)
		if err != nil {
			return "", func() {}, err
		}
		replicas = append(replicas, tr)
		srv := httptest.NewServer(h)
		return srv.URL, func() { srv.Close(); closeStore() }, nil
	}
	// A step's count includes the background reads it caused, and only those.
	settle := func() {
		for _, tr := range replicas {
			tr.WaitBackground()
		}
	}
	rs, err := runFleetJourneys(start, p, l, settle)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"fleet: replica 2 joins":     2,
		"fleet: rename on replica 1": 8,
		"fleet: replica 2 restarted": 2,
		"of 100 applications":        20,
		"of 1000 applications":       60,
	}
	seen := 0
	for _, r := range rs {
		if r.Errors != 0 || r.Err != "" {
			t.Errorf("%s: %d errors: %s", r.Journey, r.Errors, r.Err)
		}
		for k, limit := range want {
			if strings.Contains(r.Journey, k) {
				seen++
				if r.ColdTrips > limit {
					t.Errorf("%s: %d round trips, want at most %d", r.Journey, r.ColdTrips, limit)
				}
			}
		}
		t.Logf("%-60s %d round trips", r.Journey, r.ColdTrips)
	}
	if seen != len(want) {
		t.Fatalf("%d of the %d steps with targets ran", seen, len(want))
	}
}
