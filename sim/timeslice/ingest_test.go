package timeslice

import (
	"context"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim/nrdb"
)

// minutesOf is, by instance id, the minutes a scan of [begin, end) yields for name.
func minutesOf(t *testing.T, src *Source, name string, begin, end time.Time) map[int64][]time.Time {
	t.Helper()
	out := map[int64][]time.Time{}
	sc := nrdb.Scan{Accounts: []int{1}, EventTypes: []string{"Metric"}, Begin: begin, End: end,
		Hints: map[string][]any{"metricTimesliceName": {name}}}
	err := src.Scan(context.Background(), sc, func(r nrdb.Row) bool {
		if sc, _ := r.Get("scope"); sc == nil {
			row := r.(*row)
			out[row.inst.ID] = append(out[row.inst.ID], r.Timestamp())
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A source with a clock holds what NRDB would: no minute that has not ended, each
// instance's minute only once it arrived (so the newest minutes are partial), nothing
// after an application or a metric stopped, nothing in a gap.
func TestSourceHoldsOnlyIngestedData(t *testing.T) {
	g := Generator{Seed: 3}
	now := t0.Add(30 * time.Second)
	var insts []Instance
	for id := int64(1); id <= 8; id++ {
		insts = append(insts, Instance{ID: id, Host: "h"})
	}
	apps := []App{
		{AccountID: 1, AppID: 10, GUID: "g10", ApdexT: 0.5, Instances: insts,
			NameStopped: map[string]time.Time{"WebFrontend/QueueTime": t0.Add(-2 * time.Hour)},
			Gaps:        []Span{{From: t0.Add(-20 * time.Minute), To: t0.Add(-15 * time.Minute)}}},
		{AccountID: 1, AppID: 11, GUID: "g11", ApdexT: 0.5, Instances: []Instance{{ID: 20, Host: "k"}}, Stopped: t0.Add(-5 * time.Hour)},
	}
	src := NewSource(g, apps, IngestedBy(func() time.Time { return now }))
	got := minutesOf(t, src, "HttpDispatcher", t0.Add(-30*time.Minute), t0.Add(30*time.Minute))
	partial := 0
	for _, in := range insts {
		ms := got[in.ID]
		last := ms[len(ms)-1]
		if arrived := last.Add(time.Minute + g.Arrival(in.ID)); arrived.After(now) {
			t.Errorf("instance %d: minute %s served at %s, before it arrives at %s", in.ID, last, now, arrived)
		}
		if next := last.Add(2*time.Minute + g.Arrival(in.ID)); !next.After(now) {
			t.Errorf("instance %d: minute %s arrived by %s and is missing", in.ID, last.Add(time.Minute), now)
		}
		if len(ms) != 30-5-int(t0.Sub(last)/time.Minute)+1 {
			t.Errorf("instance %d: %d minutes up to %s, want 25 less the newest not yet in, no gap minute", in.ID, len(ms), last)
		}
		for _, m := range ms {
			if !m.Before(t0.Add(-20*time.Minute)) && m.Before(t0.Add(-15*time.Minute)) {
				t.Errorf("instance %d: minute %s in the gap", in.ID, m)
			}
		}
		if last.Equal(t0.Add(-2 * time.Minute)) {
			partial++
		}
	}
	if partial == 0 || partial == len(insts) {
		t.Errorf("%d of %d instances have minute %s: the newest minute is not partial", partial, len(insts), t0.Add(-2*time.Minute))
	}
	if ms := minutesOf(t, src, "WebFrontend/QueueTime", t0.Add(-3*time.Hour), t0); len(ms[1]) != 60 || !ms[1][59].Equal(t0.Add(-2*time.Hour-time.Minute)) {
		t.Errorf("a metric stopped two hours ago: %d minutes, want the 60 before its stop", len(ms[1]))
	}
	if ms := minutesOf(t, src, "HttpDispatcher", t0.Add(-6*time.Hour), t0); len(ms[20]) != 60 {
		t.Errorf("an application stopped five hours ago: %d minutes of the last six hours, want 60", len(ms[20]))
	}
	if _, ok := src.Totals(1, 11, t0.Add(-6*time.Hour), t0, "HttpDispatcher"); ok {
		t.Error("a stopped application has a summary")
	}
}

// InstanceTotals sums the named instances only: each instance's add up to Totals.
func TestInstanceTotalsAddUpToTotals(t *testing.T) {
	insts := []Instance{{ID: 1, Host: "a"}, {ID: 2, Host: "a"}, {ID: 3, Host: "b"}}
	src := NewSource(Generator{Seed: 5}, []App{{AccountID: 1, AppID: 10, GUID: "g10", ApdexT: 0.5, Instances: insts}})
	from, to := t0.Add(-20*time.Minute), t0.Add(-10*time.Minute)
	all, _ := src.Totals(1, 10, from, to, "HttpDispatcher")
	var sum float64
	for _, in := range insts {
		one, ok := src.InstanceTotals(1, 10, []int64{in.ID}, from, to, "HttpDispatcher")
		if !ok || one["HttpDispatcher"].Count <= 0 || one["HttpDispatcher"].Count >= all["HttpDispatcher"].Count {
			t.Fatalf("instance %d: %v %v, the application's %v", in.ID, one, ok, all)
		}
		sum += one["HttpDispatcher"].Count
	}
	if sum != all["HttpDispatcher"].Count {
		t.Errorf("instances' calls add up to %v, the application's are %v", sum, all["HttpDispatcher"].Count)
	}
}

// An application's ingested totals at now are the sums of the rows a scan of the
// window serves then: nothing of a minute not yet ingested, of a gap, of a stopped
// metric or from before an instance started.
func TestIngestedTotalsSumOnlyServedRows(t *testing.T) {
	g := Generator{Seed: 3}
	now := t0.Add(30 * time.Second)
	var insts []Instance
	for id := int64(1); id <= 6; id++ {
		insts = append(insts, Instance{ID: id, Host: "h"})
	}
	insts[5].Since = t0.Add(-7*time.Minute - 20*time.Second)
	apps := []App{{AccountID: 1, AppID: 10, GUID: "g10", ApdexT: 0.5, Instances: insts,
		NameStopped: map[string]time.Time{"Errors/all": t0.Add(-4 * time.Minute)},
		Gaps:        []Span{{From: t0.Add(-9 * time.Minute), To: t0.Add(-8 * time.Minute)}}}}
	from := t0.Add(-10 * time.Minute)
	for _, tt := range []struct {
		name string
		src  *Source
	}{
		{"source with a clock", NewSource(g, apps, IngestedBy(func() time.Time { return now }))},
		{"source without a clock", NewSource(g, apps)},
	} {
		for _, name := range []string{"HttpDispatcher", "Errors/all"} {
			want := 0.0
			for id, minutes := range minutesOf(t, NewSource(g, apps, IngestedBy(func() time.Time { return now })), name, from, t0) {
				for _, m := range minutes {
					want += g.Timeslice(10, id, name, m, 0.5).Count
				}
			}
			got, ok := tt.src.IngestedTotals(1, 10, from, t0, now, name)
			if !ok || got[name].Count != want {
				t.Errorf("%s, %s: count %v, want %v as served", tt.name, name, got[name].Count, want)
			}
		}
	}
}
