package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

// A sub-query that fails inside an otherwise good answer (NerdGraph's partial data: an
// NRQL timeout under load nulls `account` and adds an error there) never silently
// drops part of a v2 answer. Before, the application show and list were served
// without links and last_reported_at (or without RUM settings), undeclared, and the
// show was kept in the entity cache so for EntityTTL.
func TestPartialAnswersAreDeclared(t *testing.T) {
	const show = "/v2/applications/314221522.json"
	// start runs the demo with the faults applied in turn (outer first).
	start := func(t *testing.T, fs ...*sim.Faults) *env {
		mw := func(next http.Handler) http.Handler {
			for i := len(fs) - 1; i >= 0; i-- {
				next = fs[i].Middleware(next)
			}
			return next
		}
		h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithMiddleware(mw)}})
		return &env{sim: h.Sim, gw: h.Gateway}
	}
	// hosts counts the application hosts linked by each application of a show or list.
	hosts := func(t *testing.T, r response) []int {
		t.Helper()
		var doc struct {
			Application *struct {
				Links struct {
					Hosts []int64 `json:"application_hosts"`
				} `json:"links"`
			} `json:"application"`
			Applications []struct {
				Links struct {
					Hosts []int64 `json:"application_hosts"`
				} `json:"links"`
			} `json:"applications"`
		}
		if err := json.Unmarshal(r.body, &doc); err != nil {
			t.Fatalf("%v: %s", err, r.body)
		}
		var n []int
		if doc.Application != nil {
			n = append(n, len(doc.Application.Links.Hosts))
		}
		for _, a := range doc.Applications {
			n = append(n, len(a.Links.Hosts))
		}
		return n
	}
	anyLinked := func(n []int) bool {
		for _, x := range n {
			if x > 0 {
				return true
			}
		}
		return false
	}

	t.Run("show: inventory failed", func(t *testing.T) {
		f := &sim.Faults{}
		e := start(t, f)
		f.Set(&sim.Fault{Operation: "AppShow", PartialPath: "account"})
		r := e.get(t, show, key1, "X-Account-ID", "1000001")
		if r.status != 200 || !strings.Contains(r.header.Get("X-V2bridge-Degraded"), string(translate.CapInventoryFailed)) {
			t.Fatalf("status %d, degraded %q: %s", r.status, r.header.Get("X-V2bridge-Degraded"), r.body)
		}
		if anyLinked(hosts(t, r)) {
			t.Fatalf("links without an inventory: %s", r.body)
		}
		// Not cached: once NerdGraph answers whole, the next show reads again and is whole.
		f.Set(nil)
		r = e.get(t, show, key1, "X-Account-ID", "1000001")
		if r.status != 200 || r.header.Get("X-V2bridge-Degraded") != "" || r.header.Get("X-V2bridge-Upstream-Calls") != "1" || !anyLinked(hosts(t, r)) {
			t.Fatalf("second show: status %d, degraded %q, calls %s: %s", r.status, r.header.Get("X-V2bridge-Degraded"),
				r.header.Get("X-V2bridge-Upstream-Calls"), r.body)
		}
	})

	t.Run("list: browser applications failed", func(t *testing.T) {
		f := &sim.Faults{}
		e := start(t, f)
		f.Set(&sim.Fault{Operation: "AppList", PartialPath: "browsers"})
		r := e.get(t, "/v2/applications.json", key1, "X-Account-ID", "1000001")
		if r.status != 200 || !strings.Contains(r.header.Get("X-V2bridge-Degraded"), string(translate.CapBrowsersFailed)) {
			t.Fatalf("status %d, degraded %q", r.status, r.header.Get("X-V2bridge-Degraded"))
		}
	})

	t.Run("list: inventory failed, read again for the page", func(t *testing.T) {
		f := &sim.Faults{}
		e := start(t, f)
		// Every attempt of the page's AppList loses its inventory (the client retries a
		// partial answer of class INTERNAL_SERVER_ERROR); the page's own inventory read
		// then answers.
		f.Set(&sim.Fault{Operation: "AppList", PartialPath: "account"})
		r := e.get(t, "/v2/applications.json", key1, "X-Account-ID", "1000001")
		if r.status != 200 || r.header.Get("X-V2bridge-Degraded") != "" || !anyLinked(hosts(t, r)) {
			t.Fatalf("status %d, degraded %q, calls %s", r.status, r.header.Get("X-V2bridge-Degraded"), r.header.Get("X-V2bridge-Upstream-Calls"))
		}
	})

	t.Run("list: the page's inventory failed too", func(t *testing.T) {
		list, nrql := &sim.Faults{}, &sim.Faults{}
		e := start(t, list, nrql)
		list.Set(&sim.Fault{Operation: "AppList", PartialPath: "account"})
		nrql.Set(&sim.Fault{Operation: "AppInventory", ErrorClass: "TIMEOUT"})
		r := e.get(t, "/v2/applications.json?filter[name]=a", key1, "X-Account-ID", "1000001")
		if r.status != 200 || !strings.Contains(r.header.Get("X-V2bridge-Degraded"), string(translate.CapInventoryFailed)) || anyLinked(hosts(t, r)) {
			t.Fatalf("status %d, degraded %q: %s", r.status, r.header.Get("X-V2bridge-Degraded"), r.body)
		}
		// A failed part is not kept for ListTTL: once NerdGraph answers, the list is whole.
		list.Set(nil)
		nrql.Set(nil)
		r = e.get(t, "/v2/applications.json?filter[name]=a", key1, "X-Account-ID", "1000001")
		if r.status != 200 || r.header.Get("X-V2bridge-Degraded") != "" || !anyLinked(hosts(t, r)) {
			t.Fatalf("after recovery: status %d, degraded %q", r.status, r.header.Get("X-V2bridge-Degraded"))
		}
	})
}

// inventoryAsks records whether each AppList the simulator receives asks for the
// account-wide inventory (its withInventory variable).
type inventoryAsks struct {
	mu    sync.Mutex
	asked []bool
}

func (a *inventoryAsks) wrap(next http.Handler) http.Handler {
	return watchOperations(next, func(op string, vars map[string]any) {
		if op == "AppList" {
			a.mu.Lock()
			a.asked = append(a.asked, vars["withInventory"] == true)
			a.mu.Unlock()
		}
	})
}

// watchOperations is next with seen told each GraphQL request's operation name and
// variables first (a simulator middleware: sim.WithMiddleware).
func watchOperations(next http.Handler, seen func(op string, vars map[string]any)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		var req struct {
			OperationName string         `json:"operationName"`
			Variables     map[string]any `json:"variables"`
		}
		if json.Unmarshal(b, &req) == nil {
			seen(req.OperationName, req.Variables)
		}
		next.ServeHTTP(w, r)
	})
}

// take returns what the AppLists since the last call asked, a retry of the same
// request counted once (the client retries a partial answer; under -race a simulated
// NRQL can also pass NerdGraph's 5 s and be retried).
func (a *inventoryAsks) take() []bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := slices.Compact(a.asked)
	a.asked = nil
	return out
}

// An account of more than a page whose account-wide inventory failed (an NRQL timeout
// in NerdGraph's partial answer) does not wait for that query on every list: for
// CursorTTL its pages leave it out and read the page's inventory, as the page that met
// the failure did. Before, every page 1 sent it again (with the client's retries), so
// on an account whose inventory query times out each list paid the timeout. A
// one-page account keeps sending it (its page's inventory is the same query), and the
// failure says nothing of the account's size: filter[name] stays the full read.
func TestFailedInventoryNotResent(t *testing.T) {
	asks := &inventoryAsks{}
	f := &sim.Faults{}
	h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithMiddleware(func(next http.Handler) http.Handler {
		return asks.wrap(f.Middleware(next))
	})}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	// The fault nulls `account` whether the request asked for it or not, so it is on for
	// the requests that meet the failure only: the others show what is sent next.
	for _, tc := range []struct {
		name, key, account, path string
		fault                    bool
		want                     string // withInventory of the AppLists sent
	}{
		{"264 applications, failed", key1, "1000001", "/v2/applications.json", true, "[true]"}, // and the client's retries
		{"264 applications, page 1 again", key1, "1000001", "/v2/applications.json", false, "[false]"},
		// Page 2's search came with page 1's inventory (its page ahead): no AppList.
		{"264 applications, page 2", key1, "1000001", "/v2/applications.json?page=2", false, "[]"},
		{"another key of the account: its own", keyMulti, "1000001", "/v2/applications.json", false, "[true]"},
		{"one page, failed", key2, "1000002", "/v2/applications.json", true, "[true]"},
		{"one page, again", key2, "1000002", "/v2/applications.json", false, "[true]"},
	} {
		if tc.fault {
			f.Set(&sim.Fault{Operation: "AppList", PartialPath: "account"})
		}
		r := e.get(t, tc.path, tc.key, "X-Account-ID", tc.account)
		f.Set(nil)
		if r.status != 200 || r.header.Get("X-V2bridge-Degraded") != "" {
			t.Fatalf("%s: status %d, degraded %q", tc.name, r.status, r.header.Get("X-V2bridge-Degraded"))
		}
		if !strings.Contains(string(r.body), `"application_hosts":[`) {
			t.Fatalf("%s: no host links (the page's inventory was not read): %.300s", tc.name, r.body)
		}
		if got := fmt.Sprint(asks.take()); got != tc.want {
			t.Errorf("%s: AppList sent withInventory %s, want %s", tc.name, got, tc.want)
		}
	}
	// The failure is not a size: filter[name] on the 264 applications stays the full
	// read (listFiltered, its pages' AppLists), not the large account's name pass.
	before := e.sim.RequestsByOperation()["AppNamePage"]
	if r := e.get(t, "/v2/applications.json?filter[name]=a", key1, "X-Account-ID", "1000001"); r.status != 200 {
		t.Fatalf("filter[name]: %d", r.status)
	}
	if n := e.sim.RequestsByOperation()["AppNamePage"] - before; n != 0 {
		t.Fatalf("filter[name] took the large account's name pass (%d name pages) after an inventory failure", n)
	}
}
