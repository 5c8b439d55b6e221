package translate

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
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

// ListApplications answers GET /v2/applications.
func (t *Translator) ListApplications(ctx context.Context, c Caller, r AppListRequest) (*restv2.ApplicationList, Paging, error) {
	list, paging, err := t.listApplications(ctx, c, r)
	if err == nil && list != nil {
		ids := make([]int64, len(list.Applications))
		for i := range list.Applications {
			ids[i] = list.Applications[i].ID
		}
		t.listed(c, ids) // the order a sweep likely follows (sweep.go)
	}
	return list, paging, err
}

func (t *Translator) listApplications(ctx context.Context, c Caller, r AppListRequest) (*restv2.ApplicationList, Paging, error) {
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
		return nil, Paging{}, restv2.Unprocessable("Invalid filter: " + err.Error())
	}
	if like {
		noteCap(ctx, CapNameLike) // namefilter.go
	}
	large := false
	if r.Host == "" && r.postFiltered() && !like {
		if large, err = t.knowAccountSize(ctx, c); err != nil { // namefilter.go
			return nil, Paging{}, err
		}
	}
	if r.Host == "" && r.postFiltered() && (like || large) {
		return t.listMatched(ctx, c, query, r) // namefilter.go
	}
	if r.postFiltered() {
		return t.listFiltered(ctx, c, query, r)
	}
	return t.listPage(ctx, c, query, r.IDs, r)
}

// listPage serves page N straight from the entity search: REST's page size equals
// NerdGraph's, so page N is the N-th cursor hop (cursors cached per caller and query).
// On an account whose pages read their own inventory in a second round trip, that
// round trip also reads page N+1's search (aheadPages), so a request for page N+1 that
// follows costs its inventory alone.
func (t *Translator) listPage(ctx context.Context, c Caller, query string, ids []int64, r AppListRequest) (*restv2.ApplicationList, Paging, error) {
	ahead := aheadPages{key: t.writeScoped(c, "apps-ahead", query), query: query, on: len(ids) == 0}
	page := t.pageAhead(ahead, r.Page)
	if page == nil {
		cursor, ok, err := t.cursorFor(ctx, c, query, r.Page)
		if err != nil {
			return nil, Paging{}, err
		}
		if !ok { // past the last page
			return &restv2.ApplicationList{ExcludeLinks: r.ExcludeLinks}, Paging{Page: r.Page}, nil
		}
		if page, err = t.appListPage(ctx, c, query, cursor, ids); err != nil {
			return nil, Paging{}, err
		}
	}
	if t.keptAhead(ahead) == r.Page+1 {
		// A repeat of this page (a script polling page 1, say) while the next one read
		// ahead for it waits: that page is not read again for every repeat.
		ahead.on = false
	}
	page.completeInventoryAhead(ctx, t, c, ahead, r.Page+1)
	if page.next != nil {
		t.keepCursor(c, query, r.Page+1, *page.next)
	}
	apps := page.build(t.hostIDs, c.AccountID, r.ExcludeLinks, t.summaryAll)
	if page.count > 0 {
		t.noteLastPage(c, query, page.count)
		if len(ids) == 0 { // the account's whole search
			t.noteAccountCount(c, page.count) // namefilter.go
		}
	}
	return &restv2.ApplicationList{Applications: apps, ExcludeLinks: r.ExcludeLinks},
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
	if v, ok := t.st.Cursors.Get(c.cacheKey("apps-cursor", query, strconv.Itoa(n))); ok {
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
		if v, ok := t.st.Cursors.GetLocal(c.cacheKey("apps-cursor", query, strconv.Itoa(k))); ok {
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
	t.st.Cursors.Set(c.cacheKey("apps-cursor", query, strconv.Itoa(n)), cursor)
	if n > t.furthestCursor(c, query) {
		t.st.Cursors.SetLocal(c.cacheKey("apps-furthest", query), n)
	}
}

// furthestCursor is the furthest page of a search whose cursor this replica kept (0:
// none).
func (t *Translator) furthestCursor(c Caller, query string) int {
	if v, ok := t.st.Cursors.GetLocal(c.cacheKey("apps-furthest", query)); ok {
		return v.(int)
	}
	return 0
}

// lastPage is the last page of a search as its count was last read, if known.
func (t *Translator) lastPage(c Caller, query string) (int, bool) {
	if v, ok := t.st.Cursors.GetLocal(c.cacheKey("apps-last", query)); ok {
		return v.(int), true
	}
	return 0, false
}

// noteLastPage keeps the page count of a search read with count results, for as long
// as its cursors are kept.
func (t *Translator) noteLastPage(c Caller, query string, count int) {
	t.st.Cursors.SetLocal(c.cacheKey("apps-last", query), pagesOf(count))
}

// listFiltered serves filters NerdGraph cannot apply with REST's semantics
// (substring name and host matches): it reads every match once, filters in Go, keeps
// the result for ListTTL and pages through it.
func (t *Translator) listFiltered(ctx context.Context, c Caller, query string, r AppListRequest) (*restv2.ApplicationList, Paging, error) {
	key := t.writeScoped(c, "apps-filtered", query, strings.ToLower(r.Name), strings.ToLower(r.Language), strings.ToLower(r.Host))
	var all []restv2.Application
	if v, ok := t.st.Lists.Get(key); ok {
		f := v.(filteredApps)
		all = f.apps
		noteCaps(ctx, f.caps)
	} else {
		page, err := t.appListPage(ctx, c, query, nil, r.IDs)
		if err != nil {
			return nil, Paging{}, err
		}
		if r.Host == "" && page.next != nil && t.largeAccount(c) {
			// The first page showed a large account: its name index serves this filter
			// and every later one, instead of every page read whole.
			return t.listMatched(ctx, c, query, r) // namefilter.go
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
		for _, a := range page.build(t.hostIDs, c.AccountID, false, t.summaryAll) {
			if r.matches(&a, page.inventory[a.ID]) {
				all = append(all, a)
			}
		}
		if !failed(page.caps) { // a failed part is read again next time, not kept for ListTTL
			t.st.Lists.Set(key, filteredApps{apps: all, caps: page.caps})
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
	return &restv2.ApplicationList{Applications: apps, ExcludeLinks: r.ExcludeLinks},
		Paging{Page: r.Page, Last: last, HasNext: r.Page < last}, nil
}

// filteredApps is a post-filtered application list in the list cache, with the caps
// its inventory met (noted again on every page served from it).
type filteredApps struct {
	apps []restv2.Application
	caps []Cap
}

// matchesEntity is matches without the host filter, on the entity as NerdGraph gave it.
func (r AppListRequest) matchesEntity(f appFields) bool {
	return r.matchesName(f.GetName(), f.GetLanguage()) // namefilter.go
}

func (r AppListRequest) matches(a *restv2.Application, inv *appInventory) bool {
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
	v, ok := t.st.Cursors.Get(c.cacheKey("apps-many"))
	return ok && v == true
}

// withoutInventory is whether a list page leaves the account-wide inventory out: the
// account is large (manyApps), or that inventory failed on this account of more than a
// page within CursorTTL (an NRQL timeout: NerdGraph's nrql runs 5 s by default and the
// query grows with the account), so the next pages do not wait for it again and read
// the page's inventory instead, as the page that met the failure did
// (completeInventory). The "apps-many" entry holds which: true (full at
// accountInventoryApps) or invFailedMark.
func (t *Translator) withoutInventory(c Caller) bool {
	_, ok := t.st.Cursors.Get(c.cacheKey("apps-many"))
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
	// An inventory that failed is read for the page's applications (completeInventory),
	// so the client does not send the whole page again for it: a timed-out inventory
	// would cost its wait once an attempt.
	resp, err := ng.AppList(ng.WithOptional(ctx, "actor.account"), t.client, query, cursor, browserQuery, int(c.AccountID), inv, withInventory)
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
				t.st.Cursors.Set(c.cacheKey("apps-many"), invFailedMark) // withoutInventory
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
			t.st.Cursors.Set(c.cacheKey("apps-many"), true)
		}
	}
	return p, nil
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

// build maps the page's applications (summaryAll: the summary over all transactions,
// Options.SummaryAllTransactions).
func (p *appPage) build(hosts *hostIDMemo, accountID int64, excludeLinks, summaryAll bool) []restv2.Application {
	apps := make([]restv2.Application, 0, len(p.apps))
	arena := newAppArena(len(p.apps))
	arena.hosts = hosts
	for _, f := range p.apps {
		id := appIDOf(f)
		b, hasBrowser := p.browsers[id]
		var bp *browserInfo
		if hasBrowser {
			bp = &b
		}
		apps = append(apps, buildApplication(f, accountID, bp, p.inventory[id], excludeLinks, summaryAll, arena))
	}
	return apps
}

// ShowApplication answers GET /v2/applications/{id}, from the caller's entity cache
// for EntityTTL (the document is then shared by the requests it answers, read only,
// with its rendered bytes). A write to the account through the gateway retires the
// entries of every caller of that account (accountWrites).
func (t *Translator) ShowApplication(ctx context.Context, c Caller, id int64) (*restv2.ApplicationShow, error) {
	var key string
	if t.st.Entities != nil {
		gen := t.st.Writes.Gen(c.AccountID)
		key = t.appEntityKeyAt(c, id, gen)
		if v, ok := vouchedGetGen(ctx, t.st.Entities, key, state.Read{Account: c.AccountID, Gen: gen, Genned: true}, time.Time{}); ok {
			return v.(*restv2.ApplicationShow), nil
		}
	}
	a, _, capped, err := t.readApplication(ctx, c, id)
	if err != nil {
		return nil, err
	}
	doc := &restv2.ApplicationShow{Application: *a}
	if t.st.Entities != nil && !capped { // a capped answer is read again, and declared, each time
		doc.Share()
		t.st.Entities.Set(key, doc)
	}
	return doc, nil
}

func (t *Translator) appEntityKey(c Caller, id int64) string {
	return t.appEntityKeyAt(c, id, t.st.Writes.Gen(c.AccountID))
}

// appEntityKeyAt is appEntityKey with the account's write count read by the caller;
// the key ends with the summary's reading (showReading).
func (t *Translator) appEntityKeyAt(c Caller, id int64, gen uint64) string {
	var b [20]byte
	return c.cacheKeyAt("application", scopedGen(gen), string(strconv.AppendInt(b[:0], id, 10)), t.showReading)
}

// wroteAccount retires the cached application reads of every caller of c's account
// after a write through the gateway (also after a failed one: it may have half applied).
func (t *Translator) wroteAccount(c Caller) { t.st.Writes.Bump(c.AccountID) }

// ErrApplicationNotFound is REST v2's 404 for application ids it does not know.
func ErrApplicationNotFound() *restv2.Error {
	return restv2.NotFound("No Application found with the given ID")
}

func (t *Translator) application(ctx context.Context, c Caller, id int64) (*restv2.Application, error) {
	a, _, err := t.applicationWithBrowser(ctx, c, id)
	return a, err
}

// applicationWithBrowser also returns the injected browser application, if any.
func (t *Translator) applicationWithBrowser(ctx context.Context, c Caller, id int64) (*restv2.Application, *browserInfo, error) {
	a, b, _, err := t.readApplication(ctx, c, id)
	return a, b, err
}

// readApplication is applicationWithBrowser, and whether the application's inventory
// filled uniques() (MaxUniques or more hosts or agent instances in the inventory
// window: its links are the first ones met; noted on ctx).
func (t *Translator) readApplication(ctx context.Context, c Caller, id int64) (*restv2.Application, *browserInfo, bool, error) {
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
	a := buildApplication(ent, c.AccountID, browser, invMap[id], false, t.summaryAll, nil)
	return &a, browser, capped || len(lost) > 0, nil
}
