package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/v2bridge/v2bridge/graphql/sim"
)

// namePages counts the AppNamePage requests the simulator receives, by entity search:
// the searches of one name index read run at once, each page after page, so the
// longest is the read's sequential depth (counted, not timed).
type namePages struct {
	mu    sync.Mutex
	pages map[string]int
}

func (p *namePages) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		var req struct {
			OperationName string         `json:"operationName"`
			Variables     map[string]any `json:"variables"`
		}
		if json.Unmarshal(b, &req) == nil && req.OperationName == "AppNamePage" {
			q, _ := req.Variables["query"].(string)
			p.mu.Lock()
			if p.pages == nil {
				p.pages = map[string]int{}
			}
			p.pages[q]++
			p.mu.Unlock()
		}
		next.ServeHTTP(w, r)
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
// one for the rest (none: a page), all at once, beside the whole search's count: 35
// round trips, but the lookup's sequential depth is 1 + 1 + 4 + 1 where one search of
// every page was 1 + 1 + 25 + 1. Every later lookup, of any name, is matched in the
// index and costs the match's page alone; the POST one round trip.
func TestDeployHookLookupRoundTrips(t *testing.T) {
	l, err := sim.ParseScale("apps=5000,hosts=1,names=10")
	if err != nil {
		t.Fatal(err)
	}
	var np namePages
	e := newCapsEnv(t, l, sim.WithMiddleware(np.wrap))
	calls := func(r response) int {
		n, _ := strconv.Atoi(r.header.Get("X-V2bridge-Upstream-Calls"))
		return n
	}
	lookup := func(i int) (response, string) {
		name := l.LargeAppName(i)
		return e.get(t, "/v2/applications.json?filter[name]="+url.QueryEscape(name), keyLarge), name
	}
	const languages = 8
	perLanguage := (5000/languages + 199) / 200
	for _, tt := range []struct {
		name      string
		app       int
		maxCalls  int
		wantCalls int
		wantDepth int // name searches' longest, in pages (0: no name search)
	}{
		{"cold", 4321, 0, 1 + 1 + (1 + languages*perLanguage + 1) + 1, perLanguage},
		{"warm, another name", 17, 2, 0, 0},
		{"warm, a third name", 2999, 2, 0, 0},
	} {
		r, name := lookup(tt.app)
		if r.status != 200 || !strings.Contains(string(r.body), `"name":"`+name+`"`) {
			t.Fatalf("%s: %d %s", tt.name, r.status, r.body)
		}
		got := calls(r)
		if (tt.wantCalls > 0 && got != tt.wantCalls) || (tt.maxCalls > 0 && got > tt.maxCalls) {
			t.Errorf("%s lookup: %d round trips, want %d (at most %d)", tt.name, got, tt.wantCalls, tt.maxCalls)
		}
		if searches, depth := np.take(); depth != tt.wantDepth || (depth > 0 && searches != languages+1) {
			t.Errorf("%s lookup: %d name searches, the longest %d pages; want %d pages", tt.name, searches, depth, tt.wantDepth)
		}
	}
	id := l.LargeAppID(17)
	r := e.do(t, "POST", fmt.Sprintf("/v2/applications/%d/deployments.json", id), keyLarge,
		strings.NewReader(`{"deployment":{"revision":"v42"}}`), "Content-Type", "application/json")
	if r.status != 201 || calls(r) != 1 {
		t.Errorf("POST deployment: %d with %d round trips, want 201 with 1: %s", r.status, calls(r), r.body)
	}
}
