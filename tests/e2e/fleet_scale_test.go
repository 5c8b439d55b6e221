package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"

	"github.com/v2bridge/v2bridge/graphql/sim"
)

// A large account's list through a fleet (store.shared_cache): the application
// search's page cursors, the mark of a large account and a name pass's matching ids
// live in the store, so Link paging through a load balancer that sends each page to
// another replica costs what it costs on one replica, a walk to a cold page done by
// one replica serves the others, and so does a filter[name] pass. The control (no
// shared cache) shows what each replica reads on its own.

// fleetCursorsApps is the large account's size: 5 pages, and an account-wide inventory
// past NRDB's 5000 facets (so the account is marked large).
const fleetCursorsApps = 1000

// newCursorFleet is three replicas over one store and a simulator holding the large
// account (keyLarge).
func newCursorFleet(t *testing.T, shared bool) *fleetEnv {
	t.Helper()
	l, err := sim.ParseScale("apps=" + strconv.Itoa(fleetCursorsApps) + ",hosts=3,names=10")
	if err != nil {
		t.Fatal(err)
	}
	l.ID, l.Key = 3000001, keyLarge
	return newFleetWith(t, fleetOptions{replicas: 3, store: true, limit: -1, sharedCache: shared,
		sim: []sim.Option{sim.WithLargeAccount(l)}})
}

// cursorPage is one page of the large account's list through srv: its round trips, the
// entity-search hops made for it (AppCursor operations at the simulator), and its ids.
type cursorPage struct {
	calls, hops int64
	ids         []string
}

var appIDRe = regexp.MustCompile(`\{"id":(\d+),"name"`)

func getCursorPage(t *testing.T, f *fleetEnv, srv *httptest.Server, page int) cursorPage {
	t.Helper()
	before := f.sim.RequestsByOperation()["AppCursor"]
	r := fleetDoKey(t, srv, keyLarge, http.MethodGet, "/v2/applications.json?page="+strconv.Itoa(page), "")
	if r.status != 200 {
		t.Fatalf("page %d: %d %.200s", page, r.status, r.body)
	}
	calls, _ := strconv.ParseInt(r.header.Get("X-V2bridge-Upstream-Calls"), 10, 64)
	var ids []string
	for _, m := range appIDRe.FindAllSubmatch(r.body, -1) {
		ids = append(ids, string(m[1]))
	}
	return cursorPage{calls: calls, hops: f.sim.RequestsByOperation()["AppCursor"] - before, ids: ids}
}

// Link paging round-robin over three replicas (page 1 on A, 2 on B, 3 on C, 4 on A, 5
// on B): with shared cursors no replica hops, and every page after the first costs the
// 2 round trips of paging on one replica (TestScaleRoundTrips: the search without the
// account-wide inventory, then the page's); without, each replica hops from the last
// cursor it holds itself. Both read the same 1000 applications once each.
func TestFleetSharedCursorsLinkPaging(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(map[bool]string{true: "shared", false: "control"}[shared], func(t *testing.T) {
			f := newCursorFleet(t, shared)
			seen := map[string]bool{}
			var hops int64
			for page := 1; page <= fleetCursorsApps/200; page++ {
				srv := f.replicas[(page-1)%3]
				p := getCursorPage(t, f, srv, page)
				hops += p.hops
				if len(p.ids) != 200 {
					t.Fatalf("page %d: %d applications", page, len(p.ids))
				}
				for _, id := range p.ids {
					if seen[id] {
						t.Fatalf("page %d: application %s listed twice", page, id)
					}
					seen[id] = true
				}
				if shared && page > 1 && (p.calls != 2 || p.hops != 0) {
					t.Errorf("page %d on replica %d: %d round trips (%d hops), want 2 (0 hops) as on one replica",
						page, (page-1)%3, p.calls, p.hops)
				}
			}
			if !shared && hops == 0 {
				t.Fatal("control: no replica hopped: the control no longer shows per-replica cursors")
			}
			if shared && hops != 0 {
				t.Fatalf("%d hops with shared cursors", hops)
			}
			t.Logf("%d entity-search hops over 5 pages", hops)
		})
	}
}

// The mark that the account is large is shared: B's first page 1 leaves out the
// account-wide inventory A found cut at 5000 facets. A page walked to through A is
// then served by B and C without a hop: B asks for the same page, C for a page A's
// walk passed.
func TestFleetSharedCursorsColdWalk(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(map[bool]string{true: "shared", false: "control"}[shared], func(t *testing.T) {
			f := newCursorFleet(t, shared)
			a, b, c := f.replicas[0], f.replicas[1], f.replicas[2]
			// A's first request: the key's account, the search with the account-wide
			// inventory (cut: the account is marked large), the page's inventory.
			if p := getCursorPage(t, f, a, 1); p.calls != 3 {
				t.Fatalf("A's page 1: %d round trips, want 3", p.calls)
			}
			// B's: with the store, the account list and the mark are known (the search
			// and the page's inventory); without, B pays what A paid.
			want := map[bool]int64{true: 2, false: 3}[shared]
			if p := getCursorPage(t, f, b, 1); p.calls != want {
				t.Fatalf("B's page 1 after A's: %d round trips, want %d", p.calls, want)
			}
			// A walks from page 2 (its page 1 left that cursor) to page 4.
			pa := getCursorPage(t, f, a, 4)
			if pa.hops != 2 || pa.calls != 4 {
				t.Fatalf("A's page 4: %d round trips with %d hops, want 4 with 2", pa.calls, pa.hops)
			}
			pb := getCursorPage(t, f, b, 4)
			pc := getCursorPage(t, f, c, 3)
			if shared {
				if pb.hops != 0 || pb.calls != 2 || pc.hops != 0 {
					t.Fatalf("B's page 4: %d round trips with %d hops (want 2 with none), C's page 3: %d hops (want none)",
						pb.calls, pb.hops, pc.hops)
				}
			} else if pb.hops != 2 || pc.hops != 2 {
				t.Fatalf("control: B's page 4 %d hops (want 2), C's page 3 %d (want 2)", pb.hops, pc.hops)
			}
			if len(pb.ids) != 200 || pb.ids[0] != pa.ids[0] || pb.ids[199] != pa.ids[199] {
				t.Fatalf("B's page 4 differs from A's")
			}
		})
	}
}

// A filter[name] pass on a large account (every page of names, then the matches by
// id) read through A serves B: B reads only the page's applications by id. Without
// the store B reads every page of names again.
func TestFleetSharedNamePass(t *testing.T) {
	const filter = "/v2/applications.json?filter[name]=team007"
	for _, shared := range []bool{true, false} {
		t.Run(map[bool]string{true: "shared", false: "control"}[shared], func(t *testing.T) {
			f := newCursorFleet(t, shared)
			a, b := f.replicas[0], f.replicas[1]
			for _, srv := range []*httptest.Server{a, b} { // both know the account is large
				getCursorPage(t, f, srv, 1)
			}
			passes := func() int64 { return f.sim.RequestsByOperation()["AppNamePage"] }
			ra := fleetDoKey(t, a, keyLarge, http.MethodGet, filter, "")
			if n := passes(); ra.status != 200 || n != fleetCursorsApps/200 {
				t.Fatalf("A: %d after %d name pages, want 200 after %d", ra.status, n, fleetCursorsApps/200)
			}
			rb := fleetDoKey(t, b, keyLarge, http.MethodGet, filter, "")
			calls := upstreamCalls(t, rb)
			if shared {
				if n := passes(); n != fleetCursorsApps/200 || calls != "1" {
					t.Fatalf("B: %s round trips, %d name pages in all; want 1 (the matches by id) and A's %d",
						calls, n, fleetCursorsApps/200)
				}
			} else if n := passes(); n != 2*fleetCursorsApps/200 {
				t.Fatalf("control: %d name pages, want B to read all %d again", n, fleetCursorsApps/200)
			}
			if !bytes.Equal(ra.body, rb.body) || bytes.Count(ra.body, []byte(`"health_status"`)) != 10 {
				t.Fatalf("A and B answer differently, or not the 10 matches:\n%.300s\n%.300s", ra.body, rb.body)
			}
		})
	}
}
