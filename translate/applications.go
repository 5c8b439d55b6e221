package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	gocache "github.com/patrickmn/go-cache"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// PageSize is REST v2's page size for applications (and NerdGraph's entity-search page).
const PageSize = 200

// Paging describes the page a list answer holds, for the Link header.
type Paging struct {
	Page    int
	Last    int // 0 when unknown
	HasNext bool
}

// pageOf is page (1-based) of items cut into pages of size, with its Paging; a page
// past the end is empty and still names the last page.
func pageOf[T any](items []T, page, size int) ([]T, Paging) {
	last := max((len(items)+size-1)/size, 1)
	lo := min((page-1)*size, len(items))
	return items[lo:min(lo+size, len(items))], Paging{Page: page, Last: last, HasNext: page < last}
}

// AppListRequest is a parsed GET /v2/applications.
type AppListRequest struct {
	Name         string // filter[name]: case-insensitive substring
	Language     string // filter[language]
	Host         string // filter[host]: case-insensitive substring of a host name
	IDs          []int64
	ExcludeLinks bool
	Page         int
}

func (r AppListRequest) postFiltered() bool {
	return r.Name != "" || r.Language != "" || r.Host != ""
}

// appFields is what the outline (search) and full (by guid) application selections
// have in common.
type appFields interface {
	GetGuid() string
	GetAccountId() int
	GetName() string
	GetReporting() bool
	GetAlertSeverity() ng.EntityAlertSeverity
	GetApplicationId() int
	GetLanguage() string
	GetSettings() *ng.OutlineSettings
	GetApmSummary() *ng.OutlineSummary
	GetApmBrowserSummary() *ng.OutlineBrowserStats
}

type browserInfo struct {
	apdexTarget *float64
	appID       int64
}

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

// ListApplications answers GET /v2/applications.
func (t *Translator) ListApplications(ctx context.Context, c Caller, r AppListRequest) (*v2.ApplicationList, Paging, error) {
	if r.Page < 1 {
		r.Page = 1
	}
	q := EntitySearch(c.AccountID, DomainAPM, TypeApp)
	if r.Language != "" {
		q.Eq("language", strings.ToLower(r.Language))
	}
	if len(r.IDs) > 0 {
		q.InInts("domainId", r.IDs)
	}
	// A name the search language cannot carry (a control character) is matched by
	// the full read, as with name_filter: read.
	like := r.Name != "" && t.nameLike && quotable(r.Name)
	if like {
		q.Like("name", r.Name)
	}
	query, err := q.Build()
	if err != nil {
		return nil, Paging{}, &v2.Error{Status: 422, Title: "Invalid filter: " + err.Error()}
	}
	if like {
		noteCap(ctx, CapNameLike) // namefilter.go
	}
	if r.Host == "" && r.postFiltered() && (like || t.largeAccount(c)) {
		return t.listMatched(ctx, c, query, r) // namefilter.go
	}
	if r.postFiltered() {
		return t.listFiltered(ctx, c, query, r)
	}
	return t.listPage(ctx, c, query, r.IDs, r)
}

// listPage serves page N straight from the entity search: REST's page size equals
// NerdGraph's, so page N is the N-th cursor hop (cursors cached per caller and query).
func (t *Translator) listPage(ctx context.Context, c Caller, query string, ids []int64, r AppListRequest) (*v2.ApplicationList, Paging, error) {
	cursor, ok, err := t.cursorFor(ctx, c, query, r.Page)
	if err != nil {
		return nil, Paging{}, err
	}
	if !ok { // past the last page
		return &v2.ApplicationList{ExcludeLinks: r.ExcludeLinks}, Paging{Page: r.Page}, nil
	}
	page, err := t.appListPage(ctx, c, query, cursor, ids)
	if err != nil {
		return nil, Paging{}, err
	}
	page.completeInventory(ctx, t, c)
	if page.next != nil {
		t.keepCursor(c, query, r.Page+1, *page.next)
	}
	apps := page.build(c.AccountID, r.ExcludeLinks)
	if page.count > 0 {
		t.noteLastPage(c, query, page.count)
	}
	return &v2.ApplicationList{Applications: apps, ExcludeLinks: r.ExcludeLinks},
		Paging{Page: r.Page, Last: pagesOf(page.count), HasNext: page.next != nil}, nil
}

// cursorFor returns the entity-search cursor of page n (nil for page 1); ok is false
// when the search has fewer pages. Its work is bounded by the search's own size, not
// by n: a page past the last one the search is known to have (its count, kept from
// any page or cursor read) answers at once, the scan back for a cached cursor covers
// at most the known pages, and every hop forward checks the request's context and
// deadline.
func (t *Translator) cursorFor(ctx context.Context, c Caller, query string, n int) (*string, bool, error) {
	if n == 1 {
		return nil, true, nil
	}
	// A page just past the known last one is walked to: an application created since
	// the count was read may have opened it.
	last, known := t.lastPage(c, query)
	if known && n > last+1 {
		return nil, false, nil
	}
	if v, ok := t.cursors.Get(c.cacheKey("apps-cursor", query, strconv.Itoa(n))); ok {
		s := v.(string)
		return &s, true, nil
	}
	// Start from the nearest cached earlier page and hop forward. Only page n's cursor
	// was looked up in the fleet's store (above): the scan reads this replica's
	// cursors alone, so a cold page costs no store round trip per page before it, and
	// starts at the furthest page whose cursor this replica kept.
	from := 1
	var cur *string
	for k := min(n-1, t.furthestCursor(c, query)); k >= 2; k-- {
		if v, ok := t.cursors.getLocal(c.cacheKey("apps-cursor", query, strconv.Itoa(k))); ok {
			s := v.(string)
			from, cur = k, &s
			break
		}
	}
	for k := from; k < n; k++ {
		if err := ng.Stopped(ctx); err != nil {
			return nil, false, fmt.Errorf("application search page %d: %w", k, err)
		}
		resp, err := ng.AppCursor(ctx, t.client, query, cur)
		if err != nil {
			return nil, false, fmt.Errorf("application search page %d: %w", k, err)
		}
		es := resp.GetActor().GetEntitySearch()
		if es != nil && es.Count != nil {
			t.noteLastPage(c, query, *es.Count)
			if l := pagesOf(*es.Count); n > l {
				return nil, false, nil
			}
		}
		if es == nil || es.Results == nil || es.Results.NextCursor == nil {
			return nil, false, nil
		}
		cur = es.Results.NextCursor
		t.keepCursor(c, query, k+1, *cur)
	}
	return cur, true, nil
}

// pagesOf is the number of REST pages a search of count applications has (1 for none).
func pagesOf(count int) int { return max((count+PageSize-1)/PageSize, 1) }

// keepCursor caches the cursor of page n of a search and notes n as the furthest page
// whose cursor this replica holds, where the scan back for a cached cursor starts.
func (t *Translator) keepCursor(c Caller, query string, n int, cursor string) {
	t.cursors.Set(c.cacheKey("apps-cursor", query, strconv.Itoa(n)), cursor)
	if n > t.furthestCursor(c, query) {
		t.cursors.setLocal(c.cacheKey("apps-furthest", query), n, gocache.DefaultExpiration)
	}
}

// furthestCursor is the furthest page of a search whose cursor this replica kept (0:
// none).
func (t *Translator) furthestCursor(c Caller, query string) int {
	if v, ok := t.cursors.getLocal(c.cacheKey("apps-furthest", query)); ok {
		return v.(int)
	}
	return 0
}

// lastPage is the last page of a search as its count was last read, if known.
func (t *Translator) lastPage(c Caller, query string) (int, bool) {
	if v, ok := t.cursors.getLocal(c.cacheKey("apps-last", query)); ok {
		return v.(int), true
	}
	return 0, false
}

// noteLastPage keeps the page count of a search read with count results, for as long
// as its cursors are kept.
func (t *Translator) noteLastPage(c Caller, query string, count int) {
	t.cursors.setLocal(c.cacheKey("apps-last", query), pagesOf(count), gocache.DefaultExpiration)
}

// listFiltered serves filters NerdGraph cannot apply with REST's semantics
// (substring name and host matches): it reads every match once, filters in Go, keeps
// the result for ListTTL and pages through it.
func (t *Translator) listFiltered(ctx context.Context, c Caller, query string, r AppListRequest) (*v2.ApplicationList, Paging, error) {
	key := t.writeScoped(c, "apps-filtered", query, strings.ToLower(r.Name), strings.ToLower(r.Language), strings.ToLower(r.Host))
	var all []v2.Application
	if v, ok := t.lists.Get(key); ok {
		f := v.(filteredApps)
		all = f.apps
		noteCaps(ctx, f.caps)
	} else {
		page, err := t.appListPage(ctx, c, query, nil, r.IDs)
		if err != nil {
			return nil, Paging{}, err
		}
		for next := page.next; next != nil; {
			resp, err := ng.AppSearchPage(ctx, t.client, query, next)
			if err != nil {
				return nil, Paging{}, fmt.Errorf("application search: %w", err)
			}
			next = nil
			if res := resp.GetActor().GetEntitySearch().GetResults(); res != nil {
				page.addApps(res.Entities)
				next = res.NextCursor
			}
		}
		if r.Host == "" {
			// Name and language need no inventory: keep the matches first, so the
			// inventory is read for them alone when the page had none (a large account).
			kept := page.apps[:0]
			for _, f := range page.apps {
				if r.matchesEntity(f) {
					kept = append(kept, f)
				}
			}
			page.apps = kept
		}
		page.completeInventory(ctx, t, c)
		for _, a := range page.build(c.AccountID, false) {
			if r.matches(&a, page.inventory[a.ID]) {
				all = append(all, a)
			}
		}
		if !failed(page.caps) { // a failed part is read again next time, not kept for ListTTL
			t.lists.Set(key, filteredApps{apps: all, caps: page.caps})
		}
	}
	last := (len(all) + PageSize - 1) / PageSize
	if last < 1 {
		last = 1
	}
	lo := min((r.Page-1)*PageSize, len(all))
	hi := min(lo+PageSize, len(all))
	apps := slices.Clone(all[lo:hi])
	if r.ExcludeLinks {
		for i := range apps {
			apps[i].Links = nil
		}
	}
	return &v2.ApplicationList{Applications: apps, ExcludeLinks: r.ExcludeLinks},
		Paging{Page: r.Page, Last: last, HasNext: r.Page < last}, nil
}

// filteredApps is a post-filtered application list in the list cache, with the caps
// its inventory met (noted again on every page served from it).
type filteredApps struct {
	apps []v2.Application
	caps []Cap
}

// matchesEntity is matches without the host filter, on the entity as NerdGraph gave it.
func (r AppListRequest) matchesEntity(f appFields) bool {
	if r.Name != "" && !containsFold(f.GetName(), r.Name) {
		return false
	}
	return r.Language == "" || strings.EqualFold(f.GetLanguage(), r.Language)
}

func (r AppListRequest) matches(a *v2.Application, inv *appInventory) bool {
	if r.Name != "" && !containsFold(a.Name, r.Name) {
		return false
	}
	if r.Language != "" && !strings.EqualFold(a.Language, r.Language) {
		return false
	}
	if r.Host != "" {
		if inv == nil {
			return false
		}
		found := false
		for _, h := range inv.hosts {
			if containsFold(h, r.Host) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// appPage is one AppList answer, ready to be built into v2 applications.
type appPage struct {
	apps      []appFields
	count     int
	next      *string
	browsers  map[int64]browserInfo
	inventory map[int64]*appInventory
	// invFull: the inventory came back with as many applications as its LIMIT
	// (accountInventoryApps account-wide), so it may lack some (completeInventory
	// reads the page's again).
	invFull bool
	// invMissing: the page was read without an inventory (the account's is known to
	// exceed accountInventoryApps: manyApps, or it failed); completeInventory reads
	// the page's.
	invMissing bool
	caps       []Cap
}

// manyApps is whether the caller's account-wide inventory is known (from an earlier
// list, for CursorTTL) to exceed accountInventoryApps applications: it is then cut,
// read again for the page anyway (completeInventory), and grows with the account
// while the page does not. Such an account's pages leave it out and read the page's
// inventory in the second round trip they would make anyway, so a page costs about
// the same on 300 or 50,000 applications; smaller accounts keep their one round trip.
func (t *Translator) manyApps(c Caller) bool {
	v, ok := t.cursors.Get(c.cacheKey("apps-many"))
	return ok && v == true
}

// withoutInventory is whether a list page leaves the account-wide inventory out: the
// account is large (manyApps), or that inventory failed on this account of more than a
// page within CursorTTL (an NRQL timeout: NerdGraph's nrql runs 5 s by default and the
// query grows with the account; each failure also costs the client's retries), so
// the next pages do not wait for it again and read the page's inventory instead, as
// the page that met the failure did (completeInventory). The "apps-many" entry holds
// which: true (full at accountInventoryApps) or invFailedMark.
func (t *Translator) withoutInventory(c Caller) bool {
	_, ok := t.cursors.Get(c.cacheKey("apps-many"))
	return ok
}

// invFailedMark is the "apps-many" entry of an account whose account-wide inventory
// failed (withoutInventory); unlike true, it says nothing of the account's size
// (largeAccount).
const invFailedMark = "inventory failed"

// accountInventoryApps is the most applications a list page's account-wide inventory
// reads (its LIMIT): five pages' worth. Up to there one round trip answers the page,
// with at most five times the rows the page's own inventory has; past it the account is
// marked large (manyApps) and its pages read their own, which costs the same at any
// size. A LIMIT of 5000 would let a page of an account of 4,000 applications read
// 4,000 rows every time.
const accountInventoryApps = 5 * PageSize

// appListPage reads one search page of applications with the browser applications and
// the inventory: of ids when the request names them (filter[ids]), else account-wide,
// unless it is left out (withoutInventory: the account is large, or it failed).
func (t *Translator) appListPage(ctx context.Context, c Caller, query string, cursor *string, ids []int64) (*appPage, error) {
	browserQuery, err := EntitySearch(c.AccountID, DomainBrowser, TypeApp).Build()
	if err != nil {
		return nil, err
	}
	limit := accountInventoryApps
	if len(ids) > 0 {
		limit = MaxFacets
	}
	inv, err := inventoryNRQL(ids, t.until(), limit)
	if err != nil {
		return nil, err
	}
	withInventory := len(ids) > 0 || !t.withoutInventory(c)
	resp, err := ng.AppList(ctx, t.client, query, cursor, browserQuery, int(c.AccountID), inv, withInventory)
	p := &appPage{browsers: map[int64]browserInfo{}, invMissing: !withInventory}
	invFailed := false
	if err != nil {
		if !ng.OnlyAt(err, "actor.account", "actor.browsers") {
			return nil, fmt.Errorf("application list: %w", err)
		}
		t.warn(ctx, "application list enrichment", err)
		if failedAt(err, "actor.account") {
			p.invMissing = true // read again for the page's applications (completeInventory)
			invFailed = withInventory && len(ids) == 0
		}
		if failedAt(err, "actor.browsers") {
			p.caps = append(p.caps, CapBrowsersFailed)
			noteCap(ctx, CapBrowsersFailed)
		}
	}
	actor := resp.GetActor()
	if es := actor.GetEntitySearch(); es != nil {
		if es.Count != nil {
			p.count = *es.Count
			t.noteAppCount(c, p.count) // namefilter.go
			if invFailed && p.count > PageSize {
				t.cursors.Set(c.cacheKey("apps-many"), invFailedMark) // withoutInventory
			}
		}
		if res := es.Results; res != nil {
			p.next = res.NextCursor
			p.addApps(res.Entities)
		}
	}
	if b := actor.GetBrowsers(); b != nil && b.Results != nil {
		addBrowsers(p.browsers, b.Results.Entities)
		for next := b.Results.NextCursor; next != nil; {
			bp, err := ng.BrowserPage(ctx, t.client, browserQuery, next)
			if err != nil {
				return nil, fmt.Errorf("browser applications: %w", err)
			}
			next = nil
			if res := bp.GetActor().GetEntitySearch().GetResults(); res != nil {
				addBrowsers(p.browsers, res.Entities)
				next = res.NextCursor
			}
		}
	}
	if acct := actor.GetAccount(); acct != nil && acct.Inventory != nil {
		var read invRead
		p.inventory, read = parseInventory(ctx, t, acct.Inventory.Results)
		ng.ReleaseInventory(acct.Inventory.Results) // read: nothing refers to it now
		p.invFull = read.rows >= limit
		if read.capped && !p.invFull && p.cappedApp() {
			p.caps = append(p.caps, CapInventory)
			noteCap(ctx, CapInventory)
		}
		if p.invFull && len(ids) == 0 {
			t.cursors.Set(c.cacheKey("apps-many"), true)
		}
	}
	return p, nil
}

// completeInventory replaces a full inventory (as many applications as its LIMIT: some
// of the page's may be missing) by a read of the page's applications (inventoryFor:
// one round trip for a page, one per MaxFacets for the matches of a filtered list); an
// application whose hosts or agents fill uniques() is declared.
func (p *appPage) completeInventory(ctx context.Context, t *Translator, c Caller) {
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
	inv, capped, err := t.inventoryFor(ctx, c, ids)
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

// cappedApp is whether an application of the page has an inventory that filled
// uniques() (an account-wide inventory can hold such an application on another page).
func (p *appPage) cappedApp() bool {
	for _, f := range p.apps {
		if inv := p.inventory[appIDOf(f)]; inv != nil && inv.capped {
			return true
		}
	}
	return false
}

// addApps adds the APM applications of a search page (any other entity type skipped).
func (p *appPage) addApps(entities []ng.ApmOutline) {
	p.apps = slices.Grow(p.apps, len(entities))
	for i := range entities {
		if e := &entities[i]; e.IsApmApplication() {
			p.apps = append(p.apps, e)
		}
	}
}

// addBrowsers records the APM-injected browser applications of a search page.
func addBrowsers(m map[int64]browserInfo, entities []ng.BrowserOutline) {
	for i := range entities {
		addBrowser(m, &entities[i])
	}
}

// addBrowser records b under the APM application it is injected into, if any.
func addBrowser(m map[int64]browserInfo, b *ng.BrowserOutline) {
	if !b.IsBrowserApplication() || b.ServingApmApplicationId == nil || *b.ServingApmApplicationId == 0 {
		return
	}
	info := browserInfo{}
	if id := b.ApplicationId; id != nil {
		info.appID = int64(*id)
	}
	if s := b.Settings; s != nil {
		info.apdexTarget = s.ApdexTarget
	}
	m[int64(*b.ServingApmApplicationId)] = info
}

func (p *appPage) build(accountID int64, excludeLinks bool) []v2.Application {
	apps := make([]v2.Application, 0, len(p.apps))
	arena := newAppArena(len(p.apps))
	for _, f := range p.apps {
		id := appIDOf(f)
		b, hasBrowser := p.browsers[id]
		var bp *browserInfo
		if hasBrowser {
			bp = &b
		}
		apps = append(apps, buildApplication(f, accountID, bp, p.inventory[id], excludeLinks, arena))
	}
	return apps
}

// appArena hands out the parts of a page's application objects (last report time,
// summary, links and host ids) from one allocation per kind for the page instead of
// one per application each: the page and its parts live and die together (the list
// cache keeps the page whole). BenchmarkGatewayApplicationsList.
type appArena struct {
	times     []time.Time
	summaries []v2.ApplicationSummary
	links     []v2.ApplicationLinks
	ids       []int64
}

func newAppArena(n int) *appArena {
	return &appArena{
		times:     make([]time.Time, 0, n),
		summaries: make([]v2.ApplicationSummary, 0, n),
		links:     make([]v2.ApplicationLinks, 0, n),
	}
}

// time, summary and link return a pointer to a copy of their value, from the arena
// while it has room; a nil arena allocates, as for an application show.
func (a *appArena) time(t time.Time) *time.Time {
	if a == nil {
		return heapCopy(t)
	}
	return arenaPut(&a.times, t)
}

func (a *appArena) summary(s v2.ApplicationSummary) *v2.ApplicationSummary {
	if a == nil {
		return heapCopy(s)
	}
	return arenaPut(&a.summaries, s)
}

func (a *appArena) link(l v2.ApplicationLinks) *v2.ApplicationLinks {
	if a == nil {
		return heapCopy(l)
	}
	return arenaPut(&a.links, l)
}

// arenaPut appends v to *s while it has room and returns a pointer to the element, or a
// heap copy once *s is full (its elements must never move).
func arenaPut[T any](s *[]T, v T) *T {
	if len(*s) == cap(*s) {
		return heapCopy(v)
	}
	*s = append(*s, v)
	return &(*s)[len(*s)-1]
}

// heapCopy is a new copy of v (not &v: that would move v to the heap on every call).
func heapCopy[T any](v T) *T {
	p := new(T)
	*p = v
	return p
}

// hostIDs returns an empty slice with room for n ids, capped at n so that an append
// past it reallocates instead of writing into the next application's ids.
func (a *appArena) hostIDs(n int) []int64 {
	if a == nil || n == 0 {
		return []int64{}
	}
	if cap(a.ids)-len(a.ids) < n {
		a.ids = make([]int64, 0, max(256, n))
	}
	start := len(a.ids)
	a.ids = a.ids[:start+n]
	return a.ids[start : start : start+n]
}

func appIDOf(f appFields) int64 { return appIDFrom(int64(f.GetApplicationId()), f.GetGuid()) }

// appIDFrom is an application's REST v2 id: its applicationId, or when that is null (0)
// the domain id of its guid, or 0.
func appIDFrom(id int64, guid string) int64 {
	if id != 0 {
		return id
	}
	if guid != "" {
		if g, err := ParseGUID(guid); err == nil {
			if n, err := strconv.ParseInt(g.DomainID, 10, 64); err == nil {
				return n
			}
		}
	}
	return 0
}

// buildApplication maps one application entity to REST v2's object (MAPPING.md §1.12).
func buildApplication(f appFields, accountID int64, browser *browserInfo, inv *appInventory, excludeLinks bool, arena *appArena) v2.Application {
	id := appIDOf(f)
	a := v2.Application{
		ID:       id,
		Name:     f.GetName(),
		Language: strings.ToLower(f.GetLanguage()),
	}
	a.Reporting = f.GetReporting()
	a.HealthStatus = severityHealth(a.Reporting, f.GetAlertSeverity())
	settings := f.GetSettings()
	var apdexTarget float64
	if settings != nil {
		apdexTarget = settings.ApdexTarget
		a.Settings.UseServerSideConfig = settings.ServerSideConfig
	}
	a.Settings.AppApdexThreshold = apdexTarget
	if browser != nil {
		a.Settings.EnableRealUserMonitoring = true
		a.Settings.EndUserApdexThreshold = browser.apdexTarget
	}
	if a.Reporting {
		if inv != nil && !inv.lastSeen.IsZero() {
			a.LastReportedAt = arena.time(inv.lastSeen.UTC().Truncate(time.Second))
		}
		if s := f.GetApmSummary(); s != nil {
			rt, tp := s.WebResponseTimeAverage, s.WebThroughput
			if tp <= 0 {
				rt, tp = s.NonWebResponseTimeAverage, s.NonWebThroughput
			}
			// errorRate is already a percent, as the host summaries' 100×errors/calls: "the
			// percentage of responses to all transactions with an error" (schema description,
			// newrelic-client-go pkg/entities/types.go); tests/contracts
			// TestErrorRateIsAPercentEverywhere pins it.
			a.Summary = arena.summary(v2.ApplicationSummary{
				ResponseTime:  figure(rt * 1000),
				Throughput:    figure(tp),
				ErrorRate:     figure(s.ErrorRate),
				ApdexTarget:   apdexTarget,
				ApdexScore:    apdexFigure(s.ApdexScore),
				HostCount:     int64(s.HostCount),
				InstanceCount: int64(s.InstanceCount),
			})
		}
		if bs := f.GetApmBrowserSummary(); bs != nil && browser != nil {
			a.EndUser = &v2.EndUserSummary{
				ResponseTime: figure(bs.PageLoadTimeAverage),
				Throughput:   figure(bs.PageLoadThroughput),
				ApdexTarget:  deref(browser.apdexTarget),
			}
		}
	}
	if !excludeLinks {
		links := v2.ApplicationLinks{ApplicationInstances: []int64{}, ApplicationHosts: []int64{}}
		if inv != nil {
			links.ApplicationInstances = inv.instances
			links.ApplicationHosts = arena.hostIDs(len(inv.hosts))
			for _, h := range inv.hosts {
				links.ApplicationHosts = append(links.ApplicationHosts, HostID(accountID, id, h))
			}
			slices.Sort(links.ApplicationHosts)
		}
		a.Links = arena.link(links)
	}
	return a
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
// straight into the fold, without a slice of rows or a copy of each value:
// BenchmarkInventoryParse (translate/ids_test.go).
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
// about 160 bytes, one per application (the demo account: 36 KB, 222 rows).
func (f *inventoryFold) init(size int) {
	f.inv = make(map[int64]*appInventory, size/160)
	f.hosts = make(map[string]string, size/400)
	// An application show's answer has one row: a slab of 64 there was 8 KB of a
	// 23 KB request (BenchmarkGatewayApplicationShow).
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

// host is the facet's string (rawFacet.str), interned.
func (f *inventoryFold) host(v rawFacet) string {
	if len(v) >= 2 && v[0] == '"' {
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
		slices.Sort(a.instances)
		a.instances = slices.Compact(a.instances)
		slices.Sort(a.hosts)
		a.hosts = slices.Compact(a.hosts)
	}
	return f.inv
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

// ShowApplication answers GET /v2/applications/{id}, from the caller's entity cache
// for EntityTTL (the document is then shared by the requests it answers, read only,
// with its rendered bytes). A write to the account through the gateway retires the
// entries of every caller of that account (accountWrites).
func (t *Translator) ShowApplication(ctx context.Context, c Caller, id int64) (*v2.ApplicationShow, error) {
	var key string
	if t.entities != nil {
		key = t.appEntityKey(c, id)
		if v, ok := t.entities.Get(key); ok {
			return v.(*v2.ApplicationShow), nil
		}
	}
	a, _, capped, err := t.readApplication(ctx, c, id)
	if err != nil {
		return nil, err
	}
	doc := &v2.ApplicationShow{Application: *a}
	if t.entities != nil && !capped { // a capped answer is read again, and declared, each time
		doc.Share()
		t.entities.Set(key, doc)
	}
	return doc, nil
}

func (t *Translator) appEntityKey(c Caller, id int64) string {
	var b [20]byte
	return t.writeScoped(c, "application", string(strconv.AppendInt(b[:0], id, 10)))
}

// wroteAccount retires the cached application reads of every caller of c's account
// after a write through the gateway (also after a failed one: it may have half applied).
func (t *Translator) wroteAccount(c Caller) { t.writes.bump(c.AccountID) }

// ErrApplicationNotFound is REST v2's 404 for application ids it does not know.
func ErrApplicationNotFound() *v2.Error {
	return &v2.Error{Status: 404, Title: "No Application found with the given ID"}
}

func (t *Translator) application(ctx context.Context, c Caller, id int64) (*v2.Application, error) {
	a, _, err := t.applicationWithBrowser(ctx, c, id)
	return a, err
}

// applicationWithBrowser also returns the injected browser application, if any.
func (t *Translator) applicationWithBrowser(ctx context.Context, c Caller, id int64) (*v2.Application, *browserInfo, error) {
	a, b, _, err := t.readApplication(ctx, c, id)
	return a, b, err
}

// readApplication is applicationWithBrowser, and whether the application's inventory
// filled uniques() (MaxUniques or more hosts or agent instances in the inventory
// window: its links are the first ones met; noted on ctx).
func (t *Translator) readApplication(ctx context.Context, c Caller, id int64) (*v2.Application, *browserInfo, bool, error) {
	if id <= 0 {
		return nil, nil, false, ErrApplicationNotFound()
	}
	inv, err := inventoryNRQL([]int64{id}, t.until(), MaxFacets)
	if err != nil {
		return nil, nil, false, err
	}
	resp, err := ng.AppShow(ctx, t.client, AppGUID(c.AccountID, DomainAPM, id), int(c.AccountID), inv)
	var lost []Cap // parts of the answer a failed sub-query took away, declared and not cached
	if err != nil {
		if !ng.OnlyAt(err, "actor.account", "actor.entity.browser") {
			return nil, nil, false, fmt.Errorf("application %d: %w", id, err)
		}
		t.warn(ctx, "application enrichment", err)
		if failedAt(err, "actor.account") {
			lost = append(lost, CapInventoryFailed)
		}
		if failedAt(err, "actor.entity.browser") {
			lost = append(lost, CapBrowsersFailed)
		}
	}
	ent := resp.GetActor().GetEntity()
	if ent == nil || !ent.IsApmApplication() || int64(ent.AccountId) != c.AccountID || appIDOf(ent) != id {
		return nil, nil, false, ErrApplicationNotFound()
	}
	var browser *browserInfo
	if rel := ent.Browser; rel != nil {
		m := map[int64]browserInfo{}
		for _, edge := range rel.Results {
			if edge == nil {
				continue
			}
			for _, end := range []*ng.RelatedEnd{edge.Source, edge.Target} {
				if end != nil && end.Entity != nil {
					addBrowser(m, end.Entity)
				}
			}
		}
		if b, ok := m[id]; ok {
			browser = &b
		}
	}
	var invMap map[int64]*appInventory
	capped := false
	if acct := resp.GetActor().GetAccount(); acct != nil && acct.Inventory != nil {
		var read invRead
		invMap, read = parseInventory(ctx, t, acct.Inventory.Results)
		if capped = read.capped; capped {
			noteCap(ctx, CapInventory)
		}
	}
	noteCaps(ctx, lost)
	a := buildApplication(ent, c.AccountID, browser, invMap[id], false, nil)
	return &a, browser, capped || len(lost) > 0, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
