package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	ng "github.com/v2bridge/v2bridge/graphql"
)

// The name pass is chosen for an account known to be large: its account-wide inventory
// was found cut (manyApps) or a search counted more applications than it reads
// (accountInventoryApps).
func TestLargeAccount(t *testing.T) {
	tests := []struct {
		name  string
		many  bool
		count int
		want  bool
	}{
		{"unknown", false, 0, false},
		{"a page", false, 200, false},
		{"at the inventory's LIMIT", false, accountInventoryApps, false},
		{"past it", false, accountInventoryApps + 1, true},
		{"inventory cut", true, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(nil, Options{})
			c := Caller{KeyHash: "k", AccountID: 1}
			if tt.many {
				tr.st.Cursors.Set(c.cacheKey("apps-many"), true)
			}
			tr.noteAppCount(c, tt.count)
			if got := tr.largeAccount(c); got != tt.want {
				t.Errorf("largeAccount = %v, want %v", got, tt.want)
			}
			if other := (Caller{KeyHash: "k", AccountID: 2}); tr.largeAccount(other) {
				t.Error("another account is large too")
			}
		})
	}
}

// name_filter: like (Options.NameLike) puts `name LIKE` into the name pass's search,
// applies REST's exact match to what it returns, reads the page's applications by id
// (2 round trips) and declares CapNameLike; off, or for a name the search language
// cannot carry, or without filter[name], no query holds LIKE and nothing is declared
// (the account is counted first: 1 round trip more, knowAccountSize).
func TestNameLike(t *testing.T) {
	tests := []struct {
		name     string
		like     bool
		req      AppListRequest
		wantLike string // the clause every AppNamePage query holds ("": no query holds LIKE)
		wantIDs  []int64
		wantRTs  int
	}{
		{"narrowed, then REST's match", true, AppListRequest{Name: "LPHA-"}, "name LIKE 'LPHA-'", []int64{2, 4, 6, 8, 10}, 2},
		{"quoted", true, AppListRequest{Name: "o'k"}, `name LIKE 'o\'k'`, nil, 1},
		{"off", false, AppListRequest{Name: "LPHA-"}, "", []int64{2, 4, 6, 8, 10}, 1 + 1},
		{"control character", true, AppListRequest{Name: "a\x01"}, "", nil, 1 + 1},
		{"language only", true, AppListRequest{Language: "JAVA"}, "", []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 1 + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := appsFake(10)
			all := f.answer
			f.answer = func(op string, vars map[string]any) (any, error) {
				if op != "AppNamePage" {
					return all(op, vars)
				}
				// A superset of every filter: the whole account (LIKE's match is
				// NerdGraph's; REST's exact match must still be applied).
				var es []map[string]any
				for i := 1; i <= 10; i++ {
					name := "beta-" + strconv.Itoa(i)
					if i%2 == 0 {
						name = "Alpha-" + strconv.Itoa(i)
					}
					es = append(es, map[string]any{"__typename": "ApmApplicationEntityOutline",
						"guid": AppGUID(1, DomainAPM, int64(i)), "name": name, "language": "java"})
				}
				return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
					"results": map[string]any{"entities": es}}}}, nil
			}
			tr := New(f, Options{NameLike: tt.like, Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
			var notes Notes
			l, _, err := tr.ListApplications(WithNotes(context.Background(), &notes), Caller{KeyHash: "k", AccountID: 1}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, a := range l.Applications {
				ids = append(ids, a.ID)
			}
			if !slices.Equal(ids, tt.wantIDs) {
				t.Errorf("ids %v, want %v", ids, tt.wantIDs)
			}
			if got := f.count(""); got != tt.wantRTs {
				t.Errorf("%d round trips, want %d", got, tt.wantRTs)
			}
			for _, c := range f.calls {
				q, _ := c.vars["query"].(string)
				switch {
				case c.op == "AppNamePage" && tt.wantLike != "" && !strings.Contains(q, " AND "+tt.wantLike):
					t.Errorf("AppNamePage query %q lacks %q", q, tt.wantLike)
				case c.op != "AppNamePage" && strings.Contains(q, "LIKE"), tt.wantLike == "" && strings.Contains(q, "LIKE"):
					t.Errorf("%s query %q holds LIKE", c.op, q)
				}
			}
			if declared := slices.Contains(notes.Caps(), CapNameLike); declared != (tt.wantLike != "") {
				t.Errorf("caps %q", notes.Caps())
			}
		})
	}
}

// fakeApp is one application of nameFake's account.
type fakeApp struct {
	id         int64
	name, lang string
}

// nameFake answers AppNamePage for account 1's apps (the slice it points to, which a
// test may grow): the whole search a page of PageSize at a time, or the applications a
// `name = '…'` query names (case-insensitively), in the slice's order or its reverse
// (fakeDescending). gate, when set, is received from before each page of the whole
// search is answered.
type nameFake struct {
	*opFake
	mu   sync.Mutex
	apps []fakeApp
	gate chan struct{}
	// caller marks the contexts of the test's lookups (ng.WithCalls): a whole-search
	// page read with it is on the caller's path, any other is behind it.
	caller              *ng.Calls
	callerPages, behind int
}

func (n *nameFake) MakeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) error {
	if b, _ := json.Marshal(req.Variables); req.OpName == "AppNamePage" && !strings.Contains(string(b), "name = ") {
		n.mu.Lock()
		if c := ng.CallsFrom(ctx); c != nil && c == n.caller {
			n.callerPages++
		} else {
			n.behind++
		}
		n.mu.Unlock()
	}
	return n.opFake.MakeRequest(ctx, req, resp)
}

// pages are the whole-search pages read so far on the caller's path and behind it.
func (n *nameFake) pages() (caller, behind int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.callerPages, n.behind
}

func newNameFake(apps []fakeApp) *nameFake {
	n := &nameFake{opFake: &opFake{}, apps: apps}
	n.answer = func(op string, vars map[string]any) (any, error) {
		q, _ := vars["query"].(string)
		n.mu.Lock()
		apps := slices.Clone(n.apps)
		gate := n.gate
		n.mu.Unlock()
		apps = slices.DeleteFunc(apps, func(a fakeApp) bool { return !fakeSearchMatches(q, a) })
		if op == "AppCursor" { // the whole search's count, beside a partitioned read
			return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
				"count": len(apps), "results": map[string]any{"nextCursor": nil}}}}, nil
		}
		if op != "AppNamePage" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		desc, err := fakeDescending(vars)
		if err != nil {
			return nil, err
		}
		if desc {
			slices.Reverse(apps)
		}
		var next any
		if !strings.Contains(q, "name = '") {
			if gate != nil {
				<-gate
			}
			k := 0
			if s, ok := vars["cursor"].(string); ok {
				k, _ = strconv.Atoi(strings.TrimPrefix(s, "c"))
			}
			if (k+1)*PageSize < len(apps) {
				next = "c" + strconv.Itoa(k+1)
			}
			apps = apps[k*PageSize : min((k+1)*PageSize, len(apps))]
		}
		es := []map[string]any{}
		for _, a := range apps {
			es = append(es, map[string]any{"__typename": "ApmApplicationEntityOutline",
				"guid": AppGUID(1, DomainAPM, a.id), "name": a.name, "language": a.lang})
		}
		return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
			"results": map[string]any{"nextCursor": next, "entities": es}}}}, nil
	}
	return n
}

// fakeSearchMatches is whether the clauses of query a name search sends accept a:
// `name = '…'` (without case), `language = '…'` and `language NOT IN (…)`.
func fakeSearchMatches(query string, a fakeApp) bool {
	if _, eq, ok := strings.Cut(query, "name = '"); ok {
		name, _, _ := strings.Cut(eq, "'")
		return strings.EqualFold(a.name, name)
	}
	if _, eq, ok := strings.Cut(query, "language = '"); ok {
		lang, _, _ := strings.Cut(eq, "'")
		return strings.EqualFold(a.lang, lang)
	}
	if _, list, ok := strings.Cut(query, "language NOT IN ("); ok {
		list, _, _ = strings.Cut(list, ")")
		return !strings.Contains(list, "'"+strings.ToLower(a.lang)+"'")
	}
	return true
}

// add creates applications in the fake's account (after an index was read, say).
func (n *nameFake) add(apps ...fakeApp) {
	n.mu.Lock()
	n.apps = append(n.apps, apps...)
	n.mu.Unlock()
}

// indexPages is the whole-search pages one read of the index of n applications of
// one listed language reads (readNameIndex): that language's pages from each end
// (endPages), and one (empty) page from each end of every other language and of the
// rest; indexCalls adds the whole search's count read beside them.
func indexPages(n int) int { return 2 * (len(nameLanguages()) + endPages(n)) }

// endPages is the pages each end of a search of n entities read from both ends reads:
// up to the first round whose pages overlap, or the last page.
func endPages(n int) int { return min(n/(2*PageSize)+1, pagesOf(n)) }

func indexCalls(n int) int { return 1 + indexPages(n) }

// manyApps are n applications "app-00001"… (ids 1…n, sorted by name).
func manyApps(n int) []fakeApp {
	apps := make([]fakeApp, n)
	for i := range apps {
		apps[i] = fakeApp{id: int64(i + 1), name: fmt.Sprintf("app-%05d", i+1), lang: "go"}
	}
	return apps
}

// The index is matched for every name; when no indexed application bears the asked
// name exactly (case aside), that name is looked up once more by equality and what it
// finds is merged in name order: a "checkout" created after the index was read is found
// even though "checkout-worker" matches in the index. A name the index bears exactly
// costs no round trip, nor does any name when the index was read for this lookup.
func TestIndexedMatchesExactNameMiss(t *testing.T) {
	tests := []struct {
		name    string
		cold    bool // the index is read by the lookup
		req     AppListRequest
		wantIDs []int64
		wantRTs int
	}{
		{"read for this lookup", true, AppListRequest{Name: "worker"}, []int64{2}, indexCalls(3)},
		{"created since, a longer name indexed", false, AppListRequest{Name: "checkout"}, []int64{9, 2}, 1},
		{"indexed exactly", false, AppListRequest{Name: "checkout-worker"}, []int64{2}, 0},
		{"indexed exactly, other case", false, AppListRequest{Name: "CHECKOUT-WORKER"}, []int64{2}, 0},
		{"a fragment no application bears", false, AppListRequest{Name: "worker"}, []int64{2}, 1},
		{"nothing anywhere", false, AppListRequest{Name: "zzz"}, []int64{}, 1},
		{"language only", false, AppListRequest{Language: "go"}, []int64{1, 2, 3}, 0},
		{"created since, language filtered out", false, AppListRequest{Name: "checkout", Language: "java"}, []int64{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newNameFake([]fakeApp{{1, "billing", "go"}, {2, "checkout-worker", "go"}, {3, "search", "go"}})
			tr := New(f, Options{})
			c := Caller{KeyHash: "k", AccountID: 1}
			if !tt.cold {
				if _, _, err := tr.nameIndex(context.Background(), c); err != nil {
					t.Fatal(err)
				}
				f.add(fakeApp{9, "checkout", "go"})
			}
			before := f.count("")
			ids, err := tr.indexedMatches(context.Background(), c, "", tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids, tt.wantIDs) {
				t.Errorf("ids %v, want %v", ids, tt.wantIDs)
			}
			if got := f.count("") - before; got != tt.wantRTs {
				t.Errorf("%d round trips, want %d", got, tt.wantRTs)
			}
		})
	}
}

// A name or language filter on an account of unknown size counts the account first (the
// whole search's count, no entity): a large one goes straight to its name index and
// never reads the account-wide inventory, an NRQL query over every instance; a small
// one is listed as before, and its count is kept, so the next filter does not count
// again.
func TestFilterCountsAnUnknownAccountFirst(t *testing.T) {
	for _, tt := range []struct {
		apps          int
		wantAppLists  int // over two filtered requests
		wantCounts    int // AppCursor without a cursor: the account's count
		wantNamePages bool
	}{
		{10, 2, 1, false},
		{accountInventoryApps + 1, 0, 1 + 1, true}, // and the index's own count beside its partitions
	} {
		t.Run(strconv.Itoa(tt.apps), func(t *testing.T) {
			f := appsFake(tt.apps)
			apps := f.answer
			f.answer = func(op string, vars map[string]any) (any, error) {
				switch op {
				case "AppNamePage":
					return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
						"results": map[string]any{"entities": []any{}}}}}, nil
				case "AppInventory":
					return nrqlAnswer(nil), nil
				}
				return apps(op, vars)
			}
			tr := New(f, Options{})
			c := Caller{KeyHash: "k", AccountID: 1}
			for _, name := range []string{"alpha", "beta"} {
				if _, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Name: name, Page: 1}); err != nil {
					t.Fatal(err)
				}
			}
			counts := 0
			for _, call := range f.calls {
				if call.op == "AppCursor" && call.vars["cursor"] == nil {
					counts++
				}
			}
			if got := f.count("AppList"); got != tt.wantAppLists || counts != tt.wantCounts || (f.count("AppNamePage") > 0) != tt.wantNamePages {
				t.Errorf("%d AppList, %d counts, %d name pages; want %d, %d, name pages %v",
					got, counts, f.count("AppNamePage"), tt.wantAppLists, tt.wantCounts, tt.wantNamePages)
			}
		})
	}
}

// A name pass whose search never ends (a cursor on every page) stops after
// maxNamePages pages with errNamePages, not when the request's deadline passes.
func TestNamePassPagesCapped(t *testing.T) {
	f := &opFake{answer: func(op string, vars map[string]any) (any, error) {
		return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
			"results": map[string]any{"nextCursor": "again", "entities": []any{}}}}}, nil
	}}
	tr := New(f, Options{})
	_, err := tr.namePass(context.Background(), "query", AppListRequest{Name: "x"})
	if !errors.Is(err, errNamePages) || f.count("AppNamePage") != maxNamePages {
		t.Errorf("%v after %d pages, want errNamePages after %d", err, f.count("AppNamePage"), maxNamePages)
	}
}
