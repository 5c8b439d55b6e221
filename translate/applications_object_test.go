package translate

import (
	"context"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// TestAppArenaPartsAreSeparate: the parts handed out by the arena are distinct
// values, an append to one application's host ids never writes into another's, and
// a full or nil arena still hands out parts.
func TestAppArenaPartsAreSeparate(t *testing.T) {
	for _, a := range []*appArena{nil, newAppArena(0), newAppArena(2)} {
		t1, t2 := a.time(time.Unix(1, 0)), a.time(time.Unix(2, 0))
		s1, s2 := a.summary(restv2.ApplicationSummary{HostCount: 1}), a.summary(restv2.ApplicationSummary{HostCount: 2})
		l1, l2 := a.link(restv2.ApplicationLinks{ApplicationHosts: []int64{1}}), a.link(restv2.ApplicationLinks{})
		if t1 == t2 || s1 == s2 || l1 == l2 || t1.Unix() != 1 || t2.Unix() != 2 || s1.HostCount != 1 || s2.HostCount != 2 || len(l1.ApplicationHosts) != 1 {
			t.Fatalf("arena %v: parts shared or lost", a)
		}
		h1 := append(a.hostIDs(2), 10, 11)
		h2 := append(a.hostIDs(1), 20)
		h1 = append(h1, 12) // past its room: must not reach h2
		if h2[0] != 20 || len(h1) != 3 || h1[2] != 12 {
			t.Fatalf("arena %v: host ids overlap: %v %v", a, h1, h2)
		}
		if h := a.hostIDs(0); h == nil || len(h) != 0 {
			t.Fatalf("arena %v: hostIDs(0) = %#v, want an empty non-nil slice", a, h)
		}
	}
}

// The arena hands out its own elements while it has room (the page's parts in one
// allocation per kind), and a block of host ids is used to its last id.
func TestAppArenaUsesItsRoom(t *testing.T) {
	a := newAppArena(2)
	t1 := a.time(time.Unix(1, 0))
	s1 := a.summary(restv2.ApplicationSummary{HostCount: 1})
	l1 := a.link(restv2.ApplicationLinks{})
	if len(a.times) != 1 || t1 != &a.times[0] || len(a.summaries) != 1 || s1 != &a.summaries[0] || len(a.links) != 1 || l1 != &a.links[0] {
		t.Fatal("a part with room in the arena was not taken from it")
	}
	a.time(time.Unix(2, 0))
	t3 := a.time(time.Unix(3, 0)) // full: a heap copy, the arena unchanged
	if len(a.times) != 2 || cap(a.times) != 2 || t3.Unix() != 3 || t3 == &a.times[0] || t3 == &a.times[1] {
		t.Fatal("a full arena grew")
	}
	h1 := a.hostIDs(200)
	h2 := a.hostIDs(56) // exactly the block's room
	if len(a.ids) != 256 || cap(a.ids) != 256 || &h1[:1][0] != &a.ids[0] || &h2[:1][0] != &a.ids[200] {
		t.Fatalf("host ids: block of %d/%d; the exact fit took a new block", len(a.ids), cap(a.ids))
	}
	if allocs := testing.AllocsPerRun(20, func() {
		b := newAppArena(0)
		b.hostIDs(100)
		b.hostIDs(156)
	}); allocs > 1 { // one block (the arena itself may stay on the stack)
		t.Errorf("%v allocations for 256 host ids, want 1 block", allocs)
	}
}

// The summary's response time is in milliseconds; an application with no web throughput
// (0) shows its non-web transactions, one with web throughput its web ones.
func TestAppSummaryWebOrNonWeb(t *testing.T) {
	tests := []struct {
		name     string
		summary  map[string]any
		wantRT   float64
		wantTput float64
	}{
		{"web", map[string]any{"webResponseTimeAverage": 0.25, "webThroughput": 5, "nonWebResponseTimeAverage": 2, "nonWebThroughput": 9}, 250, 5},
		{"no web throughput", map[string]any{"webResponseTimeAverage": 0, "webThroughput": 0, "nonWebResponseTimeAverage": 0.0125, "nonWebThroughput": 4}, 12.5, 4},
	}
	for _, tt := range tests {
		tr := New(appShowFake(tt.summary, nil), Options{})
		doc, err := tr.ShowApplication(context.Background(), Caller{AccountID: 1}, 7)
		if err != nil {
			t.Fatal(err)
		}
		s := doc.Application.Summary
		if s == nil || s.ResponseTime != tt.wantRT || s.Throughput != tt.wantTput {
			t.Errorf("%s: summary %+v, want response time %v, throughput %v", tt.name, s, tt.wantRT, tt.wantTput)
		}
	}
}
