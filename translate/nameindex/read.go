package nameindex

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	gql "github.com/Khan/genqlient/graphql"
	"golang.org/x/sync/errgroup"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// An account's name index (nameIndex) is every APM application's REST id, name and
// language. Read as one search it costs a round trip per 200 applications, one after
// the other. readNameIndex reads it as disjoint searches instead, all at once, each
// page after page: one per APM agent language (`language = 'java'`, the clause
// filter[language] sends) and one for every other language (`language NOT IN (...)`).
// Its sequential depth is then the largest language's pages, not the account's; and
// each partition is read from both ends at once, in the search's order (sortBy NAME)
// and in its reverse (sortByWithDirection: [{attribute: NAME, direction: DESC}], the
// argument New Relic's CodeStream agent sends with ASC:
// TeamCodeStream/codestream shared/agent/src/providers/newrelic/entity/entityProvider.ts
// @ 1da8293b6925f33b1775cc735eb10fd4489ecb7c), the two ends stopping where they meet:
// half the largest language's pages.
//
// Correctness does not rest on how NerdGraph evaluates those clauses (the entity search
// tutorial documents =, IN, LIKE and AND; NOT IN is what New Relic's own nerdpacks send,
// SearchQuery.NotIn): beside the partitions' first pages the unpartitioned search's
// count is read (AppCursor), and unless the partitions returned exactly that many
// distinct entities (by guid, so that applications without a REST id count too) the
// account is read again as one search, page after page: an entity without the language
// tag that NOT IN leaves out, a language matched in two partitions, an application
// created or deleted meanwhile, or a reverse order that is not the exact reverse (the
// ends then meet early and miss entities). A partition NerdGraph rejects (KindInvalid)
// falls back the same way; a rejected reverse order only ends that end, and the other
// reads the partition through.
//
// The index is in the search's order: by name without case, then by name, then by
// guid, which is how the simulator orders a search (sim/store.go byName).
// NerdGraph documents its default order (sortBy NAME) no further; the sequential read
// is sorted the same way, so the index's order does not depend on the path that read
// it, and listMatched cuts its pages from it.

// Languages are the partitions' languages: the APM agents NerdGraph names
// (AgentReleasesFilter: DOTNET, GO, JAVA, NODEJS, PHP, PYTHON, RUBY;
// schema/nerdgraph-full-2026-04-19.graphql.gz) in the lower case
// ApmApplicationEntity.language holds (`language === 'nodejs'`:
// newrelic/nr1-account-maturity src/rules/APM.js @
// 731ec63a69ff864cfc14e7e1358c479287f0065a), and "c" for the C SDK, which the
// simulator's data allow too. A value no application has costs an empty page from
// each end; any language not listed falls in the NOT IN partition.
func Languages() []string {
	return []string{"c", "dotnet", "go", "java", "nodejs", "php", "python", "ruby"}
}

// ReadsInFlight is the searches one index read has in flight: both ends of every
// partition at once (nameLanguages and the rest: 18; the ends of a partition wait for
// each other, so all must be), and the count beside them. That stays within
// NerdGraph's 25 concurrent requests a user (graphql.Options.MaxConcurrentPerKey
// queues any beyond it).
const ReadsInFlight = 19

// MaxPages caps the pages one search of the index reads: 200 entities a page, a
// million applications.
const MaxPages = 5000

// pageSize is the entities of a search's page.
const pageSize = 200

// ErrPages is a search that still had a next page after MaxPages.
var ErrPages = errors.New("application names: more pages than the read allows")

// App is one entity of a name search.
type App struct {
	GUID, Name, Language string
	ID                   int64 // 0: no REST id (not in the index, but counted)
	APM, Reporting       bool
}

// Read reads c's account's name index from NerdGraph (see above), without keeping it:
// partitioned, verified by the search's count, or else as one search. An account of
// more applications than an index holds (Options.MaxApps: its count, or a search
// reading past it) stops the read with ErrTooLarge.
func (x *Indexes) Read(ctx context.Context, c Caller) ([]Entry, error) {
	full, err := x.opts.Query(c.AccountID, "", nil)
	if err != nil {
		return nil, err
	}
	parts, err := x.partitions(c.AccountID)
	if err != nil {
		return nil, err
	}
	apps, ok, err := x.readPartitions(ctx, full, parts)
	if err != nil {
		return nil, err
	}
	if !ok {
		// Correctness first: the partitions did not account for the whole search.
		if apps, err = x.readPages(ctx, full, nil, nil); err != nil {
			return nil, err
		}
	}
	return entries(apps), nil
}

// partitions are the searches that together cover the account's APM applications:
// one per Languages, then the rest.
func (x *Indexes) partitions(accountID int64) ([]string, error) {
	langs := Languages()
	parts := make([]string, 0, len(langs)+1)
	for _, l := range langs {
		q, err := x.opts.Query(accountID, l, nil)
		if err != nil {
			return nil, err
		}
		parts = append(parts, q)
	}
	q, err := x.opts.Query(accountID, "", langs)
	if err != nil {
		return nil, err
	}
	return append(parts, q), nil
}

// readPartitions reads every partition from both ends (twoEnds) and full's count
// at once. ok is whether the partitions' distinct entities are exactly the count;
// false with a nil error also when NerdGraph rejected a partition's search.
func (x *Indexes) readPartitions(ctx context.Context, full string, parts []string) (apps []App, ok bool, err error) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(ReadsInFlight)
	count := -1
	g.Go(func() error {
		resp, err := ng.AppCursor(gctx, x.opts.Client, full, nil)
		if err != nil {
			return fmt.Errorf("application count: %w", err)
		}
		if n := resp.GetActor().GetEntitySearch().GetCount(); n != nil {
			count = *n
		}
		if count > x.maxApps {
			return ErrTooLarge // the partitions' reads end with it
		}
		return nil
	})
	found := make([][2][]App, len(parts))
	for i, q := range parts {
		ends := newTwoEnds()
		g.Go(func() (err error) {
			defer ends.stop(fromStart)
			found[i][fromStart], err = x.readPages(gctx, q, nil, ends.meet(fromStart))
			return err
		})
		g.Go(func() (err error) {
			defer ends.stop(fromEnd)
			found[i][fromEnd], err = x.readPages(gctx, q, byNameDescending(), ends.meet(fromEnd))
			if nerr := (*ng.Error)(nil); errors.As(err, &nerr) && nerr.Kind == ng.KindInvalid {
				// No reverse order: this end keeps what it read, and the other end
				// reads on to it (the ends met there) or to the partition's end.
				return nil
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		var nerr *ng.Error
		if ng.Stopped(ctx) == nil && errors.As(err, &nerr) && nerr.Kind == ng.KindInvalid {
			return nil, false, nil // a search NerdGraph does not take: the sequential read
		}
		return nil, false, err
	}
	seen := make(map[string]bool, max(count, 0))
	for _, part := range found {
		for _, end := range part {
			for _, a := range end {
				if !seen[a.GUID] {
					seen[a.GUID] = true
					apps = append(apps, a)
				}
			}
		}
	}
	return apps, count >= 0 && len(seen) == count, nil
}

// byNameDescending is the reverse of a search's order (sortBy NAME).
func byNameDescending() []ng.SortCriterionWithDirection {
	name, desc := ng.EntitySearchSortCriteriaName, ng.SortByDesc
	return []ng.SortCriterionWithDirection{{Attribute: &name, Direction: &desc}}
}

// The ends of a search read from both ends at once (twoEnds).
const (
	fromStart = 0 // in the search's order
	fromEnd   = 1 // in its reverse
)

// twoEnds is where a search read from both ends at once stands. The ends go page for
// page: an end's page k waits for the other end's page k (or its stop), and both stop
// after the first round k whose pages, those of both ends up to k, hold an entity
// twice (the ends met), or in which an end read its last page. Where they stop does
// not depend on which answer came first, so neither do the pages read.
type twoEnds struct {
	mu      sync.Mutex
	turned  *sync.Cond       // signalled when an end records a page or stops
	read    map[string]uint8 // guid → the ends (bit 1<<end) that read it
	pages   [2]int           // pages each end recorded
	stopped [2]bool          // each end's reading ended (its last page, an error)
	metAt   int              // the round the ends met; 0: not yet
}

func newTwoEnds() *twoEnds {
	w := &twoEnds{read: map[string]uint8{}}
	w.turned = sync.NewCond(&w.mu)
	return w
}

// meet is end's check after each page (readNamePages' more): it records the page,
// waits for the other end's page of the same round, and tells end to go on while the
// ends have not met.
func (w *twoEnds) meet(end int) func(page []App, last bool) bool {
	other := 1 - end
	return func(page []App, last bool) bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.pages[end]++
		k := w.pages[end]
		for _, a := range page {
			if w.read[a.GUID]&(1<<other) != 0 && w.metAt == 0 {
				w.metAt = k
			}
			w.read[a.GUID] |= 1 << end
		}
		if last && w.metAt == 0 {
			w.metAt = k
		}
		w.turned.Broadcast()
		for !last && w.pages[other] < k && !w.stopped[other] {
			w.turned.Wait()
		}
		return w.metAt == 0 || w.metAt > k
	}
}

// stop records that end reads no further, so that the other end waits for it no more.
func (w *twoEnds) stop(end int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped[end] = true
	w.turned.Broadcast()
}

// readPages reads the pages of query in the order sort asks (EachPage) and
// returns its entities in that order (with an error, those read before it), no more
// than an index holds. It stops after a page more (when set) refuses, or at the
// search's end.
func (x *Indexes) readPages(ctx context.Context, query string, sort []ng.SortCriterionWithDirection, more func(page []App, last bool) bool) ([]App, error) {
	var apps []App
	err := EachPage(ctx, x.opts.Client, query, sort, x.opts.AppID, func(page []App, last bool) (bool, error) {
		n := len(apps)
		apps = append(apps, page...)
		if len(apps) > x.maxApps {
			return false, ErrTooLarge
		}
		return more == nil || more(apps[n:], last), nil
	})
	return apps, err
}

// EachPage reads the pages of query with AppNamePage in the order sort asks (nil: the
// search's), checking the request's end before each, at most MaxPages, and hands each
// page's entities to f (the slice is reused for the next page), which says whether to
// read on. appID is an APM application's REST id (its applicationId, else its guid's).
func EachPage(ctx context.Context, client gql.Client, query string, sort []ng.SortCriterionWithDirection,
	appID func(id int64, guid string) int64, f func(page []App, last bool) (bool, error)) error {
	var cursor *string
	page := make([]App, 0, pageSize)
	for range MaxPages {
		if err := ng.Stopped(ctx); err != nil {
			return fmt.Errorf("application names: %w", err)
		}
		resp, err := ng.AppNamePage(ctx, client, query, cursor, sort)
		if err != nil {
			return fmt.Errorf("application names: %w", err)
		}
		res := resp.GetActor().GetEntitySearch().GetResults()
		if res == nil {
			return nil
		}
		page = page[:0]
		for i := range res.Entities {
			e := &res.Entities[i]
			a := App{GUID: e.GetGuid(), Name: e.GetName(), Language: e.GetLanguage(), APM: e.IsApmApplication(), Reporting: e.Reporting}
			if a.APM {
				a.ID = appID(int64(e.GetApplicationId()), e.GetGuid())
			}
			page = append(page, a)
		}
		cursor = res.NextCursor
		if on, err := f(page, cursor == nil); err != nil || !on || cursor == nil {
			return err
		}
	}
	return ErrPages
}

// entries is the index of apps: the APM applications with a REST id, ordered by
// name without case, name and guid, each language string shared.
func entries(apps []App) []Entry {
	lower := make([]string, len(apps))
	for i := range apps {
		lower[i] = strings.ToLower(apps[i].Name)
	}
	order := make([]int, len(apps))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(strings.Compare(lower[a], lower[b]), strings.Compare(apps[a].Name, apps[b].Name), strings.Compare(apps[a].GUID, apps[b].GUID))
	})
	languages := map[string]string{}
	idx := make([]Entry, 0, len(apps))
	for _, i := range order {
		a := apps[i]
		if !a.APM || a.ID == 0 {
			continue
		}
		lang, ok := languages[a.Language]
		if !ok {
			lang = a.Language
			languages[lang] = lang
		}
		idx = append(idx, Entry{ID: a.ID, Name: a.Name, Language: lang, Reporting: a.Reporting})
	}
	return slices.Clip(idx)
}
