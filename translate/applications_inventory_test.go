package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	gql "github.com/Khan/genqlient/graphql"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// Tests of the per-page inventory read (applications.go completeInventory and
// inventoryFor): one read for the page's applications; an application whose agents
// fill uniques() (MaxUniques) is declared (CapInventory).

var invIDsRe = regexp.MustCompile(`appId (?:IN \(([^)]*)\)|= (\d+))`)

// invRow is one row of inventoryNRQL's answer: an application's hosts and agents
// (uniques() lists) and its last timeslice.
func invRow(app any, hosts, agents []any, lastSeen float64) map[string]any {
	return map[string]any{"facet": app, "appId": app, "hosts": hosts, "agents": agents, "lastSeen": lastSeen}
}

// inventoryFake answers inventoryNRQL with one row per application it names (host
// "h<id>", agent 1), but application 99 has MaxUniques agents; as NRDB, it keeps at
// most MaxFacets rows (LIMIT MAX).
func inventoryFake() *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "AppInventory" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		m := invIDsRe.FindStringSubmatch(fmt.Sprint(vars["query"]))
		var rows []map[string]any
		for _, id := range strings.Split(m[1]+m[2], ", ") {
			n, _ := strconv.Atoi(id)
			agents := []any{1}
			if n == 99 {
				agents = make([]any, MaxUniques)
				for i := range agents {
					agents[i] = strconv.Itoa(i + 1)
				}
			}
			if len(rows) < MaxFacets {
				rows = append(rows, invRow(id, []any{"h" + id}, agents, 1.7e12))
			}
		}
		b, err := json.Marshal(nrqlAnswer(rows))
		return json.RawMessage(b), err
	}
	return f
}

func outlines(ids ...int) []appFields {
	var out []appFields
	for _, id := range ids {
		out = append(out, &ng.ApmOutline{ApplicationId: id})
	}
	return out
}

// completeInventory reads a full or missing inventory again in one round trip for the
// page's applications, and declares the cap only when one of them filled uniques().
func TestCompleteInventory(t *testing.T) {
	tests := []struct {
		name    string
		ids     []int
		missing bool
		wantCap bool
	}{
		{"full", []int{1, 2, 3}, false, false},
		{"missing", []int{1, 2, 3, 4, 5, 6, 7, 8}, true, false},
		{"one application at MaxUniques", []int{99}, false, true},
		{"among others", []int{1, 99, 5}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := inventoryFake()
			tr := New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
			p := &appPage{apps: outlines(tt.ids...), invFull: !tt.missing, invMissing: tt.missing}
			var notes Notes
			p.completeInventory(WithNotes(context.Background(), &notes), tr, Caller{AccountID: 1})
			if got := f.count("AppInventory"); got != 1 {
				t.Errorf("%d reads, want 1", got)
			}
			for _, id := range tt.ids {
				inv := p.inventory[int64(id)]
				if inv == nil || len(inv.hosts) != 1 || inv.hosts[0] != "h"+strconv.Itoa(id) {
					t.Errorf("application %d: inventory %+v", id, inv)
				}
				if want := 1; id == 99 {
					if len(inv.instances) != MaxUniques {
						t.Errorf("application 99: %d instances, want %d", len(inv.instances), MaxUniques)
					}
				} else if len(inv.instances) != want {
					t.Errorf("application %d: instances %v", id, inv.instances)
				}
			}
			if got := notes.String() == string(CapInventory); got != tt.wantCap || (len(p.caps) == 1) != tt.wantCap {
				t.Errorf("declared %q, caps %v", notes.String(), p.caps)
			}
			if p.invFull || p.invMissing {
				t.Error("the page still marked incomplete")
			}
		})
	}
	// A complete page is left alone; an empty one is only marked complete.
	f := inventoryFake()
	tr := New(f, Options{})
	p := &appPage{apps: outlines(1)}
	p.completeInventory(context.Background(), tr, Caller{AccountID: 1})
	empty := &appPage{invMissing: true}
	empty.completeInventory(context.Background(), tr, Caller{AccountID: 1})
	if f.count("") != 0 || p.inventory != nil || empty.invMissing {
		t.Errorf("%d reads for complete and empty pages", f.count(""))
	}
}

// A list page declares the uniques() cap only when one of its own applications filled
// it: the account-wide inventory also holds the applications of other pages.
func TestListDeclaresCappedApplicationOfThePage(t *testing.T) {
	many := make([]any, MaxUniques)
	for i := range many {
		many[i] = i + 1
	}
	for _, tt := range []struct {
		name    string
		capped  int // the application whose agents fill uniques()
		wantCap bool
	}{
		{"on the page", 150, true},
		{"on page 2", 250, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := withAnswer(appsFake(300), func(op string, _ map[string]any, data any) (any, error) {
				if op == "AppList" {
					rows := actorOf(data)["account"].(map[string]any)["inventory"].(map[string]any)["results"].([]map[string]any)
					rows[tt.capped-1]["agents"] = many
				}
				return data, nil
			})
			tr := New(f, Options{})
			var notes Notes
			l, _, err := tr.ListApplications(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, AppListRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if got := notes.String() == string(CapInventory); got != tt.wantCap {
				t.Errorf("declared %q, want the cap: %v", notes.String(), tt.wantCap)
			}
			if tt.wantCap && len(l.Applications[tt.capped-1].Links.ApplicationInstances) != MaxUniques {
				t.Errorf("application %d: %d instances", tt.capped, len(l.Applications[tt.capped-1].Links.ApplicationInstances))
			}
		})
	}
}

// A filtered list reads the inventory of every application it kept (listFiltered), so
// inventoryFor can get more ids than one NRQL answer holds rows (MaxFacets): it reads
// them in parts of MaxFacets, each never cut, and every application has its inventory.
// One query of all 12,000 would come back with 5000 rows and leave 7,000 without links.
func TestInventoryForReadsInParts(t *testing.T) {
	f := inventoryFake()
	tr := New(f, Options{})
	ids := make([]int64, 2*MaxFacets+2000)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	inv, capped, err := tr.inventoryFor(context.Background(), Caller{AccountID: 1}, ids)
	if err != nil || !capped { // application 99 (in the first part) fills uniques()
		t.Fatalf("err %v, capped %v", err, capped)
	}
	if got := f.count("AppInventory"); got != 3 {
		t.Errorf("%d reads, want 3", got)
	}
	var sizes []int
	for _, q := range sentQueries(f, "AppInventory", "query") {
		m := invIDsRe.FindStringSubmatch(q)
		sizes = append(sizes, len(strings.Split(m[1]+m[2], ", ")))
	}
	if fmt.Sprint(sizes) != "[5000 5000 2000]" {
		t.Errorf("reads of %v ids", sizes)
	}
	if len(inv) != len(ids) || inv[1] == nil || inv[int64(len(ids))] == nil {
		t.Errorf("%d applications with an inventory, want %d", len(inv), len(ids))
	}
}

// In an answer of many rows a host name is interned (the rows of one host share one
// string), and only a name read as written (no escape) is kept under its JSON text, so
// an escaped name is never answered for another text; an answer of a few rows (an
// application show's) reads the same names without interning them.
func TestInventoryHostInterning(t *testing.T) {
	rows := `{"facet":1,"hosts":["web-1"],"agents":[11],"lastSeen":1},{"facet":2,"hosts":["web-1"],"agents":[12],"lastSeen":1},` +
		`{"facet":3,"hosts":["\\n"],"agents":[13],"lastSeen":1},{"facet":4,"hosts":["\n"],"agents":[14],"lastSeen":1},` +
		`{"facet":5,"hosts":["a\\\\b"],"agents":[15],"lastSeen":1},{"facet":6,"hosts":["a\\b"],"agents":[16],"lastSeen":1}`
	var filler strings.Builder
	for i := 0; filler.Len() < internFrom; i++ {
		fmt.Fprintf(&filler, `,{"facet":%d,"hosts":["filler-%d"],"agents":[],"lastSeen":1}`, 100+i, i)
	}
	tr := New(nil, Options{})
	for _, tt := range []struct {
		answer string
		intern bool
	}{{`[` + rows + filler.String() + `]`, true}, {`[` + rows + `]`, false}} {
		inv, read := parseInventory(context.Background(), tr, []byte(tt.answer))
		if read.rows != len(inv) || len(inv) < 6 {
			t.Fatalf("%d rows, %d applications", read.rows, len(inv))
		}
		h1, h2 := inv[1].hosts[0], inv[2].hosts[0]
		if h1 != "web-1" || h2 != "web-1" || (unsafe.StringData(h1) == unsafe.StringData(h2)) != tt.intern {
			t.Errorf("answer of %d bytes: web-1 read as %q %q, interned %v", len(tt.answer), h1, h2, tt.intern)
		}
		for id, want := range map[int64]string{3: `\n`, 4: "\n", 5: `a\\b`, 6: `a\b`} {
			if got := inv[id].hosts; len(got) != 1 || got[0] != want {
				t.Errorf("application %d: hosts %q, want %q", id, got, want)
			}
		}
	}
}

// A facet is an integer written as a JSON number or a numeric string, read exactly (past
// float64's 2^53); anything else is not one, so its row names no application or
// instance.
func TestRawFacetInt(t *testing.T) {
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

// The fold's maps and first slab are sized for the answer's bytes (about 160 per row),
// not for thousands of times as many entries.
func TestInventoryFoldSizing(t *testing.T) {
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
	// One row (a show's answer is a few): its fold stays small, well under a slab of 64 or
	// maps sized for thousands of rows. The least of three measures, so that another
	// goroutine's allocations do not count.
	results := answer(1)
	got := min(bytesPer(results), bytesPer(results), bytesPer(results))
	if got > 3<<10 {
		t.Errorf("an answer of 1 row (%d bytes): %d bytes allocated, want at most 3 KB", len(results), got)
	}
}

// A host name whose first character is escaped in the JSON answer is decoded, not kept
// escaped.
func TestInventoryEscapedHost(t *testing.T) {
	tr := New(nil, Options{})
	inv, read := parseInventory(context.Background(), tr, []byte(`[{"facet":7,"hosts":["\u00e9-host"],"agents":[3],"lastSeen":1.7e12},{"facet":7,"hosts":[""],"agents":[4],"lastSeen":1}]`))
	if read.rows != 2 || inv[7] == nil || strings.Join(inv[7].hosts, ",") != "é-host" || len(inv[7].instances) != 2 {
		t.Fatalf("%d rows, inventory %+v", read.rows, inv[7])
	}
}

func TestRawFacetStr(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`"web-01"`, "web-01"},
		{`"caf\u00e9 \"x\" \\ y"`, `café "x" \ y`},
		{`"café"`, "café"},
		{`""`, ""},
		{`42`, ""},
		{`null`, ""},
	}
	for _, tt := range tests {
		if got := rawFacet(tt.in).str(); got != tt.want {
			t.Errorf("rawFacet(%s).str() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPlainIntAgreesWithParseInt: where plainInt reads a number, it is strconv.ParseInt's;
// where it does not, rawFacet.int falls back to strconv. Signs, zeros, 18 and 19
// digits, bytes around the digits.
func TestPlainIntAgreesWithParseInt(t *testing.T) {
	ins := []string{"0", "7", "-7", "+7", "007", "-0", "", "-", "12a", "a12", " 1", "1 ", "1.0", "1e3",
		"999999999999999999", "-999999999999999999", "1000000000000000000", "9223372036854775807", "/", ":"}
	r := rand.New(rand.NewPCG(7, 7))
	for range 5000 {
		b := make([]byte, r.IntN(21))
		for i := range b {
			b[i] = "0123456789-+:/ ."[r.IntN(16)]
		}
		ins = append(ins, string(b))
	}
	read := 0
	for _, in := range ins {
		n, ok := plainInt([]byte(in))
		if !ok {
			continue
		}
		read++
		want, err := strconv.ParseInt(in, 10, 64)
		if err != nil || want != n {
			t.Fatalf("plainInt(%q) = %d; strconv: %d, %v", in, n, want, err)
		}
	}
	if read < 100 {
		t.Fatalf("only %d inputs read: the test shows little", read)
	}
}

// BenchmarkInventoryParse reads an account-wide inventory of 222 applications of one
// to three hosts and agents (the demo account's list page 1), shaped as NerdGraph
// answers it, into the applications' hosts, instances and last reports.
func BenchmarkInventoryParse(b *testing.B) {
	rows := make([]map[string]any, 222)
	for i := range rows {
		app := strconv.Itoa(300000000 + i*7919)
		var hosts, agents []any
		for k := range 1 + i%3 {
			hosts = append(hosts, "worker-"+strconv.Itoa((i+k)%17)+".dc1.example.net")
			agents = append(agents, strconv.Itoa(800000000+(i*3+k)*104729))
		}
		rows[i] = invRow(app, hosts, agents, float64(1795175940000+i*1000))
	}
	raw, err := json.Marshal(rows)
	if err != nil {
		b.Fatal(err)
	}
	tr := New(nil, Options{})
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if inv, read := parseInventory(context.Background(), tr, raw); read.rows != 222 || len(inv) != 222 {
			b.Fatalf("%d rows, %d applications", read.rows, len(inv))
		}
	}
}

// aheadFake is fullInventoryFake(n) (every page 200 applications, the account-wide
// inventory full) that answers AppInventoryNext too, as AppInventory answers its
// inventory and AppList its search page; browsers, when not nil, is the account's
// browser application search in both.
func aheadFake(n int, browsers map[string]any) *opFake {
	f := fullInventoryFake(n)
	orig := f.answer
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "AppInventoryNext" {
			data, err := orig(op, vars)
			if op == "AppList" && err == nil && browsers != nil {
				actorOf(data)["browsers"] = browsers
			}
			return data, err
		}
		inv, err := orig("AppInventory", map[string]any{"query": vars["inventory"]})
		if err != nil {
			return nil, err
		}
		page, err := orig("AppList", map[string]any{"cursor": vars["cursor"]})
		if err != nil {
			return nil, err
		}
		b := actorOf(page)["browsers"]
		if browsers != nil {
			b = browsers
		}
		return map[string]any{"actor": map[string]any{
			"account":      map[string]any{"inventory": actorOf(inv)["account"].(map[string]any)["nrql"]},
			"entitySearch": actorOf(page)["entitySearch"],
			"browsers":     b,
		}}, nil
	}
	return f
}

// injectedBrowser is a browser application search of one application injected into
// APM application apm.
func injectedBrowser(apm int) map[string]any {
	return map[string]any{"results": map[string]any{"entities": []any{
		map[string]any{"__typename": "BrowserApplicationEntityOutline", "guid": AppGUID(1, DomainBrowser, 70),
			"applicationId": 70, "servingApmApplicationId": apm, "settings": map[string]any{"apdexTarget": 3}},
	}}}
}

func aheadTranslator(f *opFake) *Translator {
	return New(f, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
}

// Link paging through a large account: the first page costs its search and its
// inventory, which also reads page 2's search; every later page its inventory with the
// next page's search alone (the last page, with none after it, its inventory). Each
// page is what the same page read on its own is: read in reverse order, no page is
// read ahead of its request.
func TestListSequentialPagesOneRoundTripEach(t *testing.T) {
	const apps = 1100 // 6 pages; application 250 (page 2) has a browser application
	f := aheadFake(apps, injectedBrowser(250))
	tr := aheadTranslator(f)
	c := Caller{AccountID: 1}
	wantCalls := []int{2, 1, 1, 1, 1, 1}
	var got []*restv2.ApplicationList
	var paging []Paging
	for p := 1; p <= 6; p++ {
		before := f.count("")
		l, pg, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: p})
		if err != nil {
			t.Fatal(err)
		}
		if n := f.count("") - before; n != wantCalls[p-1] {
			t.Errorf("page %d: %d round trips, want %d", p, n, wantCalls[p-1])
		}
		got, paging = append(got, l), append(paging, pg)
	}
	if n := f.count("AppInventoryNext"); n != 5 {
		t.Errorf("%d AppInventoryNext, want 5 (pages 1 to 5)", n)
	}

	ref := aheadFake(apps, injectedBrowser(250))
	refTr := aheadTranslator(ref)
	for p := 6; p >= 1; p-- {
		l, pg, err := refTr.ListApplications(context.Background(), c, AppListRequest{Page: p})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(l, got[p-1]) || pg != paging[p-1] {
			t.Errorf("page %d read after page %d differs from page %d read alone", p, p-1, p)
		}
	}
	if a := got[1].Applications[49]; a.ID != 250 || !a.Settings.EnableRealUserMonitoring || fmt.Sprint(a.Links.ApplicationInstances) != "[1250]" {
		t.Errorf("application 250 read ahead: %+v", a)
	}
	if ref.count("AppList") != 6 {
		t.Errorf("reverse order: %d AppList, want 6 (one a page)", ref.count("AppList"))
	}
}

// The page read ahead serves only its caller's request for that page of that search,
// before any write to the account through the gateway, once; a repeat of the page it
// follows does not read it again; a page whose cursor is unknown is read as before
// (hops from the nearest cursor, then its search).
func TestListPageAheadScope(t *testing.T) {
	f := aheadFake(1500, nil)
	tr := aheadTranslator(f)
	a, b := Caller{KeyHash: "a", AccountID: 1}, Caller{KeyHash: "b", AccountID: 1}
	steps := []struct {
		name  string
		c     Caller
		write bool
		r     AppListRequest
		want  map[string]int
	}{
		{"a page 1", a, false, AppListRequest{}, map[string]int{"AppList": 1, "AppInventoryNext": 1}},
		{"b page 2", b, false, AppListRequest{Page: 2}, map[string]int{"AppCursor": 1, "AppList": 1, "AppInventoryNext": 1}},
		{"a page 2 after a write", a, true, AppListRequest{Page: 2}, map[string]int{"AppList": 1, "AppInventoryNext": 1}},
		{"a page 3", a, false, AppListRequest{Page: 3}, map[string]int{"AppInventoryNext": 1}},
		// A repeat while page 4 waits: page 4 is not read again.
		{"a page 3 again", a, false, AppListRequest{Page: 3}, map[string]int{"AppList": 1, "AppInventory": 1}},
		{"a filter[ids]", a, false, AppListRequest{IDs: []int64{601, 602}}, map[string]int{"AppList": 1}},
		{"a page 4", a, false, AppListRequest{Page: 4}, map[string]int{"AppInventoryNext": 1}},
		{"a page 6, cursor unknown", a, false, AppListRequest{Page: 6}, map[string]int{"AppCursor": 1, "AppList": 1, "AppInventoryNext": 1}},
		{"a page 7", a, false, AppListRequest{Page: 7}, map[string]int{"AppInventoryNext": 1}},
		{"a page 8, the last", a, false, AppListRequest{Page: 8}, map[string]int{"AppInventory": 1}},
	}
	for _, st := range steps {
		if st.write {
			tr.wroteAccount(st.c)
		}
		var l *restv2.ApplicationList
		var err error
		got := opsDuring(f, []string{"AppCursor", "AppList", "AppInventoryNext", "AppInventory"}, func() {
			l, _, err = tr.ListApplications(context.Background(), st.c, st.r)
		})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(st.want) {
			t.Errorf("%s: %v, want %v", st.name, got, st.want)
		}
		if p := max(st.r.Page, 1); st.r.IDs == nil && (len(l.Applications) == 0 || l.Applications[0].ID != int64((p-1)*PageSize+1)) {
			t.Errorf("%s: %d applications from %v", st.name, len(l.Applications), appIDs(l))
		}
	}
}

// partialClient answers through f, then fails op's first answer with a GraphQL error
// at path (with the data f gave), as NerdGraph does when a part of an answer fails.
type partialClient struct {
	f      *opFake
	op     string
	path   []any
	failed *bool
}

func (p partialClient) MakeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) error {
	if err := p.f.MakeRequest(ctx, req, resp); err != nil || req.OpName != p.op || *p.failed {
		return err
	}
	*p.failed = true
	return &ng.Error{Kind: ng.KindServer, Errors: []ng.GraphQLError{{Message: "fake: failed", Path: p.path}}}
}

// A failed part of the round trip that reads a page's inventory and the next page's
// search costs only what it read: the inventory's failure is declared on the page (the
// next page read ahead all the same), the next page's search or browser applications'
// failure leaves the page whole and the next page read by its own request; browser
// applications that continue past their first page leave it to that request too.
func TestListPageAheadPartialAnswers(t *testing.T) {
	tests := []struct {
		name        string
		field       string // the AppInventoryNext field that fails ("": none)
		browserMore bool   // the browser search has a second page
		wantCaps    string // page 1's
		wantPage2   map[string]int
	}{
		// The account-wide read page 1 came with was cut at its LIMIT: its rest is declared.
		{"inventory failed", "account", false, string(CapInventory) + ", " + string(CapInventoryFailed), map[string]int{"AppInventoryNext": 1}},
		{"next search failed", "entitySearch", false, "", map[string]int{"AppList": 1, "AppInventoryNext": 1}},
		{"browsers failed", "browsers", false, "", map[string]int{"AppList": 1, "AppInventoryNext": 1}},
		{"browsers past a page", "", true, "", map[string]int{"AppList": 1, "BrowserPage": 1, "AppInventoryNext": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var browsers map[string]any
			if tt.browserMore {
				browsers = injectedBrowser(250)
				browsers["results"].(map[string]any)["nextCursor"] = "b1"
			}
			var f *opFake
			f = withAnswer(aheadFake(1100, browsers), func(op string, _ map[string]any, data any) (any, error) {
				switch {
				case op == "BrowserPage":
					return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{"results": map[string]any{"entities": []any{}}}}}, nil
				case op == "AppInventoryNext" && tt.field != "" && f.count(op) == 1:
					actorOf(data)[tt.field] = nil
				}
				return data, nil
			})
			var client gql.Client = f
			if tt.field != "" {
				client = partialClient{f: f, op: "AppInventoryNext", path: []any{"actor", tt.field}, failed: new(bool)}
			}
			tr := New(client, Options{Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
			c := Caller{AccountID: 1}
			var notes Notes
			if _, _, err := tr.ListApplications(WithNotes(context.Background(), &notes), c, AppListRequest{}); err != nil {
				t.Fatal(err)
			}
			if notes.String() != tt.wantCaps {
				t.Errorf("page 1 declared %q, want %q", notes.String(), tt.wantCaps)
			}
			notes = Notes{}
			var l *restv2.ApplicationList
			var err error
			got := opsDuring(f, []string{"AppList", "BrowserPage", "AppInventoryNext", "AppInventory"}, func() {
				l, _, err = tr.ListApplications(WithNotes(context.Background(), &notes), c, AppListRequest{Page: 2})
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.wantPage2) {
				t.Errorf("page 2: %v, want %v", got, tt.wantPage2)
			}
			a := l.Applications[0]
			if len(l.Applications) != 200 || a.ID != 201 || a.Links == nil || fmt.Sprint(a.Links.ApplicationInstances) != "[1201]" {
				t.Errorf("page 2: %d applications, first %d %+v", len(l.Applications), a.ID, a.Links)
			}
			if tt.field == "" && notes.String() != "" {
				t.Errorf("page 2 declared %q", notes.String())
			}
		})
	}
}

// opsDuring is how many of each of ops the fake answered while do ran (those it did not
// answer left out).
func opsDuring(f *opFake, ops []string, do func()) map[string]int {
	before := map[string]int{}
	for _, op := range ops {
		before[op] = f.count(op)
	}
	do()
	got := map[string]int{}
	for op, n := range before {
		if d := f.count(op) - n; d > 0 {
			got[op] = d
		}
	}
	return got
}

// TestSortedSet: an application's hosts and instances are sorted without repeats,
// whatever their number.
func TestSortedSet(t *testing.T) {
	for _, tt := range []struct{ in, want []int64 }{
		{nil, nil}, {[]int64{3}, []int64{3}}, {[]int64{3, 1}, []int64{1, 3}}, {[]int64{2, 2}, []int64{2}},
		{[]int64{5, 1, 5, 3, 1}, []int64{1, 3, 5}},
	} {
		if got := sortedSet(slices.Clone(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("sortedSet(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if got := sortedSet([]string{"b", "a", "b"}); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("hosts %v", got)
	}
}
