package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

// namePages counts the AppNamePage requests the simulator receives, by entity search
// and order (sortByWithDirection): the searches of one name index read run at once,
// each from both ends page after page, so the longest is the read's sequential depth
// (counted, not timed).
type namePages struct {
	mu    sync.Mutex
	pages map[string]int
}

func (p *namePages) wrap(next http.Handler) http.Handler {
	return watchOperations(next, func(op string, vars map[string]any) {
		if op == "AppNamePage" {
			q, _ := vars["query"].(string)
			if s, ok := vars["sortByWithDirection"]; ok {
				q += fmt.Sprint(" ", s)
			}
			p.mu.Lock()
			if p.pages == nil {
				p.pages = map[string]int{}
			}
			p.pages[q]++
			p.mu.Unlock()
		}
	})
}

// take returns the searches since the last call and the pages of the longest.
func (p *namePages) take() (searches, longest int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.pages {
		longest = max(longest, n)
	}
	searches = len(p.pages)
	p.pages = nil
	return searches, longest
}

// A deploy hook looks its application up by exact name, then POSTs a deployment. On a
// fresh gateway and an account of 5,000 applications the first lookup reads the key's
// account and the search's first page, which shows the account large, then the
// account's name index once and the match by id. The index is read as one search per
// agent language (the simulator's eight in turn: 625 applications, 4 pages each) and
// one for the rest (none: a page), each read from both ends (2 pages each, and a page),
// all at once, beside the whole search's count: 38 round trips, but the lookup's
// sequential depth is 1 + 1 + 2 + 1 where one search of every page was 1 + 1 + 25 + 1. Every later lookup, of any name, is matched in the
// index and costs the match's page alone, also once the index is older than its
// refresh age (it is then read again behind the lookup, not on its path); the POST one
// round trip.
func TestDeployHookLookupRoundTrips(t *testing.T) {
	l, err := sim.ParseScale("apps=5000,hosts=1,names=10")
	if err != nil {
		t.Fatal(err)
	}
	var np namePages
	clk := &ingestClock{t: harness.Clock}
	e := newLargeClockedEnv(t, l, clk, sim.WithMiddleware(np.wrap))
	calls := func(r response) int {
		n, _ := strconv.Atoi(r.header.Get("X-V2bridge-Upstream-Calls"))
		return n
	}
	lookup := func(i int) (response, string) {
		name := l.LargeAppName(i)
		return e.get(t, "/v2/applications.json?filter[name]="+url.QueryEscape(name), keyLarge), name
	}
	const languages = 8
	perEnd := 5000/languages/400 + 1        // the rounds until the ends overlap
	readPages := 2 * (languages*perEnd + 1) // every partition's pages, from both ends
	const anyDepth = -1                     // a background read may be under way
	for _, tt := range []struct {
		name      string
		advance   time.Duration
		app       int
		maxCalls  int
		wantCalls int
		wantDepth int // name searches' longest, in pages (0: no name search)
	}{
		{"cold", 0, 4321, 0, 1 + 1 + (1 + readPages) + 1, perEnd},
		{"warm, another name", 0, 17, 2, 0, 0},
		{"warm, a third name", 0, 2999, 2, 0, 0},
		{"past the index's refresh age", translate.DefaultNameIndexRefresh, 1234, 2, 0, anyDepth},
		{"while it is read again", 0, 4000, 2, 0, anyDepth},
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
		if tt.wantDepth == anyDepth {
			continue
		}
		if searches, depth := np.take(); depth != tt.wantDepth || (depth > 0 && searches != 2*(languages+1)) {
			t.Errorf("%s lookup: %d name searches, the longest %d pages; want %d pages", tt.name, searches, depth, tt.wantDepth)
		}
	}
	// The index is read again once, behind the lookups (every partition's pages).
	for want, i := int64(2*readPages), 0; e.sim.RequestsByOperation()["AppNamePage"] < want; i++ {
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

// newLargeClockedEnv is newCapsEnv's gateway over a simulator holding l (and more's
// options), with the translator on clk (the name index's ages run on it).
func newLargeClockedEnv(t *testing.T, l sim.LargeAccount, clk *ingestClock, more ...sim.Option) *env {
	t.Helper()
	l.ID, l.Key = 3000001, keyLarge
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	fixed := func() time.Time { return harness.Clock }
	s, err := sim.NewDemo(data, append([]sim.Option{sim.WithClock(fixed), sim.WithLargeAccount(l)}, more...)...)
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
