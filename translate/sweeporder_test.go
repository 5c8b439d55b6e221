package translate

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// sweepOrderTranslator is a translator whose clock the test moves.
func sweepOrderTranslator(clock *time.Time) *Translator {
	return New(&opFake{}, Options{Now: func() time.Time { return *clock }})
}

func sweepIDs(from, to int64) []int64 {
	var ids []int64
	for id := from; id <= to; id++ {
		ids = append(ids, id)
	}
	return ids
}

// A sweep reads ahead the applications the caller listed after the one asked, in list
// order: a page listed again is not counted twice, the next page follows it, at most
// sweepMaxApps-1 of them, never the one asked, never another caller's list.
func TestSweepNextFollowsTheCallersLastList(t *testing.T) {
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tr := sweepOrderTranslator(&clock)
	c := Caller{KeyHash: "k", AccountID: 1}
	w := metricdata.Window{Since: clock.Add(-30 * time.Minute), Until: clock, Period: time.Minute}
	next := func(c Caller, app int64) []int64 { return tr.sweepNext(c, app, []string{"HttpDispatcher"}, w, false) }

	tr.listed(c, nil) // nothing listed: no order kept
	if len(tr.sweeps.orders) != 0 {
		t.Fatalf("an empty page kept an order")
	}
	tr.listed(c, []int64{1, 2, 3, 4, 5})
	tr.listed(c, []int64{1, 2, 3, 4, 5}) // the same page again
	if got := next(c, 2); !slices.Equal(got, []int64{3, 4, 5}) {
		t.Errorf("after 2: %v, want [3 4 5]", got)
	}
	tr.listed(c, []int64{6, 7}) // the next page
	if got := next(c, 4); !slices.Equal(got, []int64{5, 6, 7}) {
		t.Errorf("after 4 with the next page: %v, want [5 6 7]", got)
	}
	if got := next(c, 7); len(got) != 0 {
		t.Errorf("after the last: %v", got)
	}
	if got := next(c, 99); len(got) != 0 {
		t.Errorf("an application not listed: %v", got)
	}
	if got := next(Caller{KeyHash: "other", AccountID: 1}, 2); len(got) != 0 {
		t.Errorf("another caller follows this caller's list: %v", got)
	}
	tr.listed(c, append([]int64{1}, sweepIDs(100, 200)...)) // a long page, 1 first again
	if got := next(c, 1); !slices.Equal(got, sweepIDs(100, 100+sweepMaxApps-2)) {
		t.Errorf("a long page: %v, want the %d after 1", got, sweepMaxApps-1)
	}
	tr.listed(c, []int64{300, 301, 300, 302})
	if got := next(c, 300); !slices.Equal(got, []int64{301, 302}) {
		t.Errorf("an id twice in the list: %v, want [301 302]", got)
	}
}

// An application whose series is cached already is not read again by a sweep.
func TestSweepNextSkipsCachedApplications(t *testing.T) {
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tr := sweepOrderTranslator(&clock)
	c := Caller{KeyHash: "k", AccountID: 1}
	w := metricdata.Window{Since: clock.Add(-30 * time.Minute), Until: clock, Period: time.Minute}
	names := []string{"HttpDispatcher"}
	tr.listed(c, []int64{1, 2, 3, 4})
	key, err := soloSeriesKey(c, MetricScope{AppID: 3}, names, w, false)
	if err != nil {
		t.Fatal(err)
	}
	tr.st.Metrics.Set(key, map[string][]metricdata.Row{})
	if got := tr.sweepNext(c, 1, names, w, false); !slices.Equal(got, []int64{2, 4}) {
		t.Errorf("%v, want [2 4]", got)
	}
	if got := tr.sweepNext(c, 1, names, w, true); !slices.Equal(got, []int64{2, 3, 4}) {
		t.Errorf("summarized (another query): %v, want [2 3 4]", got)
	}
}

// Callers' lists are kept for sweepOrders callers, the least recently listing one
// dropped first, and sweepOrderIDs ids each, the newest kept.
func TestSweepOrdersBounded(t *testing.T) {
	clock := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tr := sweepOrderTranslator(&clock)
	caller := func(i int) Caller { return Caller{KeyHash: "k" + strconv.Itoa(i), AccountID: 1} }
	for i := range sweepOrders {
		tr.listed(caller(i), []int64{1, 2})
		clock = clock.Add(time.Second)
	}
	tr.listed(caller(0), []int64{1, 2}) // caller 0 lists again: now caller 1 is the oldest
	clock = clock.Add(time.Second)
	tr.listed(caller(sweepOrders), []int64{1, 2})
	if n := len(tr.sweeps.orders); n != sweepOrders {
		t.Fatalf("%d orders kept, want %d", n, sweepOrders)
	}
	for i, want := range map[int]bool{0: true, 1: false, 2: true, sweepOrders: true} {
		if _, ok := tr.sweeps.orders[caller(i).cacheKey("sweep-order")]; ok != want {
			t.Errorf("caller %d kept %v, want %v", i, ok, want)
		}
	}
	c := caller(0)
	tr.listed(c, sweepIDs(10, 10+sweepOrderIDs))
	ids := tr.sweeps.orders[c.cacheKey("sweep-order")].ids
	if len(ids) != sweepOrderIDs || ids[0] != 11 || ids[len(ids)-1] != 10+sweepOrderIDs {
		t.Errorf("%d ids from %d to %d, want %d from 11 (1, 2 and 10 dropped)", len(ids), ids[0], ids[len(ids)-1], sweepOrderIDs)
	}
}

// Only a request of an application's own scope in one query shares a sweep.
func TestSweepableOnlyAnApplicationsOwnScope(t *testing.T) {
	one, two := []string{"q"}, []string{"q", "r"}
	tests := []struct {
		s       MetricScope
		queries []string
		want    bool
	}{
		{MetricScope{AppID: 7}, one, true},
		{MetricScope{AppID: 7}, two, false},
		{MetricScope{AppID: 7, Host: "h"}, one, false},
		{MetricScope{AppID: 7, InstanceID: 3}, one, false},
		{MetricScope{AppID: 7, Mobile: true}, one, false},
		{MetricScope{}, one, false},
	}
	for _, tt := range tests {
		if got := sweepable(tt.s, tt.queries); got != tt.want {
			t.Errorf("sweepable(%+v, %d queries) = %v", tt.s, len(tt.queries), got)
		}
	}
}

// Groups are bounded: when sweepGroups are kept, the idle ones (nothing in flight,
// quiet past sweepGap) make room; with none idle a new group is refused (asked alone).
func TestSweepGroupsBounded(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	sw := newSweeps()
	for i := range sweepGroups {
		g := sw.group("g"+strconv.Itoa(i), now)
		g.last = now
		if i == 0 {
			g.flying[7] = &sweepFetch{} // in flight: never dropped
		}
	}
	if g := sw.group("new", now.Add(sweepGap)); g != nil {
		t.Fatal("a new group while every group is within sweepGap")
	}
	if g := sw.group("g5", now.Add(sweepGap)); g == nil {
		t.Fatal("an existing group refused")
	}
	if g := sw.group("new", now.Add(sweepGap+time.Nanosecond)); g == nil {
		t.Fatal("no room made from idle groups")
	}
	if _, ok := sw.groups["g0"]; !ok || len(sw.groups) != 2 {
		t.Errorf("%d groups kept (g0 in flight kept %v), want g0 and the new one", len(sw.groups), ok)
	}
}
