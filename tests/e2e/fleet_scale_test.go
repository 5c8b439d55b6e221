package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// A large account's list through a fleet (store.shared_cache): the application
// search's page cursors, the mark of a large account and a name pass's matching ids
// live in the store, so Link paging through a load balancer that sends each page to
// another replica costs what it costs on one replica, and a filter[name] pass read
// through one replica serves the others. The control (no shared cache) shows what
// each replica reads on its own.

// fleetCursorsApps is the large account's size: 5 pages.
const fleetCursorsApps = 1000

// The counts these tests assert are of operations whose number does not depend on
// time: entity-search hops (AppCursor), name pages (AppNamePage), and whether a page's
// AppList asked for the account-wide inventory. Round trips (X-V2bridge-Upstream-Calls)
// are not asserted: under -race on a loaded machine the simulator's NRQL can pass
// NerdGraph's 5 s and the client then retries the partial answer.

// cursorFleet is three replicas over one store and a simulator holding the large
// account (keyLarge) with hosts hosts an application (1: each simulated inventory
// costs a third), with each AppList's withInventory recorded. Its 1000 applications
// fill the account-wide inventory's LIMIT (translate accountInventoryApps), so the
// first page marks the account large either way.
type cursorFleet struct {
	*fleetEnv
	asks inventoryAsks // partial_test.go
}

func newCursorFleet(t *testing.T, shared bool, hosts int) *cursorFleet {
	t.Helper()
	l, err := sim.ParseScale("apps=" + strconv.Itoa(fleetCursorsApps) + ",hosts=" + strconv.Itoa(hosts) + ",names=10")
	if err != nil {
		t.Fatal(err)
	}
	l.ID, l.Key = 3000001, keyLarge
	cf := &cursorFleet{}
	cf.fleetEnv = newFleetWith(t, fleetOptions{replicas: 3, store: true, limit: -1, sharedCache: shared,
		upstreamTimeout: 4 * time.Minute, sim: []sim.Option{sim.WithLargeAccount(l)}, wrap: cf.asks.wrap})
	return cf
}

// askedInventory reports whether any AppList since the last call asked for the
// account-wide inventory.
func (cf *cursorFleet) askedInventory() bool { return slices.Contains(cf.asks.take(), true) }

// cursorPage is one page of the large account's list through srv: the entity-search
// hops made for it (AppCursor operations at the simulator) and its ids.
type cursorPage struct {
	hops int64
	ids  []string
}

var appIDRe = regexp.MustCompile(`\{"id":(\d+),"name"`)

func getCursorPage(t *testing.T, f *cursorFleet, srv *httptest.Server, page int) cursorPage {
	t.Helper()
	before := f.sim.RequestsByOperation()["AppCursor"]
	r := fleetDoKey(t, srv, keyLarge, http.MethodGet, "/v2/applications.json?page="+strconv.Itoa(page), "")
	if r.status != 200 {
		t.Fatalf("page %d: %d %.200s", page, r.status, r.body)
	}
	var ids []string
	for _, m := range appIDRe.FindAllSubmatch(r.body, -1) {
		ids = append(ids, string(m[1]))
	}
	if len(ids) != 200 {
		t.Fatalf("page %d: %d applications", page, len(ids))
	}
	return cursorPage{hops: f.sim.RequestsByOperation()["AppCursor"] - before, ids: ids}
}

// Link paging round-robin over three replicas (page 1 on A, 2 on B, 3 on C, 4 on A, 5
// on B): with shared cursors no replica hops, as on one replica (each page's cursor was
// cached by the page before it); without, each replica hops from the last cursor it
// holds itself. Both read the same 1000 applications once each.
func TestFleetSharedCursorsLinkPaging(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(map[bool]string{true: "shared", false: "control"}[shared], func(t *testing.T) {
			f := newCursorFleet(t, shared, 1)
			seen := map[string]bool{}
			var hops int64
			for page := 1; page <= fleetCursorsApps/200; page++ {
				p := getCursorPage(t, f, f.replicas[(page-1)%3], page)
				hops += p.hops
				for _, id := range p.ids {
					if seen[id] {
						t.Fatalf("page %d: application %s listed twice", page, id)
					}
					seen[id] = true
				}
				if shared && p.hops != 0 {
					t.Errorf("page %d on replica %d: %d hops, want none as on one replica", page, (page-1)%3, p.hops)
				}
			}
			if !shared && hops == 0 {
				t.Fatal("control: no replica hopped: the control no longer shows per-replica cursors")
			}
			t.Logf("%d entity-search hops over 5 pages", hops)
		})
	}
}

// A filter[name] pass on a large account (every page of names, then the matches by
// id) read through A serves B: B reads no page of names. Without the store B reads
// every page of names again. (A cold page walked to through one replica and read by
// another without a hop: translate TestSharedCursors.)
func TestFleetSharedNamePass(t *testing.T) {
	const filter = "/v2/applications.json?filter[name]=team007"
	for _, shared := range []bool{true, false} {
		t.Run(map[bool]string{true: "shared", false: "control"}[shared], func(t *testing.T) {
			f := newCursorFleet(t, shared, 3)
			a, b := f.replicas[0], f.replicas[1]
			getCursorPage(t, f, a, 1)
			if !f.askedInventory() {
				t.Fatal("A's first page 1 did not ask for the account-wide inventory")
			}
			// The mark that the account is large (its inventory was cut) is shared: B's
			// page 1 does not ask for that inventory again; without the store it does.
			getCursorPage(t, f, b, 1)
			if got := f.askedInventory(); got == shared {
				t.Fatalf("B's page 1 after A's asked for the account-wide inventory: %v, want %v", got, !shared)
			}
			passes := func() int64 { return f.sim.RequestsByOperation()["AppNamePage"] }
			// The name index: a page from each end of each of the eight agent
			// languages (125 applications each) and of the rest (translate/nameindex/read.go).
			const indexPages = 2 * (8 + 1)
			ra := fleetDoKey(t, a, keyLarge, http.MethodGet, filter, "")
			if n := passes(); ra.status != 200 || n != indexPages {
				t.Fatalf("A: %d after %d name pages, want 200 after %d", ra.status, n, indexPages)
			}
			rb := fleetDoKey(t, b, keyLarge, http.MethodGet, filter, "")
			want := map[bool]int64{true: 1, false: 2}[shared] * indexPages
			if n := passes(); rb.status != 200 || n != want {
				t.Fatalf("B: %d, %d name pages in all, want %d", rb.status, n, want)
			}
			for _, r := range []response{ra, rb} {
				if n := bytes.Count(r.body, []byte(`"health_status"`)); n != 10 {
					t.Fatalf("%d applications, want the 10 matches: %.300s", n, r.body)
				}
			}
		})
	}
}
