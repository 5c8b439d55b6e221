package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// A fleet of replicas on one store (store.shared_cache) in front of a generated account
// of 5,000 applications: the name index one replica read serves the others and a
// replica that starts later; an application renamed through one replica changes that
// application's entry in place, so the lookups after it, on both replicas, cost a few
// round trips and no replica reads the account again. Counts are operations at the
// simulator, background reads included.

func TestFleetWriteKeepsNameIndex(t *testing.T) {
	l, err := sim.ParseScale("apps=" + strconv.Itoa(sweepApps) + ",hosts=1,names=10")
	if err != nil {
		t.Fatal(err)
	}
	l.ID, l.Key = 3000001, keyLarge
	f := newFleetWith(t, fleetOptions{replicas: 3, store: true, sharedCache: true, limit: -1,
		upstreamTimeout: 4 * time.Minute, sim: []sim.Option{sim.WithLargeAccount(l)}})
	a, b, restarted := f.replicas[0], f.replicas[1], f.replicas[2]
	trips := func() int64 {
		var n int64
		for _, v := range f.sim.RequestsByOperation() {
			n += v
		}
		return n
	}
	namePages := func() int64 { return f.sim.RequestsByOperation()["AppNamePage"] }
	idOf := regexp.MustCompile(`"id":(\d+),"name":"([^"]*)"`)
	lookup := func(srv *httptest.Server, step, name string) (ids []string) {
		t.Helper()
		r := fleetDoKey(t, srv, keyLarge, http.MethodGet, "/v2/applications.json?filter[name]="+url.QueryEscape(name), "")
		if r.status != 200 {
			t.Fatalf("%s: %d %.200s", step, r.status, r.body)
		}
		for _, m := range idOf.FindAllSubmatch(r.body, -1) {
			ids = append(ids, string(m[1]))
		}
		return ids
	}
	target := l.LargeAppName(42)
	id := strconv.Itoa(l.LargeAppID(42))
	lookup(a, "A, cold", target)
	if namePages() == 0 {
		t.Fatal("A's cold lookup read no page of names: the account is not served by the name index")
	}
	pagesAfterA := namePages()
	before := trips()
	if got := lookup(b, "B joins the warm fleet", target); len(got) != 1 || got[0] != id {
		t.Fatalf("B found %v, want [%s]", got, id)
	}
	if n := trips() - before; n > 2 {
		t.Errorf("B's first lookup: %d round trips, want at most 2 (the index from the store)", n)
	}

	before = trips()
	renamed := "Renamed Checkout Sweep"
	if r := fleetDoKey(t, a, keyLarge, http.MethodPut, "/v2/applications/"+id+".json", `{"application":{"name":"`+renamed+`"}}`); r.status != 200 {
		t.Fatalf("rename: %d %.200s", r.status, r.body)
	}
	// A's own index was edited before the PUT answered: a fragment of the new name finds it.
	if got := lookup(a, "A after the rename", "checkout swe"); len(got) != 1 || got[0] != id {
		t.Fatalf("A after the rename found %v for a fragment of the new name, want [%s]", got, id)
	}
	if got := lookup(b, "B after the rename", renamed); len(got) != 1 || got[0] != id {
		t.Fatalf("B after the rename found %v, want [%s]", got, id)
	}
	if got := lookup(b, "B, the old name", target); len(got) != 0 {
		t.Fatalf("B still finds %v by the old name", got)
	}
	putAndLookups := trips() - before

	before = trips()
	if got := lookup(restarted, "a replica restarted", renamed); len(got) != 1 || got[0] != id {
		t.Fatalf("the restarted replica found %v, want [%s]", got, id)
	}
	restart := trips() - before
	if n := namePages() - pagesAfterA; n > 2 {
		t.Errorf("%d pages of names read after A's cold read, want at most 2 (equality look-ups): an index was read again", n)
	}
	if putAndLookups > 8 || restart > 2 {
		t.Errorf("a PUT and lookups on two replicas: %d round trips (want at most 8); a restarted replica's first lookup: %d (want at most 2)",
			putAndLookups, restart)
	}
	t.Logf("PUT then lookups on two replicas: %d round trips; restarted replica's first lookup: %d", putAndLookups, restart)
}
