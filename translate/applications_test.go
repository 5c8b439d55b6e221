package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// GET /v2/applications' list paths: the post-filtered list (filter[name], filter[host],
// filter[language]) with its pages, rel=last, cache key and dropped links, and the
// entity-search pages with their cursor hops. NerdGraph is appsFake: an account of n APM
// applications, 200 a search page, each on host "host-<id mod 3>".

// appsFake answers AppList, AppSearchPage and AppCursor over n applications; app i
// (1-based) is named "Alpha-i" when i is even, "beta-i" when odd, language java for
// i ≤ 300, else go.
func appsFake(n int) *opFake {
	f := &opFake{}
	page := func(cursor any) (int, any) {
		k := 0
		if s, ok := cursor.(string); ok {
			k, _ = strconv.Atoi(strings.TrimPrefix(s, "c"))
		}
		var next any
		if (k+1)*PageSize < n {
			next = "c" + strconv.Itoa(k+1)
		}
		return k, next
	}
	entities := func(k int) []map[string]any {
		var es []map[string]any
		for i := k*PageSize + 1; i <= min((k+1)*PageSize, n); i++ {
			name, lang := "beta-"+strconv.Itoa(i), "java"
			if i%2 == 0 {
				name = "Alpha-" + strconv.Itoa(i)
			}
			if i > 300 {
				lang = "go"
			}
			es = append(es, map[string]any{"__typename": "ApmApplicationEntityOutline", "guid": AppGUID(1, DomainAPM, int64(i)),
				"accountId": 1, "name": name, "reporting": true, "applicationId": i, "language": lang})
		}
		return es
	}
	f.answer = func(op string, vars map[string]any) (any, error) {
		k, next := page(vars["cursor"])
		switch op {
		case "AppList":
			var rows []map[string]any
			for i := 1; i <= n; i++ {
				rows = append(rows, invRow(i, []any{"host-" + strconv.Itoa(i%3)}, []any{1000 + i}, 1.7e12))
			}
			return map[string]any{"actor": map[string]any{
				"entitySearch": map[string]any{"count": n, "results": map[string]any{"nextCursor": next, "entities": entities(k)}},
				"browsers":     map[string]any{"results": map[string]any{"entities": []any{}}},
				"account":      map[string]any{"inventory": map[string]any{"results": rows}},
			}}, nil
		case "AppSearchPage":
			return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
				"results": map[string]any{"nextCursor": next, "entities": entities(k)}}}}, nil
		case "AppCursor":
			return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
				"count": n, "results": map[string]any{"nextCursor": next}}}}, nil
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	return f
}

func appsTranslator(n int) (*Translator, *opFake) {
	f := appsFake(n)
	return New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }}), f
}

// listFiltered's paging: filtered lists of 0, 200, 201 and 225 matches, every page and
// one past the end.
func TestListFilteredPaging(t *testing.T) {
	tests := []struct {
		name      string
		apps      int
		req       AppListRequest
		wantLens  []int // per page 1..len, then one page past the end is empty
		wantLast  int
		wantFirst []int64
	}{
		{"no match", 10, AppListRequest{Name: "gamma"}, []int{0}, 1, []int64{0}},
		{"200 matches", 400, AppListRequest{Name: "alpha"}, []int{200}, 1, []int64{2}},
		{"201 matches", 402, AppListRequest{Name: "ALPHA"}, []int{200, 1}, 2, []int64{2, 402}},
		{"225 matches", 450, AppListRequest{Name: "Alpha"}, []int{200, 25}, 2, []int64{2, 402}},
		{"language", 450, AppListRequest{Language: "GO"}, []int{150}, 1, []int64{301}},
		{"host", 450, AppListRequest{Host: "OST-1"}, []int{150}, 1, []int64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _ := appsTranslator(tt.apps)
			for p := 1; p <= len(tt.wantLens)+1; p++ {
				r := tt.req
				r.Page = p
				l, pg, err := tr.ListApplications(context.Background(), Caller{AccountID: 1}, r)
				if err != nil {
					t.Fatal(err)
				}
				wantLen, wantFirst := 0, int64(0)
				if p <= len(tt.wantLens) {
					wantLen, wantFirst = tt.wantLens[p-1], tt.wantFirst[p-1]
				}
				var first int64
				if len(l.Applications) > 0 {
					first = l.Applications[0].ID
				}
				if len(l.Applications) != wantLen || first != wantFirst || pg != (Paging{Page: p, Last: tt.wantLast, HasNext: p < tt.wantLast}) {
					t.Fatalf("page %d: %d apps from %d, paging %+v; want %d from %d, last %d", p, len(l.Applications), first, pg, wantLen, wantFirst, tt.wantLast)
				}
			}
		})
	}
}

// The filtered list is cached: one read serves every page and the filter in any case;
// another host, another caller or a write to the account reads again.
func TestListFilteredCacheKey(t *testing.T) {
	tr, f := appsTranslator(450)
	a := Caller{KeyHash: "a", AccountID: 1}
	steps := []struct {
		c         Caller
		r         AppListRequest
		write     bool
		wantReads int
	}{
		{a, AppListRequest{Name: "alpha"}, false, 1},
		{a, AppListRequest{Name: "ALPHA", Page: 2}, false, 1},
		{a, AppListRequest{Name: "Alpha", Page: 3, ExcludeLinks: true}, false, 1},
		{a, AppListRequest{Name: "alpha", Host: "host-1"}, false, 2},
		{a, AppListRequest{Name: "alpha", Host: "HOST-1"}, false, 2},
		{a, AppListRequest{Name: "alph"}, false, 3},
		{Caller{KeyHash: "b", AccountID: 1}, AppListRequest{Name: "alpha"}, false, 4},
		{a, AppListRequest{Name: "alpha"}, true, 5},
	}
	for i, st := range steps {
		if st.write {
			tr.wroteAccount(st.c)
		}
		if _, _, err := tr.ListApplications(context.Background(), st.c, st.r); err != nil {
			t.Fatal(err)
		}
		if got := f.count("AppList"); got != st.wantReads {
			t.Fatalf("step %d: %d reads, want %d", i, got, st.wantReads)
		}
	}
	// 450 applications: the first read followed the search's two further pages.
	if got := f.count("AppSearchPage"); got != 2*5 {
		t.Errorf("%d search pages for 5 reads, want 10", got)
	}
}

// A page served without links (exclude_links) does not take them from the cached list,
// which keeps them.
func TestListFilteredExcludeLinks(t *testing.T) {
	tr, _ := appsTranslator(20)
	c := Caller{AccountID: 1}
	l, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Name: "alpha", ExcludeLinks: true})
	if err != nil {
		t.Fatal(err)
	}
	if !l.ExcludeLinks || len(l.Applications) != 10 || l.Applications[0].Links != nil {
		t.Fatalf("exclude_links page: %d apps, links %+v", len(l.Applications), l.Applications[0].Links)
	}
	l, _, err = tr.ListApplications(context.Background(), c, AppListRequest{Name: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	a := l.Applications[0] // app 2: host-2, instance 1002
	if a.Links == nil || fmt.Sprint(a.Links.ApplicationInstances) != "[1002]" || len(a.Links.ApplicationHosts) != 1 ||
		a.Links.ApplicationHosts[0] != HostID(1, 2, "host-2") {
		t.Fatalf("links after an exclude_links page: %+v", a.Links)
	}
}

// listPage and cursorFor: rel=last from the search's count, a next page only when the
// search has a cursor, page N reached by N-1 cursor hops once (then cached), a page past
// the end empty with no last.
func TestListPageCursors(t *testing.T) {
	tests := []struct {
		apps, page   int
		wantLen      int
		wantPaging   Paging
		wantFirst    int64
		wantAppLists int
		wantHops     int
	}{
		{0, 1, 0, Paging{Page: 1, Last: 1}, 0, 1, 0},
		{200, 1, 200, Paging{Page: 1, Last: 1}, 1, 1, 0},
		{201, 1, 200, Paging{Page: 1, Last: 2, HasNext: true}, 1, 1, 0},
		{201, 2, 1, Paging{Page: 2, Last: 2}, 201, 1, 1},
		{650, 3, 200, Paging{Page: 3, Last: 4, HasNext: true}, 401, 1, 2},
		{650, 4, 50, Paging{Page: 4, Last: 4}, 601, 1, 3},
		{400, 3, 0, Paging{Page: 3}, 0, 0, 2}, // 2 hops, which count 2 pages: the second time none
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d apps page %d", tt.apps, tt.page), func(t *testing.T) {
			tr, f := appsTranslator(tt.apps)
			for range 2 { // the second time, the cursors are cached
				l, p, err := tr.ListApplications(context.Background(), Caller{AccountID: 1}, AppListRequest{Page: tt.page})
				if err != nil {
					t.Fatal(err)
				}
				var first int64
				if len(l.Applications) > 0 {
					first = l.Applications[0].ID
				}
				if len(l.Applications) != tt.wantLen || p != tt.wantPaging || first != tt.wantFirst {
					t.Fatalf("%d apps from %d, paging %+v; want %d from %d, %+v", len(l.Applications), first, p, tt.wantLen, tt.wantFirst, tt.wantPaging)
				}
			}
			if got := f.count("AppCursor"); got != tt.wantHops {
				t.Errorf("%d cursor hops, want %d", got, tt.wantHops)
			}
			if got := f.count("AppList"); got != 2*tt.wantAppLists {
				t.Errorf("%d page reads, want %d", got, 2*tt.wantAppLists)
			}
		})
	}
}

// A later page starts from the nearest cached cursor: after page 2, page 4 takes one hop
// from page 3's cursor, which page 2's read cached.
func TestListPageNearestCursor(t *testing.T) {
	tr, f := appsTranslator(1000)
	c := Caller{AccountID: 1}
	for _, page := range []int{2, 4} {
		if _, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: page}); err != nil {
			t.Fatal(err)
		}
	}
	// page 2: one hop (page 1 → cursor of 2); its read caches the cursor of 3; page 4:
	// one hop from 3.
	if got := f.count("AppCursor"); got != 2 {
		t.Fatalf("%d cursor hops, want 2", got)
	}
	var last map[string]any // the last hop's variables
	for _, call := range f.calls {
		if call.op == "AppCursor" {
			last = call.vars
		}
	}
	if got := fmt.Sprint(last["cursor"]); got != "c2" {
		t.Errorf("page 4's hop started from cursor %s, want c2 (page 3's)", got)
	}
}

func appIDs(l *restv2.ApplicationList) []int64 {
	var ids []int64
	for _, a := range l.Applications {
		ids = append(ids, a.ID)
	}
	return ids
}

// The language filter is sent in the entity search (lower-cased), and an unfiltered
// list sends none.
func TestListLanguageInSearch(t *testing.T) {
	tr, f := appsTranslator(10)
	c := Caller{AccountID: 1}
	if _, _, err := tr.ListApplications(context.Background(), c, AppListRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Language: "Java"}); err != nil {
		t.Fatal(err)
	}
	qs := sentQueries(f, "AppList", "query")
	if len(qs) != 2 || strings.Contains(qs[0], "language") || !strings.HasSuffix(qs[1], " AND language = 'java'") {
		t.Fatalf("searches sent: %q", qs)
	}
}

// On a large account (a search counted more than 5000 applications) filter[host] still
// reads every application's inventory (listFiltered); the name pass (listMatched) has no
// inventory and would list nothing.
func TestListHostFilterLargeAccount(t *testing.T) {
	f := withAnswer(appsFake(450), func(op string, _ map[string]any, data any) (any, error) {
		if op == "AppList" {
			actorOf(data)["entitySearch"].(map[string]any)["count"] = MaxFacets + 1000
		}
		if op == "AppNamePage" {
			return nil, errors.New("fake: the host filter needs the inventory")
		}
		return data, nil
	})
	tr := New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
	c := Caller{AccountID: 1}
	if _, _, err := tr.ListApplications(context.Background(), c, AppListRequest{}); err != nil {
		t.Fatal(err)
	}
	if !tr.largeAccount(c) {
		t.Fatal("the account is not known as large")
	}
	l, p, err := tr.ListApplications(context.Background(), c, AppListRequest{Host: "HOST-1"})
	if err != nil {
		t.Fatal(err)
	}
	ids := appIDs(l)
	if len(ids) != 150 || ids[0] != 1 || ids[1] != 4 || ids[149] != 448 || p != (Paging{Page: 1, Last: 1}) {
		t.Fatalf("host-1 on a large account: %d apps %v, paging %+v; want 150 from 1, step 3", len(ids), ids, p)
	}
}

// Page n starts from the nearest cached cursor of an earlier page, never from a later
// one. Page 2's read cached the cursors of pages 2 and 3; when page 2's is gone (its
// CursorTTL ended first, or the cache was full when it was set) page 2 is read again
// from page 1, not served page 3's applications.
func TestListPageNeverLaterCursor(t *testing.T) {
	tr, f := appsTranslator(1000)
	c := Caller{AccountID: 1}
	l, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: 2})
	if err != nil || len(l.Applications) != 200 || l.Applications[0].ID != 201 {
		t.Fatalf("page 2: %v", err)
	}
	query := sentQueries(f, "AppList", "query")[0]
	if _, ok := tr.st.Cursors.Get(c.cacheKey("apps-cursor", query, "3")); !ok {
		t.Fatal("page 3's cursor not cached by page 2's read")
	}
	tr.st.Cursors.Delete(c.cacheKey("apps-cursor", query, "2"))
	l, p, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Applications) != 200 || l.Applications[0].ID != 201 || p != (Paging{Page: 2, Last: 5, HasNext: true}) {
		t.Fatalf("page 2 again: %d apps from %d, %+v; want 200 from 201", len(l.Applications), l.Applications[0].ID, p)
	}
	if got := sentQueries(f, "AppCursor", "cursor"); fmt.Sprint(got) != "[<nil> <nil>]" {
		t.Errorf("cursor hops from %v, want two from page 1", got)
	}
}

// fullInventoryFake is appsFake(n) whose account-wide inventory comes back full
// (accountInventoryApps rows: the n applications', then applications not in the search),
// and only when AppList asks for it (withInventory); AppInventory answers the inventory of
// the applications it names (host-<id mod 3>, agent 1000+id).
func fullInventoryFake(n int) *opFake {
	return withAnswer(appsFake(n), func(op string, vars map[string]any, data any) (any, error) {
		switch op {
		case "AppList":
			if vars["withInventory"] != true {
				delete(actorOf(data), "account")
				return data, nil
			}
			rows := make([]map[string]any, 0, accountInventoryApps)
			for i := 1; len(rows) < accountInventoryApps; i++ {
				id := i
				if i > n {
					id = 100000 + i
				}
				rows = append(rows, invRow(id, []any{"host-" + strconv.Itoa(id%3)}, []any{1000 + id}, 1.7e12))
			}
			actorOf(data)["account"] = map[string]any{"inventory": map[string]any{"results": rows}}
			return data, nil
		case "AppInventory":
			m := invIDsRe.FindStringSubmatch(fmt.Sprint(vars["query"]))
			var rows []map[string]any
			for _, s := range strings.Split(m[1]+m[2], ", ") {
				id, _ := strconv.Atoi(s)
				rows = append(rows, invRow(id, []any{"host-" + strconv.Itoa(id%3)}, []any{1000 + id}, 1.7e12))
			}
			return nrqlAnswer(rows), nil
		}
		return data, nil
	})
}

// Without filter[host] the name matches are kept before the inventory is read, so when
// the account-wide inventory came back cut (accountInventoryApps rows) the page's
// inventory is read for the matches alone.
func TestListFilteredInventoryOfMatches(t *testing.T) {
	f := fullInventoryFake(10)
	tr := New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
	l, _, err := tr.ListApplications(context.Background(), Caller{AccountID: 1}, AppListRequest{Name: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(appIDs(l)); got != "[2 4 6 8 10]" {
		t.Fatalf("alpha: %s", got)
	}
	if a := l.Applications[1]; fmt.Sprint(a.Links.ApplicationInstances) != "[1004]" || fmt.Sprint(a.Links.ApplicationHosts) != fmt.Sprint([]int64{HostID(1, 4, "host-1")}) {
		t.Errorf("app 4's links %+v", a.Links)
	}
	qs := sentQueries(f, "AppInventory", "query")
	if len(qs) != 1 || !strings.Contains(qs[0], "appId IN (2, 4, 6, 8, 10) ") {
		t.Fatalf("inventory reads %q, want one for the 5 matches", qs)
	}
}

// filter[name] with filter[host] keeps the applications that match both (with a host
// filter nothing is kept before the inventory, so matches alone applies the name).
func TestListNameAndHostFilter(t *testing.T) {
	tr, _ := appsTranslator(30)
	l, _, err := tr.ListApplications(context.Background(), Caller{AccountID: 1}, AppListRequest{Name: "ALPHA", Host: "host-1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(appIDs(l)); got != "[4 10 16 22 28]" {
		t.Fatalf("alpha on host-1: %s, want [4 10 16 22 28]", got)
	}
	r := AppListRequest{Name: "alp"}
	inv := &appInventory{hosts: []string{"h"}}
	if r.matches(&restv2.Application{Name: "beta-1"}, inv) || !r.matches(&restv2.Application{Name: "xALPHAx"}, inv) {
		t.Error("matches does not apply filter[name]")
	}
}

// An account-wide inventory that comes back with exactly accountInventoryApps rows
// marks the account as holding many applications, so its later pages are read without
// it (and their applications' inventory read in the second round trip); a filter[ids]
// read asks for the ids' inventory anyway and never marks the account (its inventory is
// not the account's).
func TestAppListInventoryFlag(t *testing.T) {
	f := fullInventoryFake(10)
	tr := New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
	c := Caller{AccountID: 1}
	list := func(r AppListRequest) *restv2.ApplicationList {
		t.Helper()
		l, _, err := tr.ListApplications(context.Background(), c, r)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	withInv := func() string { return fmt.Sprint(sentQueries(f, "AppList", "withInventory")) }
	list(AppListRequest{IDs: []int64{1, 2}})
	list(AppListRequest{})
	if got := withInv(); got != "[true true]" {
		t.Fatalf("withInventory %s before the account-wide inventory came back cut, want [true true]", got)
	}
	if !tr.manyApps(c) {
		t.Fatal("a full account-wide inventory did not mark the account")
	}
	l := list(AppListRequest{})
	list(AppListRequest{IDs: []int64{3}})
	if got := withInv(); got != "[true true false true]" {
		t.Fatalf("withInventory %s, want [true true false true]", got)
	}
	// The page read without the inventory has its applications' inventory all the same.
	if a := l.Applications[2]; a.ID != 3 || fmt.Sprint(a.Links.ApplicationInstances) != "[1003]" {
		t.Errorf("app 3 read without the account-wide inventory: %+v", a.Links)
	}
	// The account-wide reads came back cut or without it: 2 per-page inventory reads.
	// The filter[ids] reads' rows (the fake's 1000) are under their LIMIT MAX.
	if got := f.count("AppInventory"); got != 2 {
		t.Errorf("%d per-page inventory reads, want 2", got)
	}
}

// A list shows the browser application injected into an APM application (real user
// monitoring on, its end-user Apdex threshold).
func TestAppListInjectedBrowser(t *testing.T) {
	f := withAnswer(appsFake(3), func(op string, _ map[string]any, data any) (any, error) {
		if op == "AppList" {
			actorOf(data)["browsers"] = map[string]any{"results": map[string]any{"entities": []any{
				map[string]any{"__typename": "BrowserApplicationEntityOutline", "guid": AppGUID(1, DomainBrowser, 70),
					"applicationId": 70, "servingApmApplicationId": 2, "settings": map[string]any{"apdexTarget": 3}},
			}}}
		}
		return data, nil
	})
	tr := New(f, Options{})
	l, _, err := tr.ListApplications(context.Background(), Caller{AccountID: 1}, AppListRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Applications) != 3 {
		t.Fatalf("%d apps", len(l.Applications))
	}
	for _, a := range l.Applications {
		rum, end := a.Settings.EnableRealUserMonitoring, a.Settings.EndUserApdexThreshold
		if want := a.ID == 2; rum != want || (end != nil) != want || (want && *end != 3) {
			t.Errorf("app %d: real user monitoring %v, end-user Apdex %v", a.ID, rum, end)
		}
	}
}

// appShowFake answers AppShow for application 7 of account 1 with summary s (nil: none)
// and the inventory rows.
func appShowFake(s map[string]any, rows []map[string]any) *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "AppShow" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		ent := map[string]any{"__typename": "ApmApplicationEntity", "guid": AppGUID(1, DomainAPM, 7), "accountId": 1,
			"name": "shop", "reporting": true, "alertSeverity": "NOT_ALERTING", "applicationId": 7, "language": "go",
			"settings": map[string]any{"apdexTarget": 0.5}, "apmSummary": s, "browser": map[string]any{"results": []any{}}}
		if rows == nil {
			rows = []map[string]any{}
		}
		return map[string]any{"actor": map[string]any{"entity": ent, "account": map[string]any{"inventory": map[string]any{"results": rows}}}}, nil
	}
	return f
}

// Application 0 is not found, without asking NerdGraph (whose guid of domain id 0 would
// name an application without an applicationId: REST id 0).
func TestShowApplicationZero(t *testing.T) {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		return map[string]any{"actor": map[string]any{"entity": map[string]any{"__typename": "ApmApplicationEntity",
			"guid": vars["guid"], "accountId": 1, "name": "ghost", "applicationId": nil}}}, nil
	}
	tr := New(f, Options{})
	var ve *restv2.Error
	if _, err := tr.ShowApplication(context.Background(), Caller{AccountID: 1}, 0); !errors.As(err, &ve) || ve.Status != 404 {
		t.Fatalf("application 0: %v, want 404", err)
	}
	if f.count("") != 0 {
		t.Errorf("%d round trips for application 0", f.count(""))
	}
}

// An application shows its inventory (hosts, instances, last report); a complete answer
// is cached for EntityTTL, one whose agents filled uniques() is declared and read again
// each time.
func TestShowApplicationInventory(t *testing.T) {
	c := Caller{AccountID: 1}
	f := appShowFake(nil, []map[string]any{invRow(7, []any{"web-0", "web-1"}, []any{2, 1}, 1.7e12)})
	tr := New(f, Options{})
	for i := 0; i < 2; i++ {
		var notes Notes
		doc, err := tr.ShowApplication(WithNotes(context.Background(), &notes), c, 7)
		if err != nil {
			t.Fatal(err)
		}
		a := doc.Application
		wantHosts := fmt.Sprint([]int64{HostID(1, 7, "web-0"), HostID(1, 7, "web-1")})
		if HostID(1, 7, "web-0") > HostID(1, 7, "web-1") {
			wantHosts = fmt.Sprint([]int64{HostID(1, 7, "web-1"), HostID(1, 7, "web-0")})
		}
		if a.Links == nil || fmt.Sprint(a.Links.ApplicationInstances) != "[1 2]" || fmt.Sprint(a.Links.ApplicationHosts) != wantHosts ||
			a.LastReportedAt == nil || !a.LastReportedAt.Equal(time.UnixMilli(1.7e12).Truncate(time.Second)) || notes.String() != "" {
			t.Fatalf("show %d: links %+v, last reported %v, notes %q", i, a.Links, a.LastReportedAt, notes.String())
		}
	}
	if got := f.count("AppShow"); got != 1 {
		t.Errorf("%d reads for two shows, want 1 (cached)", got)
	}

	agents := make([]any, MaxUniques)
	for i := range agents {
		agents[i] = i + 1
	}
	f = appShowFake(nil, []map[string]any{invRow(7, []any{"web-0", "web-1"}, agents, 1.7e12)})
	tr = New(f, Options{})
	for i := 0; i < 2; i++ {
		var notes Notes
		doc, err := tr.ShowApplication(WithNotes(context.Background(), &notes), c, 7)
		if err != nil {
			t.Fatal(err)
		}
		if notes.String() != string(CapInventory) || len(doc.Application.Links.ApplicationInstances) != MaxUniques {
			t.Fatalf("show %d of 10000 agents: notes %q, %d instances", i, notes.String(), len(doc.Application.Links.ApplicationInstances))
		}
	}
	if got := f.count("AppShow"); got != 2 {
		t.Errorf("%d reads for two capped shows, want 2 (not cached)", got)
	}
}

// Every write count gives its own cache key, the first one included (kind@0, never the
// unscoped kind).
func TestWriteScopedEveryCount(t *testing.T) {
	tr := New(nil, Options{})
	c := Caller{KeyHash: "h", AccountID: 1}
	seen := map[string]bool{c.cacheKey("application", "9"): true}
	for i := 0; i < 5; i++ {
		k := tr.writeScoped(c, "application", "9")
		if seen[k] || !strings.Contains(k, "|application@"+strconv.Itoa(i)+"|") {
			t.Fatalf("after %d writes: key %q (seen before: %v)", i, k, seen[k])
		}
		seen[k] = true
		tr.wroteAccount(c)
	}
}
