package translate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/nameindex"
)

// REST v2's filter[name] on GET /v2/applications is a case-insensitive substring match.
// It is not pushed into the entity search: the only partial name match there, name LIKE, is documented as a
// fuzzy, token match ("Special characters (.,;:*-_) are treated as whitespace. For
// example, name LIKE ':aws:' will match -aws. or foo aws.": the argument documentation
// of Actor.entitySearch(query:), as generated from NerdGraph's introspection in
// dynovaio/newrelic-sb-sdk src/newrelic_sb_sdk/graphql/objects.py @ 4891baaa), and
// nothing published shows it matching a fragment inside a word (docs/performance.md,
// "filter[name]", holds the evidence table). Sending name LIKE would drop
// applications REST lists; so the whole (language-filtered) search is read, but only
// the fields the exact match needs.
//
// An operator may choose otherwise for their account (name_filter: like,
// Options.NameLike): the search then carries `name LIKE` and the name pass reads only
// what it returns, REST's exact match still applied, and every such answer declares
// CapNameLike. `v2bridge verify` against a gateway so configured sends filter[name]
// probes cut from the account's own names (a fragment inside a word, the other case,
// a fragment across a separator; gateway/verify nameProbes) and reports an application
// LIKE left out as missing_in_translation: evidence for that account, not for
// NerdGraph, so the default stays read.

// largeAccount is whether the name pass costs a filtered list no more round trips than
// the full read: the account is known (for CursorTTL) to exceed its account-wide
// inventory (manyApps), or an earlier search counted more applications than that
// inventory reads (accountInventoryApps, noteAppCount): so it is cut when they report,
// or it timed out, which leaves manyApps unknown and the full read's answer without
// links; or this replica holds the account's name index (heldIndex).
func (t *Translator) largeAccount(c Caller) bool {
	if t.manyApps(c) {
		return true
	}
	if _, ok := t.st.Cursors.Get(c.cacheKey("apps-large")); ok {
		return true
	}
	return t.heldIndex(c)
}

// heldIndex reports whether this replica holds a servable name index of c's account:
// one is read only for a large account, and it outlives CursorTTL's marks, so a lookup
// past the refresh age costs its page alone, not a count of the account first.
func (t *Translator) heldIndex(c Caller) bool {
	return t.index.Holds(c.indexCaller())
}

// knowAccountSize answers largeAccount for c's account before a name or language
// filter chooses its path: an account neither known to be large nor counted within
// CursorTTL is counted first (AppCursor: the whole search's count and no entity, 1
// round trip). Without it the filter's first page reads the account-wide inventory to
// find the account large: an NRQL query over every instance of the account, slowest on
// the accounts it then does not serve. The answer is the one largeAccount gives after
// it, read once.
func (t *Translator) knowAccountSize(ctx context.Context, c Caller) (bool, error) {
	if t.largeAccount(c) {
		return true, nil
	}
	if _, ok := t.st.Cursors.Get(c.cacheKey("apps-counted")); ok {
		return false, nil
	}
	query, err := EntitySearch(c.AccountID, DomainAPM, TypeApp).Build()
	if err != nil {
		return false, err
	}
	resp, err := ng.AppCursor(ctx, t.client, query, nil)
	if err != nil {
		return false, fmt.Errorf("application count: %w", err)
	}
	if n := resp.GetActor().GetEntitySearch().GetCount(); n != nil {
		t.noteAccountCount(c, *n)
	}
	return t.largeAccount(c), nil
}

// noteAccountCount records the count of the account's whole application search (a
// count read, or an unfiltered list page) for largeAccount and knowAccountSize.
func (t *Translator) noteAccountCount(c Caller, count int) {
	t.noteAppCount(c, count)
	t.st.Cursors.Set(c.cacheKey("apps-counted"), true)
}

// noteAppCount records an application search's count (appListPage) for largeAccount.
func (t *Translator) noteAppCount(c Caller, count int) {
	if count > accountInventoryApps {
		t.st.Cursors.Set(c.cacheKey("apps-large"), true)
	}
}

// listMatched serves filter[name] and filter[language] without filter[host] on an
// account known to hold more applications than its account-wide inventory serves
// (largeAccount): the matching REST ids come from the account's name index (nameindex;
// with name_filter: like, from a name pass over the LIKE-narrowed search), kept for
// ListTTL; each page then reads its applications by id in one round trip (AppList with
// the inventory scoped to the ids, as filter[ids]), kept for ListTTL too. On a smaller
// account listFiltered's first page carries the inventory, so it is not used there. The
// host filter needs every application's inventory and stays in listFiltered.
func (t *Translator) listMatched(ctx context.Context, c Caller, query string, r AppListRequest) (*restv2.ApplicationList, Paging, error) {
	key := t.writeScoped(c, "apps-matched", query, strings.ToLower(r.Name), strings.ToLower(r.Language))
	ids, err := t.matchingApps(ctx, c, key, query, r)
	if err != nil {
		return nil, Paging{}, err
	}
	last := max((len(ids)+PageSize-1)/PageSize, 1)
	paging := Paging{Page: r.Page, Last: last, HasNext: r.Page < last}
	lo := min((r.Page-1)*PageSize, len(ids))
	hi := min(lo+PageSize, len(ids))
	if lo == hi {
		return &restv2.ApplicationList{ExcludeLinks: r.ExcludeLinks}, paging, nil
	}
	pageKey := key + "|page=" + strconv.Itoa(r.Page)
	var f filteredApps
	if v, ok := t.st.Lists.Get(pageKey); ok {
		f = v.(filteredApps)
		noteCaps(ctx, f.caps)
	} else {
		f, err = t.appsByID(ctx, c, ids[lo:hi], r)
		if err != nil {
			return nil, Paging{}, err
		}
		t.st.Lists.Set(pageKey, f)
	}
	apps := slices.Clone(f.apps)
	if r.ExcludeLinks {
		for i := range apps {
			apps[i].Links = nil
		}
	}
	return &restv2.ApplicationList{Applications: apps, ExcludeLinks: r.ExcludeLinks}, paging, nil
}

// matchingApps is the name pass: the REST ids of the account's applications that
// r's name and language filters accept, in the search's order (by name). They are
// kept for ListTTL in the name_matches cache, which a fleet shares
// (store.shared_cache). Without name_filter: like they come from the account's name
// index (translate/nameindex), so a name not asked before costs no round trip once the index is
// read; a name no application of the index bears exactly is looked up once more by
// equality, for an application created or renamed since the index was read.
func (t *Translator) matchingApps(ctx context.Context, c Caller, key, query string, r AppListRequest) ([]int64, error) {
	if v, ok := t.st.Matches.Get(key); ok {
		return v.([]int64), nil
	}
	var ids []int64
	var err error
	if t.nameLike {
		ids, err = t.namePass(ctx, query, r)
	} else {
		ids, err = t.indexedMatches(ctx, c, query, r)
	}
	if err != nil {
		return nil, err
	}
	t.st.Matches.Set(key, ids)
	return ids, nil
}

// namePass reads every page of query (nameindex.EachPage) and keeps the REST ids of
// the APM applications r accepts.
func (t *Translator) namePass(ctx context.Context, query string, r AppListRequest) ([]int64, error) {
	ids := []int64{}
	err := nameindex.EachPage(ctx, t.client, query, nil, appIDFrom, func(page []nameindex.App, _ bool) (bool, error) {
		for _, a := range page {
			if a.ID != 0 && r.matchesName(a.Name, a.Language) {
				ids = append(ids, a.ID)
			}
		}
		return true, nil
	})
	return ids, err
}

// indexedMatches is the name pass over the account's name index (translate/nameindex,
// entered once: Lookup), plus the equality look-up of r's name when no application of
// the index bears it exactly (an exact-name miss: an application created, or renamed to
// it, since the index was read; not when the index was read for this request), whose
// ids are merged in name order; an account past the index's cap
// (Options.NameIndexMaxApps) is matched by namePass over query instead.
func (t *Translator) indexedMatches(ctx context.Context, c Caller, query string, r AppListRequest) ([]int64, error) {
	res, err := t.index.Lookup(ctx, c.indexCaller(), t.st.Writes.Gen(c.AccountID), r.nameQuery())
	if errors.Is(err, nameindex.ErrTooLarge) {
		return t.namePass(ctx, query, r)
	}
	if err != nil {
		return nil, err
	}
	if res.Exact || res.ReadNow || r.Name == "" || !quotable(r.Name) {
		return nameindex.IDs(res.Matched), nil
	}
	q := EntitySearch(c.AccountID, DomainAPM, TypeApp).Eq("name", r.Name)
	if r.Language != "" {
		q.Eq("language", strings.ToLower(r.Language))
	}
	if len(r.IDs) > 0 {
		q.InInts("domainId", r.IDs)
	}
	eq, err := q.Build()
	if err != nil {
		return nameindex.IDs(res.Matched), nil // a name the search language cannot carry: the index's answer stands
	}
	found, err := t.namePass(ctx, eq, r)
	if err != nil {
		return nil, err
	}
	return mergeExact(res.Matched, found, r.Name), nil
}

// mergeExact puts the ids the equality look-up found (applications named name) that
// the index's matches lack among them in the search's order: before the first match
// whose name sorts after name (case-insensitively), the index's order kept.
func mergeExact(matched []nameindex.Entry, found []int64, name string) []int64 {
	ids := nameindex.IDs(matched)
	var fresh []int64
	for _, id := range found {
		if !slices.Contains(ids, id) && !slices.Contains(fresh, id) {
			fresh = append(fresh, id)
		}
	}
	if len(fresh) == 0 {
		return ids
	}
	lower := strings.ToLower(name)
	at := len(matched)
	for i, e := range matched {
		if strings.ToLower(e.Name) > lower {
			at = i
			break
		}
	}
	return slices.Insert(ids, at, fresh...)
}

// nameQuery is r's filter[name] and filter[language] (and filter[ids]) as the name
// index matches them.
func (r AppListRequest) nameQuery() nameindex.Query {
	return nameindex.Query{Name: r.Name, Language: r.Language, IDs: r.IDs}
}

// matchesName is REST's filter[name] (a case-insensitive substring) and
// filter[language] (case-insensitive equality) on an application's name and language.
func (r AppListRequest) matchesName(name, language string) bool {
	return r.nameQuery().Matches(name, language)
}

// appsByID reads the applications ids (at most a page) with their browser applications
// and inventory, in the order of ids; an application that no longer matches r (renamed
// since the name pass) is left out.
func (t *Translator) appsByID(ctx context.Context, c Caller, ids []int64, r AppListRequest) (filteredApps, error) {
	query, err := EntitySearch(c.AccountID, DomainAPM, TypeApp).InInts("domainId", ids).Build()
	if err != nil {
		return filteredApps{}, err
	}
	page, err := t.appListPage(ctx, c, query, nil, ids)
	if err != nil {
		return filteredApps{}, err
	}
	for next := page.next; next != nil; { // ids fit one page; read on if NerdGraph says otherwise
		resp, err := ng.AppSearchPage(ctx, t.client, query, next)
		if err != nil {
			return filteredApps{}, fmt.Errorf("application search: %w", err)
		}
		next = nil
		if res := resp.GetActor().GetEntitySearch().GetResults(); res != nil {
			page.addApps(res.Entities)
			next = res.NextCursor
		}
	}
	page.completeInventory(ctx, t, c)
	byID := map[int64]restv2.Application{}
	for _, a := range page.build(t.hostIDs, c.AccountID, false, t.summaryAll) {
		if r.matches(&a, nil) {
			byID[a.ID] = a
		}
	}
	apps := make([]restv2.Application, 0, len(ids))
	for _, id := range ids {
		if a, ok := byID[id]; ok {
			apps = append(apps, a)
		}
	}
	return filteredApps{apps: apps, caps: page.caps}, nil
}
