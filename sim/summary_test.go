package sim_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// apmSummary reads only what NRDB holds at the same instant: its window's newest
// minutes hold only the instances whose data arrived, so its web throughput is the
// ingested HttpDispatcher calls of the window per minute, not the generator's whole
// minutes (which arrive later).
func TestSummaryReadsOnlyIngestedMinutes(t *testing.T) {
	data := loadDemo(t)
	now := time.Date(2026, 11, 20, 12, 0, 30, 0, time.UTC)
	s, err := sim.NewDemo(data, sim.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	h := &harness{sim: s, url: ts.URL + sim.Path}
	var app sim.APMApplication
	for _, a := range apps(t, data, acctOne) {
		if a.Reporting && len(a.Instances) >= 2 {
			app = a
			break
		}
	}
	if app.ID == 0 {
		t.Fatal("no reporting application with two instances in the demo data")
	}
	var out struct {
		Actor struct {
			Entity struct {
				ApmSummary struct{ WebThroughput float64 }
			}
		}
	}
	h.mustQuery(t, keyOne, `query($g: EntityGuid!) { actor { entity(guid: $g) { ... on ApmApplicationEntity { apmSummary { webThroughput } } } } }`,
		map[string]any{"g": appGUID(acctOne, app.ID)}, &out)

	// The HttpDispatcher calls of the window's minutes: those NRDB holds at now (each
	// instance's minute once it arrived, timeslice Arrival) and every one.
	gen := timeslice.Generator{Seed: sim.DemoSeed}
	to := now.Truncate(time.Minute)
	var ingested, whole float64
	for _, in := range app.Instances {
		for m := to.Add(-sim.SummaryWindow); m.Before(to); m = m.Add(time.Minute) {
			calls := gen.Timeslice(int64(app.ID), in.ID, "HttpDispatcher", m, app.ApdexTarget).Count
			whole += calls
			if !m.Add(time.Minute + gen.Arrival(in.ID)).After(now) {
				ingested += calls
			}
		}
	}
	if ingested >= whole {
		t.Fatalf("%v calls ingested at %s of %v: the window has no minute still to arrive", ingested, now, whole)
	}
	if got, want := out.Actor.Entity.ApmSummary.WebThroughput, ingested/sim.SummaryWindow.Minutes(); got != want {
		t.Errorf("webThroughput %v, want %v (the ingested calls per minute; %v counts the minutes not yet ingested)",
			got, want, whole/sim.SummaryWindow.Minutes())
	}
}
