package e2e

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/graphql/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

// A deploy hook looks its application up by exact name, then POSTs a deployment. On a
// fresh gateway and an account of 5,000 applications the first lookup reads the key's
// account and the search's first page, which shows the account large, then the
// account's name index once (every page of names) and the match by id; every later
// lookup, of any name, is matched in the index and costs the match's page alone, also
// once the index is older than its refresh age (it is then read again behind the
// lookup, not on its path); the POST one round trip.
func TestDeployHookLookupRoundTrips(t *testing.T) {
	l, err := sim.ParseScale("apps=5000,hosts=1,names=10")
	if err != nil {
		t.Fatal(err)
	}
	clk := &ingestClock{t: harness.Clock}
	e := newLargeClockedEnv(t, l, clk)
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
		advance   time.Duration
		app       int
		maxCalls  int
		wantCalls int
	}{
		{"cold", 0, 4321, 0, 1 + 1 + pages + 1},
		{"warm, another name", 0, 17, 2, 0},
		{"warm, a third name", 0, 2999, 2, 0},
		{"past the index's refresh age", translate.DefaultNameIndexRefresh, 1234, 2, 0},
		{"while it is read again", 0, 4000, 2, 0},
	} {
		clk.advance(tt.advance)
		r, name := lookup(tt.app)
		if r.status != 200 || !strings.Contains(string(r.body), `"name":"`+name+`"`) {
			t.Fatalf("%s: %d %s", tt.name, r.status, r.body)
		}
		got := calls(r)
		if (tt.wantCalls > 0 && got != tt.wantCalls) || (tt.maxCalls > 0 && got > tt.maxCalls) {
			t.Errorf("%s lookup: %d round trips, want %d (at most %d)", tt.name, got, tt.wantCalls, tt.maxCalls)
		}
	}
	// The index is read again once, behind the lookups (every page of names).
	for want, i := int64(2*pages), 0; e.sim.RequestsByOperation()["AppNamePage"] < want; i++ {
		if i == 600 {
			t.Fatalf("the index was not read again: %d name pages", e.sim.RequestsByOperation()["AppNamePage"])
		}
		time.Sleep(50 * time.Millisecond)
	}
	id := l.LargeAppID(17)
	r := e.do(t, "POST", fmt.Sprintf("/v2/applications/%d/deployments.json", id), keyLarge,
		strings.NewReader(`{"deployment":{"revision":"v42"}}`), "Content-Type", "application/json")
	if r.status != 201 || calls(r) != 1 {
		t.Errorf("POST deployment: %d with %d round trips, want 201 with 1: %s", r.status, calls(r), r.body)
	}
}

// newLargeClockedEnv is newCapsEnv's gateway over a simulator holding l, with the
// translator on clk (the name index's ages run on it).
func newLargeClockedEnv(t *testing.T, l sim.LargeAccount, clk *ingestClock) *env {
	t.Helper()
	l.ID, l.Key = 3000001, keyLarge
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	fixed := func() time.Time { return harness.Clock }
	s, err := sim.NewDemo(data, sim.WithClock(fixed), sim.WithLargeAccount(l))
	if err != nil {
		t.Fatal(err)
	}
	simSrv := httptest.NewServer(s)
	t.Cleanup(simSrv.Close)
	client := ng.NewClient(simSrv.URL+sim.Path, ng.Options{Timeout: 4 * time.Minute})
	tr := translate.New(client, translate.Options{Now: clk.now, Warn: gateway.NoteDegraded})
	gw := httptest.NewServer(gateway.New(gateway.Config{Now: fixed, RequestTimeout: 5 * time.Minute}, tr, nil).Handler())
	t.Cleanup(gw.Close)
	return &env{sim: s, gw: gw}
}
