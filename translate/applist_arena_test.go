package translate

import (
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestAppArenaPartsAreSeparate: the parts handed out by the arena are distinct
// values, an append to one application's host ids never writes into another's, and
// a full or nil arena still hands out parts.
func TestAppArenaPartsAreSeparate(t *testing.T) {
	for _, a := range []*appArena{nil, newAppArena(0), newAppArena(2)} {
		t1, t2 := a.time(time.Unix(1, 0)), a.time(time.Unix(2, 0))
		s1, s2 := a.summary(v2.ApplicationSummary{HostCount: 1}), a.summary(v2.ApplicationSummary{HostCount: 2})
		l1, l2 := a.link(v2.ApplicationLinks{ApplicationHosts: []int64{1}}), a.link(v2.ApplicationLinks{})
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
