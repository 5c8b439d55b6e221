package translate

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Tests for the mutants of applications.go that survived
// `make mutate PKG=./translate/... FILES='^(applications|appwrites)\.go$'` at b689aed
// (issue 22). Each test names the mutants it was written for; each was checked with
// go test -overlay. Equivalent survivors (no input tells them apart):
//   - applications.go:83:12, :126:10, :216:10 CONDITIONALS_BOUNDARY (Page < 1, last < 1
//     → <= 1): the branch sets to 1 what is already 1.
//   - applications.go:746:12 CONDITIONALS_BOUNDARY (len(v) >= 2 → > 2 in
//     inventoryFold.host), :791:12 CONDITIONALS_BOUNDARY (len(b) >= 2 → > 2 in
//     rawFacet.int), :803:12 CONDITIONALS_BOUNDARY (len(f) < 2 → <= 2 in rawFacet.str):
//     the only 2-byte JSON value the changed branch could see is `""`, which gives ""
//     (host, str) or no integer (int) either way.

// withAnswer wraps f's answers: edit may change (or replace) the data object of op (nil
// when f had none).
func withAnswer(f *opFake, edit func(op string, vars map[string]any, data any) (any, error)) *opFake {
	orig := f.answer
	f.answer = func(op string, vars map[string]any) (any, error) {
		data, err := orig(op, vars)
		if err != nil {
			data = nil
		}
		d, e := edit(op, vars, data)
		if d == nil && e == nil {
			return nil, err // an op edit leaves alone keeps f's error
		}
		return d, e
	}
	return f
}

// actorOf is the actor object of a fake answer built as nested maps.
func actorOf(data any) map[string]any {
	return data.(map[string]any)["actor"].(map[string]any)
}

// sentQueries are the values of the variable name of every op call f received.
func sentQueries(f *opFake, op, name string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if c.op == op {
			out = append(out, fmt.Sprint(c.vars[name]))
		}
	}
	return out
}

func appIDs(l *v2.ApplicationList) []int64 {
	var ids []int64
	for _, a := range l.Applications {
		ids = append(ids, a.ID)
	}
	return ids
}

// Mutant applications.go:87:16 CONDITIONALS_NEGATION (r.Language != "" → ==): the
// language filter is sent in the entity search (lower-cased), and an unfiltered list
// sends none (the mutant asks for language = ”, which no application has).
func TestListLanguageInSearchMut(t *testing.T) {
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

// Mutant applications.go:97:12 CONDITIONALS_NEGATION (r.Host == "" → !=): on a large
// account (a search counted more than 5000 applications) filter[host] still reads every
// application's inventory (listFiltered); the name pass (listMatched) has no inventory
// and would list nothing.
func TestListHostFilterLargeAccountMut(t *testing.T) {
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

// Mutants applications.go:146:13 ARITHMETIC_BASE and INVERT_NEGATIVES (k := n - 1 →
// n + 1): page n starts from the nearest cached cursor of an earlier page, never from a
// later one. Page 2's read cached the cursors of pages 2 and 3; when page 2's is gone
// (its CursorTTL ended first, or the cache was full when it was set) page 2 is read
// again from page 1, not served page 3's applications.
func TestListPageNeverLaterCursorMut(t *testing.T) {
	tr, f := appsTranslator(1000)
	c := Caller{AccountID: 1}
	l, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: 2})
	if err != nil || len(l.Applications) != 200 || l.Applications[0].ID != 201 {
		t.Fatalf("page 2: %v", err)
	}
	query := sentQueries(f, "AppList", "query")[0]
	if _, ok := tr.cursors.Get(c.cacheKey("apps-cursor", query, "3")); !ok {
		t.Fatal("page 3's cursor not cached by page 2's read")
	}
	tr.cursors.c.Delete(c.cacheKey("apps-cursor", query, "2"))
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

// Mutants applications.go:194:13 CONDITIONALS_NEGATION (r.Host == "" → !=) and :240:12
// CONDITIONALS_NEGATION (matchesEntity's r.Name != "" → ==): without filter[host] the
// name matches are kept before the inventory is read, so when the account-wide
// inventory came back cut (accountInventoryApps rows) the page's inventory is read for the matches
// alone.
func TestListFilteredInventoryOfMatchesMut(t *testing.T) {
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

// Mutant applications.go:247:12 CONDITIONALS_NEGATION (matches' r.Name != "" → ==):
// filter[name] with filter[host] keeps the applications that match both (with a host
// filter nothing is kept before the inventory, so matches alone applies the name).
func TestListNameAndHostFilterMut(t *testing.T) {
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
	if r.matches(&v2.Application{Name: "beta-1"}, inv) || !r.matches(&v2.Application{Name: "xALPHAx"}, inv) {
		t.Error("matches does not apply filter[name]")
	}
}

// Mutants applications.go:315:28 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION
// (len(ids) > 0), CONDITIONALS_BOUNDARY (read.rows >= limit → >) and
// CONDITIONALS_NEGATION (len(ids) == 0 → !=): an account-wide inventory that comes back
// with exactly accountInventoryApps rows marks the account as holding many applications, so its
// later pages are read without it (and their applications' inventory read in the second
// round trip); a filter[ids] read asks for the ids' inventory anyway and never marks
// the account (its inventory is not the account's).
func TestAppListInventoryFlagMut(t *testing.T) {
	f := fullInventoryFake(10)
	tr := New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
	c := Caller{AccountID: 1}
	list := func(r AppListRequest) *v2.ApplicationList {
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

// Mutants applications.go:342:33 and :342:53 CONDITIONALS_NEGATION (b != nil && b.Results
// != nil): a list shows the browser application injected into an APM application
// (real user monitoring on, its end-user Apdex threshold).
func TestAppListInjectedBrowserMut(t *testing.T) {
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

// Mutants applications.go:536:13 CONDITIONALS_NEGATION (arenaPut's len == cap → !=) and
// :556:27 CONDITIONALS_BOUNDARY (hostIDs' room < n → <=): the arena hands out its own
// elements while it has room (the page's parts in one allocation per kind,
// BenchmarkGatewayApplicationsList), and a block of host ids is used to its last id.
func TestAppArenaUsesItsRoomMut(t *testing.T) {
	a := newAppArena(2)
	t1 := a.time(time.Unix(1, 0))
	s1 := a.summary(v2.ApplicationSummary{HostCount: 1})
	l1 := a.link(v2.ApplicationLinks{})
	if len(a.times) != 1 || t1 != &a.times[0] || len(a.summaries) != 1 || s1 != &a.summaries[0] || len(a.links) != 1 || l1 != &a.links[0] {
		t.Fatal("a part with room in the arena was not taken from it")
	}
	a.time(time.Unix(2, 0))
	t3 := a.time(time.Unix(3, 0)) // full: a heap copy, the arena unchanged
	if len(a.times) != 2 || cap(a.times) != 2 || t3.Unix() != 3 || t3 == &a.times[0] || t3 == &a.times[1] {
		t.Fatal("a full arena grew")
	}
	h1 := a.hostIDs(200)
	h2 := a.hostIDs(56) // exactly the block's room
	if len(a.ids) != 256 || cap(a.ids) != 256 || &h1[:1][0] != &a.ids[0] || &h2[:1][0] != &a.ids[200] {
		t.Fatalf("host ids: block of %d/%d; the exact fit took a new block", len(a.ids), cap(a.ids))
	}
	if allocs := testing.AllocsPerRun(20, func() {
		b := newAppArena(0)
		b.hostIDs(100)
		b.hostIDs(156)
	}); allocs > 1 { // one block (the arena itself may stay on the stack)
		t.Errorf("%v allocations for 256 host ids, want 1 block", allocs)
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

// Mutants applications.go:609:10 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (tp <=
// 0) and :617:28 ARITHMETIC_BASE (rt*1000 → rt/1000): the summary's response time is in
// milliseconds; an application with no web throughput (0) shows its non-web
// transactions, one with web throughput its web ones.
func TestAppSummaryWebOrNonWebMut(t *testing.T) {
	tests := []struct {
		name     string
		summary  map[string]any
		wantRT   float64
		wantTput float64
	}{
		{"web", map[string]any{"webResponseTimeAverage": 0.25, "webThroughput": 5, "nonWebResponseTimeAverage": 2, "nonWebThroughput": 9}, 250, 5},
		{"no web throughput", map[string]any{"webResponseTimeAverage": 0, "webThroughput": 0, "nonWebResponseTimeAverage": 0.0125, "nonWebThroughput": 4}, 12.5, 4},
	}
	for _, tt := range tests {
		tr := New(appShowFake(tt.summary, nil), Options{})
		doc, err := tr.ShowApplication(context.Background(), Caller{AccountID: 1}, 7)
		if err != nil {
			t.Fatal(err)
		}
		s := doc.Application.Summary
		if s == nil || s.ResponseTime != tt.wantRT || s.Throughput != tt.wantTput {
			t.Errorf("%s: summary %+v, want response time %v, throughput %v", tt.name, s, tt.wantRT, tt.wantTput)
		}
	}
}

// Mutants applications.go:880:8 CONDITIONALS_BOUNDARY (id <= 0 → < 0): application 0 is
// not found, without asking NerdGraph (whose guid of domain id 0 would name an
// application without an applicationId: REST id 0).
func TestShowApplicationZeroMut(t *testing.T) {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		return map[string]any{"actor": map[string]any{"entity": map[string]any{"__typename": "ApmApplicationEntity",
			"guid": vars["guid"], "accountId": 1, "name": "ghost", "applicationId": nil}}}, nil
	}
	tr := New(f, Options{})
	var ve *v2.Error
	if _, err := tr.ShowApplication(context.Background(), Caller{AccountID: 1}, 0); !errors.As(err, &ve) || ve.Status != 404 {
		t.Fatalf("application 0: %v, want 404", err)
	}
	if f.count("") != 0 {
		t.Errorf("%d round trips for application 0", f.count(""))
	}
}

// Mutants of readApplication (acct != nil && acct.Inventory != nil, read.capped,
// len(lost) > 0): an application shows its inventory (hosts, instances, last report);
// a complete answer is cached for EntityTTL, one whose agents filled uniques() is
// declared and read again each time.
func TestShowApplicationInventoryMut(t *testing.T) {
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

// Mutants applications.go:746:12 and :746:25 CONDITIONALS_NEGATION (len(v) >= 2 &&
// v[0] == '"') and :752:35 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION
// (IndexByte(inner, '\\') < 0): a host name is interned (the rows of one host share one
// string), and only a name read as written (no escape) is kept under its JSON text, so
// an escaped name is never answered for another text.
func TestInventoryHostInterningMut(t *testing.T) {
	tr := New(nil, Options{})
	inv, read := parseInventory(context.Background(), tr, []byte(`[`+
		`{"facet":1,"hosts":["web-1"],"agents":[11],"lastSeen":1},{"facet":2,"hosts":["web-1"],"agents":[12],"lastSeen":1},`+
		`{"facet":3,"hosts":["\\n"],"agents":[13],"lastSeen":1},{"facet":4,"hosts":["\n"],"agents":[14],"lastSeen":1},`+
		`{"facet":5,"hosts":["a\\\\b"],"agents":[15],"lastSeen":1},{"facet":6,"hosts":["a\\b"],"agents":[16],"lastSeen":1}]`))
	if read.rows != 6 || len(inv) != 6 {
		t.Fatalf("%d rows, %d applications", read.rows, len(inv))
	}
	h1, h2 := inv[1].hosts[0], inv[2].hosts[0]
	if h1 != "web-1" || h2 != "web-1" || unsafe.StringData(h1) != unsafe.StringData(h2) {
		t.Errorf("web-1 not interned: %q %q", h1, h2)
	}
	for id, want := range map[int64]string{3: `\n`, 4: "\n", 5: `a\\b`, 6: `a\b`} {
		if got := inv[id].hosts; len(got) != 1 || got[0] != want {
			t.Errorf("application %d: hosts %q, want %q", id, got, want)
		}
	}
}

// Mutants applications.go:791:25 and :791:47 CONDITIONALS_NEGATION, :791:43
// ARITHMETIC_BASE and INVERT_NEGATIVES (b[len(b)-1] → b[len(b)+1]), :791:12
// CONDITIONALS_NEGATION (len(b) >= 2 → < 2) and :794:56 CONDITIONALS_NEGATION (err ==
// nil → !=): a facet is an integer written as a JSON number or a numeric string, read
// exactly (past float64's 2^53); anything else is not one, so its row names no
// application or instance.
func TestRawFacetIntMut(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{`42`, 42, true}, {`"42"`, 42, true}, {`"-7"`, -7, true}, {`42.0`, 42, true}, {`1e3`, 1000, true},
		{`"9007199254740993"`, 9007199254740993, true}, {`9007199254740993`, 9007199254740993, true},
		{`4.5`, 4, false}, {`"abc"`, 0, false}, {`null`, 0, false}, {`""`, 0, false}, {`"42`, 0, false},
	}
	for _, tt := range tests {
		got, ok := rawFacet(tt.in).int()
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("rawFacet(%s).int() = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	tr := New(nil, Options{})
	inv, _ := parseInventory(context.Background(), tr, []byte(`[{"facet":"7","hosts":["h"],"agents":["70"],"lastSeen":1},`+
		`{"facet":"x","hosts":["h"],"agents":[1],"lastSeen":1},{"facet":8,"hosts":["h"],"agents":["agent"],"lastSeen":1}]`))
	if len(inv) != 2 || inv[7] == nil || fmt.Sprint(inv[7].instances) != "[70]" || inv[8] == nil || len(inv[8].instances) != 0 {
		t.Fatalf("inventory %v", inv)
	}
}

// Mutants of inventoryFold.init ARITHMETIC_BASE (size/160 → size*160, size/400 →
// size*400): the fold's maps and first slab are sized for the answer's bytes (about 160
// per row), not for thousands of times as many entries (the mutants would size a 36 KB
// answer's maps for millions).
func TestInventoryFoldSizingMut(t *testing.T) {
	answer := func(n int) []byte {
		var b strings.Builder
		b.WriteByte('[')
		for i := 1; i <= n; i++ {
			if i > 1 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"facet":%d,"hosts":["host-%d.example.internal"],"agents":[%d],"lastSeen":1.7e12}`, i, i%5, 1000+i)
		}
		b.WriteByte(']')
		return []byte(b.String())
	}
	tr := New(nil, Options{})
	bytesPer := func(results []byte) uint64 {
		var before, after runtime.MemStats
		const runs = 10
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range runs {
			parseInventory(context.Background(), tr, results)
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / runs
	}
	// One row (a show's answer is a few): its fold fits in about 1.2 KB. The mutants
	// allocate about 8 KB (a slab of 64), 300 KB and 3 MB (the maps' hints) for it.
	// The least of three measures, so that another goroutine's allocations do not count.
	results := answer(1)
	got := min(bytesPer(results), bytesPer(results), bytesPer(results))
	if got > 3<<10 {
		t.Errorf("an answer of 1 row (%d bytes): %d bytes allocated, want at most 3 KB", len(results), got)
	}
}
