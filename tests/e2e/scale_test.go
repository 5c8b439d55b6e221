package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// The NerdGraph round trips of the list paths on an account of more than a page of
// applications (tests/bench's scale scenarios, on 1,000 applications of 3 hosts: the
// account-wide inventory fills its LIMIT of 1,000 applications, translate
// accountInventoryApps). Round trips do not grow with the account: a page costs the
// search and the page's inventory, whatever the account's size (tests/bench measures
// the same on 50,000 applications).
func TestScaleRoundTrips(t *testing.T) {
	l, err := sim.ParseScale("apps=1000,hosts=3,names=300")
	if err != nil {
		t.Fatal(err)
	}
	e := newCapsEnv(t, l)
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = strconv.Itoa(e.large.LargeAppID(400 + i))
	}
	app0, app1 := strconv.Itoa(e.large.LargeAppID(0)), strconv.Itoa(e.large.LargeAppID(1))
	tests := []struct {
		name  string
		path  string
		calls int64
		items int // "id": occurrences (applications, hosts) or metric names
	}{
		// The first request of the account: the key's account, then the search with the
		// account-wide inventory (full: 1,000 rows) and the page's inventory again.
		{"list page 1, first", "/v2/applications.json", 3, 200},
		// The account is now known to hold more than a page: the search without the
		// account-wide inventory, then the page's.
		{"list page 1", "/v2/applications.json", 2, 200},
		{"list page 2 after page 1", "/v2/applications.json?page=2", 1, 200},
		// A page whose cursor is not known yet hops there: one search per page before it.
		{"list page 5, cursors of 3 and 4 unknown", "/v2/applications.json?page=5", 2 + 2, 200},
		{"list page 5 again", "/v2/applications.json?page=5", 2, 200},
		// The ids are known: the inventory is scoped to them in the same request.
		{"filter[ids] of 200", "/v2/applications.json?filter[ids]=" + strings.Join(ids, ","), 1, 200},
		{"hosts of one application", "/v2/applications/" + app1 + "/hosts.json", 1, 3},
		{"metric names", "/v2/applications/" + app0 + "/metrics.json", 1, 0},
		// filter[name] is REST's case-insensitive substring match; NerdGraph's name LIKE is
		// not documented to match every substring (translate/namefilter.go), so the first
		// filter reads the account's name index, then the matches by id. The index is one
		// search per agent language (125 applications each here: a page from each end),
		// one for the rest (the same) and the whole search's count, all at once
		// (translate/nameindex/read.go).
		// Every later name is matched in the index: the matches, and the equality look-up
		// of a name no application bears exactly (one created since the index was read).
		{"filter[name] matching 1", "/v2/applications.json?filter[name]=large-app-0042-", 2*(8+1) + 1 + 1, 1},
		{"filter[name] matching 10", "/v2/applications.json?filter[name]=team007", 1 + 1, 10},
		// every application below 1000 (all of them here): the first page of 200 matches
		{"filter[name] matching a full page", "/v2/applications.json?filter[name]=large-app-0", 1 + 1, 200},
	}
	for _, tt := range tests {
		r := e.get(t, tt.path, keyLarge)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", tt.name, r.status, r.body)
		}
		if got, _ := strconv.ParseInt(r.header.Get("X-V2bridge-Upstream-Calls"), 10, 64); got != tt.calls {
			t.Errorf("%s: %d round trips, want %d", tt.name, got, tt.calls)
		}
		if d := r.header.Get("X-V2bridge-Degraded"); d != "" {
			t.Errorf("%s: degraded %q", tt.name, d)
		}
		if tt.items > 0 {
			if got := strings.Count(string(r.body), `"id":`); got != tt.items {
				t.Errorf("%s: %d objects, want %d", tt.name, got, tt.items)
			}
		}
	}
}

// With name_filter: like, filter[name] on the same account costs 2 round trips whatever
// the account's size — the search narrowed by name LIKE, then the matches' page by id —
// and says so in X-V2bridge-Degraded; REST's match still decides what is listed.
func TestScaleRoundTripsNameLike(t *testing.T) {
	l, err := sim.ParseScale("apps=1000,hosts=3,names=300")
	if err != nil {
		t.Fatal(err)
	}
	l.ID, l.Key = 3000001, keyLarge
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{RequestTimeout: 5 * time.Minute},
		UpstreamTimeout: 4 * time.Minute, Sim: []sim.Option{sim.WithLargeAccount(l)}, NameLike: true})
	e := &env{sim: h.Sim, gw: h.Gateway}
	for _, tt := range []struct {
		name, path string
		calls      int64
		items      int
	}{
		// The key's first request looks up its account too.
		{"filter[name] matching 1, first", "/v2/applications.json?filter[name]=large-app-0042-", 1 + 2, 1},
		{"filter[name] matching 10", "/v2/applications.json?filter[name]=team007", 2, 10},
		{"filter[name] matching none", "/v2/applications.json?filter[name]=no-such-app", 1, 0}, // nothing to read by id
		{"filter[name] matching 1", "/v2/applications.json?filter[name]=LARGE-APP-0043-", 2, 1},
	} {
		r := e.get(t, tt.path, keyLarge)
		calls, _ := strconv.ParseInt(r.header.Get("X-V2bridge-Upstream-Calls"), 10, 64)
		if r.status != 200 || calls != tt.calls || strings.Count(string(r.body), `"id":`) != tt.items ||
			r.header.Get("X-V2bridge-Degraded") != "filter[name]: entity search name LIKE" {
			t.Errorf("%s: %d, %d round trips (want %d), %d objects (want %d), degraded %q", tt.name, r.status, calls, tt.calls,
				strings.Count(string(r.body), `"id":`), tt.items, r.header.Get("X-V2bridge-Degraded"))
		}
	}
}

// A cold list page whose account-wide inventory fails (an NRQL timeout on a big account)
// asks for the page once: the search that came with the failure is kept and the page's
// own inventory read, so the page costs three round trips, not the search again per
// retry, and lists every application with its instances.
func TestScaleListInventoryFailureAsksOnce(t *testing.T) {
	l, err := sim.ParseScale("apps=300")
	if err != nil {
		t.Fatal(err)
	}
	faults := &sim.Faults{}
	e := newCapsEnv(t, l, sim.WithMiddleware(faults.Middleware))
	faults.Set(&sim.Fault{Operation: "AppList", PartialPath: "account"})
	r := e.get(t, "/v2/applications.json", keyLarge)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "3" {
		t.Errorf("%s round trips, want 3 (the key's accounts, the page, the page's inventory)", got)
	}
	if n := e.sim.RequestsByOperation()["AppList"]; n != 1 {
		t.Errorf("the page was asked for %d times, want once", n)
	}
	if got := strings.Count(string(r.body), `"application_instances":[`); got != 200 {
		t.Errorf("%d applications with their instances, want 200", got)
	}
}
