package translate

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	ng "github.com/v2bridge/v2bridge/graphql"
)

type appInventory struct {
	hosts     []string
	instances []int64
	lastSeen  time.Time
	// capped: its hosts or agents filled uniques() (MaxUniques); some are missing.
	capped bool
	// hostRoom and instanceRoom hold the first hosts and instances (most applications
	// have one or two), so that they come with the inventory's own allocation.
	hostRoom     [2]string
	instanceRoom [2]int64
}

// inventoryFor reads the inventory of the applications ids: a page's, or every
// application a filtered list read (listFiltered). Each row is one application, so a
// read of at most MaxFacets ids is never cut: the ids are read in parts of MaxFacets, a
// round trip each (one for a page). capped is true when an application's hosts or
// agents fill uniques() (MaxUniques: the first ones met are kept).
func (t *Translator) inventoryFor(ctx context.Context, c Caller, ids []int64) (map[int64]*appInventory, bool, error) {
	inv, capped := map[int64]*appInventory{}, false
	until := t.until()
	for part := range slices.Chunk(ids, MaxFacets) {
		q, err := inventoryNRQL(part, until, MaxFacets)
		if err != nil {
			return nil, false, err
		}
		resp, err := ng.AppInventory(ctx, t.client, int(c.AccountID), q)
		if err != nil {
			return nil, false, fmt.Errorf("inventory of %d applications: %w", len(part), err)
		}
		var results json.RawMessage
		if acct := resp.GetActor().GetAccount(); acct != nil && acct.Nrql != nil {
			results = acct.Nrql.Results
		}
		if len(results) > 0 { // no account or no nrql: no rows
			got, read := parseInventory(ctx, t, results)
			maps.Copy(inv, got)
			capped = capped || read.capped
		}
		ng.ReleaseInventory(results) // read: nothing refers to it now
	}
	return inv, capped, nil
}

// completeInventory replaces a full inventory (as many applications as its LIMIT: some
// of the page's may be missing) by a read of the page's applications (inventoryFor:
// one round trip for a page, one per MaxFacets for the matches of a filtered list); an
// application whose hosts or agents fill uniques() is declared.
func (p *appPage) completeInventory(ctx context.Context, t *Translator, c Caller) {
	p.completeInventoryAhead(ctx, t, c, aheadPages{}, 0)
}

// completeInventoryAhead is completeInventory that, when the page has a next one and
// a keeps pages ahead, reads that next page (page n) in the same round trip as the
// page's inventory (inventoryAndNext) and keeps it for n's request (pageAhead).
func (p *appPage) completeInventoryAhead(ctx context.Context, t *Translator, c Caller, a aheadPages, n int) {
	if !p.invFull && !p.invMissing {
		return
	}
	ids := make([]int64, 0, len(p.apps))
	for _, f := range p.apps {
		ids = append(ids, appIDOf(f))
	}
	if len(ids) == 0 {
		p.invFull, p.invMissing = false, false
		return
	}
	var (
		inv    map[int64]*appInventory
		capped bool
		err    error
	)
	if a.on && p.next != nil && len(ids) <= MaxFacets {
		var next *appPage
		inv, capped, next, err = t.inventoryAndNext(ctx, c, ids, a.query, *p.next)
		if next != nil {
			t.st.Lists.SetLocal(a.key, aheadPage{n: n, page: next})
		}
	} else {
		inv, capped, err = t.inventoryFor(ctx, c, ids)
	}
	if err != nil {
		t.warn(ctx, "application inventory", err)
		// What is left is the capped account-wide read (when one came back), or none.
		if p.invFull {
			p.caps = append(p.caps, CapInventory)
			noteCap(ctx, CapInventory)
		}
		p.caps = append(p.caps, CapInventoryFailed)
		noteCap(ctx, CapInventoryFailed)
	} else {
		p.inventory = inv
		if capped {
			p.caps = append(p.caps, CapInventory)
			noteCap(ctx, CapInventory)
		}
	}
	p.invFull, p.invMissing = false, false
}

// aheadPages is where listPage keeps the search page after the one a request read,
// read in the same round trip as that page's inventory (completeInventoryAhead), so
// that Link paging through an account whose pages read their own inventory costs one
// round trip a page: one entry per caller and search (key, write-scoped: a write to
// the account through the gateway retires it), in the list cache (its summaries are
// never older than a filtered list's, ListTTL), taken by the request for that page (a
// repeat of the page before it, meanwhile, does not read it again). on is false for a
// list of ids (filter[ids]), whose pages carry their own inventory.
type aheadPages struct {
	key, query string
	on         bool
}

// aheadPage is a kept page: its number and the page as appListPage reads it on an
// account whose pages leave the account-wide inventory out.
type aheadPage struct {
	n    int
	page *appPage
}

// pageAhead takes page n of the search from the page kept ahead, or is nil.
func (t *Translator) pageAhead(a aheadPages, n int) *appPage {
	if !a.on || n < 2 {
		return nil
	}
	v, ok := t.st.Lists.GetLocal(a.key)
	if !ok {
		return nil
	}
	e, ok := v.(aheadPage)
	if !ok || e.n != n {
		return nil
	}
	t.st.Lists.Delete(a.key) // served once: the page is read again the next time
	// Its applications and browser applications are only read; its inventory and caps
	// are set per request, on a copy.
	p := *e.page
	return &p
}

// keptAhead is the number of the page kept ahead (0: none).
func (t *Translator) keptAhead(a aheadPages) int {
	if !a.on {
		return 0
	}
	if v, ok := t.st.Lists.GetLocal(a.key); ok {
		if e, ok := v.(aheadPage); ok {
			return e.n
		}
	}
	return 0
}

// inventoryAndNext is inventoryFor of a page's applications (at most MaxFacets) that
// reads, in the same round trip, the search page at cursor (the next page) and the
// account's browser applications (AppInventoryNext). next is that page as appListPage
// reads it without the account-wide inventory, or nil when its part of the answer
// failed or its browser applications take more than one search page (the next page's
// request then reads it itself); err is the inventory's.
func (t *Translator) inventoryAndNext(ctx context.Context, c Caller, ids []int64, query, cursor string) (map[int64]*appInventory, bool, *appPage, error) {
	q, err := inventoryNRQL(ids, t.until(), MaxFacets)
	if err != nil {
		return nil, false, nil, err
	}
	browserQuery, err := EntitySearch(c.AccountID, DomainBrowser, TypeApp).Build()
	if err != nil {
		return nil, false, nil, err
	}
	resp, err := ng.AppInventoryNext(ctx, t.client, int(c.AccountID), q, query, cursor, browserQuery)
	if err != nil && !ng.OnlyAt(err, "actor.account", "actor.entitySearch", "actor.browsers") {
		return nil, false, nil, fmt.Errorf("inventory of %d applications: %w", len(ids), err)
	}
	actor := resp.GetActor()
	if actor == nil { // no data: no rows and no next page
		actor = &ng.AppInventoryNextActor{}
	}
	var next *appPage
	if err != nil && (failedAt(err, "actor.entitySearch") || failedAt(err, "actor.browsers")) {
		t.warn(ctx, "next application page", err)
	} else {
		next = t.nextPage(c, actor)
	}
	var results json.RawMessage
	if acct := actor.GetAccount(); acct != nil && acct.Inventory != nil {
		results = acct.Inventory.Results
	}
	defer ng.ReleaseInventory(results) // read: nothing refers to it after parseInventory
	if err != nil && failedAt(err, "actor.account") {
		return nil, false, next, fmt.Errorf("inventory of %d applications: %w", len(ids), err)
	}
	if len(results) == 0 { // no account or no nrql: no rows
		return map[int64]*appInventory{}, false, next, nil
	}
	inv, read := parseInventory(ctx, t, results)
	return inv, read.capped, next, nil
}

// nextPage is the search page of an AppInventoryNext answer, or nil when the answer
// lacks it or the account's browser applications continue past their first page.
func (t *Translator) nextPage(c Caller, actor *ng.AppInventoryNextActor) *appPage {
	es, b := actor.GetEntitySearch(), actor.GetBrowsers()
	if es == nil || es.Results == nil || (b != nil && b.Results != nil && b.Results.NextCursor != nil) {
		return nil
	}
	p := &appPage{browsers: map[int64]browserInfo{}, next: es.Results.NextCursor, invMissing: true}
	if es.Count != nil {
		p.count = *es.Count
		t.noteAppCount(c, p.count) // namefilter.go
	}
	p.addApps(es.Results.Entities)
	if b != nil && b.Results != nil {
		addBrowsers(p.browsers, b.Results.Entities)
	}
	return p
}

// invRead is what parseInventory saw besides the inventory: how many rows (the
// applications' LIMIT may have cut them) and whether an application's hosts or agents
// filled uniques() (MaxUniques: the rest are missing, translate/caps.go).
type invRead struct {
	rows   int
	capped bool
}

// parseInventory reads the rows of inventoryNRQL: one row per application with its
// hosts, agents and lastSeen in epoch milliseconds. The rows are read in one pass over
// the answer (graphql.EachInventoryRow, which refuses what the JSON decoder refuses)
// straight into the fold, without a slice of rows or a copy of each value.
func parseInventory(ctx context.Context, t *Translator, results json.RawMessage) (map[int64]*appInventory, invRead) {
	var f inventoryFold
	f.init(len(results))
	rows, err := ng.EachInventoryRow(results, inventoryColumns(), f.add)
	if err != nil {
		t.warn(ctx, "inventory rows", fmt.Errorf("unexpected results: %w", err))
		return map[int64]*appInventory{}, invRead{}
	}
	return f.finish(ctx, t), invRead{rows: rows, capped: f.capped}
}

// inventoryFold folds inventory rows into each application's hosts, instances and
// last report.
type inventoryFold struct {
	inv map[int64]*appInventory
	// hosts interns host names: a host appears in the row of each application on it.
	hosts map[string]string
	// slab holds the appInventory values handed out (one allocation per slabN
	// applications instead of one each).
	slab  []appInventory
	slabN int
	// bad counts the rows whose facet is not an application id, warned by finish.
	bad int
	// capped: a row's hosts or agents list has MaxUniques values.
	capped bool
}

// init sizes the fold for an answer of size bytes (0: unknown): an inventory row is
// about 160 bytes, one per application.
func (f *inventoryFold) init(size int) {
	f.inv = make(map[int64]*appInventory, size/160)
	if size >= internFrom {
		f.hosts = make(map[string]string, size/400)
	}
	// An application show's answer has one row: its slab is one value, not 64.
	f.slabN = min(max(size/160, 1), 64)
}

func (f *inventoryFold) add(r *ng.InventoryRow) {
	app, ok := rawFacet(r.Facet).int()
	if !ok {
		f.bad++
		return
	}
	capped := len(r.Hosts) >= MaxUniques || len(r.Agents) >= MaxUniques
	f.capped = f.capped || capped
	a := f.inv[app]
	if a == nil {
		if len(f.slab) == 0 {
			f.slab = make([]appInventory, max(f.slabN, 1))
			f.slabN = 64 // the answer was larger than its size said: full slabs from now on
		}
		a = &f.slab[0]
		f.slab = f.slab[1:]
		a.hosts, a.instances = a.hostRoom[:0], a.instanceRoom[:0]
		f.inv[app] = a
	}
	// uniques() lists each value once; finish sorts and drops what still repeats (two
	// texts of one value, or a second row of the application), so an application of
	// 10,000 hosts is not compared pairwise.
	for _, v := range r.Hosts {
		if host := f.host(rawFacet(v)); host != "" {
			a.hosts = append(a.hosts, host)
		}
	}
	for _, v := range r.Agents {
		if agent, ok := rawFacet(v).int(); ok {
			a.instances = append(a.instances, agent)
		}
	}
	if ts := time.UnixMilli(int64(r.LastSeen)); ts.After(a.lastSeen) {
		a.lastSeen = ts
	}
	a.capped = a.capped || capped
}

// internFrom is the answer size from which host names are interned: a few rows (an
// application show's one) rarely repeat a host, and the map would cost more than it
// saves.
const internFrom = 4 << 10

// host is the facet's string (rawFacet.str), interned in a large answer.
func (f *inventoryFold) host(v rawFacet) string {
	if f.hosts != nil && len(v) >= 2 && v[0] == '"' {
		inner := v[1 : len(v)-1]
		if h, ok := f.hosts[string(inner)]; ok {
			return h
		}
		h := v.str()
		if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
			f.hosts[h] = h
		}
		return h
	}
	return v.str()
}

func (f *inventoryFold) finish(ctx context.Context, t *Translator) map[int64]*appInventory {
	if f.bad > 0 {
		t.warn(ctx, "inventory rows", fmt.Errorf("%d rows without an application id", f.bad))
	}
	for _, a := range f.inv {
		a.instances = sortedSet(a.instances)
		a.hosts = sortedSet(a.hosts)
	}
	return f.inv
}

// sortedSet sorts s and drops its repeats, in place; most applications have one host
// and one instance, which need neither.
func sortedSet[T cmp.Ordered](s []T) []T {
	if len(s) < 2 {
		return s
	}
	slices.Sort(s)
	return slices.Compact(s)
}

// rawFacet is one facet value of an NRQL row, kept as its JSON text (a number or a
// string) so a row decodes without boxing each value in an interface.
type rawFacet []byte

// UnmarshalJSON keeps the value's text; data belongs to the row being decoded, which
// outlives the facet.
func (f *rawFacet) UnmarshalJSON(data []byte) error {
	*f = data
	return nil
}

// int reads the facet as an integer, written as a JSON number or a numeric string.
func (f rawFacet) int() (int64, bool) {
	b := []byte(f)
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	if n, ok := plainInt(b); ok {
		return n, true // the inventory's ids: no string copy for strconv
	}
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return n, true
	}
	x, err := strconv.ParseFloat(string(b), 64)
	return int64(x), err == nil && x == math.Trunc(x)
}

// plainInt reads b when it is a decimal integer of 1 to 18 digits, optionally negative,
// as strconv.ParseInt would (TestPlainIntAgreesWithParseInt); anything else is left to it.
func plainInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// str reads the facet as a string ("" when it is not one).
func (f rawFacet) str() string {
	if len(f) < 2 || f[0] != '"' {
		return ""
	}
	if inner := f[1 : len(f)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner) // nothing to unescape: the common case, one allocation
	}
	var s string
	if json.Unmarshal(f, &s) != nil {
		return ""
	}
	return s
}

func facetInt(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		return int64(x), x == math.Trunc(x)
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	}
	return 0, false
}
