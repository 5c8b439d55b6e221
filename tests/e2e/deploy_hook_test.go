package e2e

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/graphql/sim"
)

// A deploy hook looks its application up by exact name, then POSTs a deployment. On a
// fresh gateway and an account of 5,000 applications the first lookup reads the key's
// account and the search's first page, which shows the account large, then the
// account's name index once (every page of names) and the match by id; every later
// lookup, of any name, is matched in the index and costs the match's page alone; the
// POST one round trip.
func TestDeployHookLookupRoundTrips(t *testing.T) {
	l, err := sim.ParseScale("apps=5000,hosts=1,names=10")
	if err != nil {
		t.Fatal(err)
	}
	e := newCapsEnv(t, l)
	calls := func(r response) int {
		n, _ := strconv.Atoi(r.header.Get("X-V2bridge-Upstream-Calls"))
		return n
	}
	lookup := func(i int) (response, string) {
		name := l.LargeAppName(i)
		return e.get(t, "/v2/applications.json?filter[name]="+url.QueryEscape(name), keyLarge), name
	}
	pages := (5000 + 199) / 200
	for _, tt := range []struct {
		name      string
		app       int
		maxCalls  int
		wantCalls int
	}{
		{"cold", 4321, 0, 1 + 1 + pages + 1},
		{"warm, another name", 17, 2, 0},
		{"warm, a third name", 2999, 2, 0},
	} {
		r, name := lookup(tt.app)
		if r.status != 200 || !strings.Contains(string(r.body), `"name":"`+name+`"`) {
			t.Fatalf("%s: %d %s", tt.name, r.status, r.body)
		}
		got := calls(r)
		if (tt.wantCalls > 0 && got != tt.wantCalls) || (tt.maxCalls > 0 && got > tt.maxCalls) {
			t.Errorf("%s lookup: %d round trips, want %d (at most %d)", tt.name, got, tt.wantCalls, tt.maxCalls)
		}
	}
	id := l.LargeAppID(17)
	r := e.do(t, "POST", fmt.Sprintf("/v2/applications/%d/deployments.json", id), keyLarge,
		strings.NewReader(`{"deployment":{"revision":"v42"}}`), "Content-Type", "application/json")
	if r.status != 201 || calls(r) != 1 {
		t.Errorf("POST deployment: %d with %d round trips, want 201 with 1: %s", r.status, calls(r), r.body)
	}
}
