package translate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

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
// guid, which is how the simulator orders a search (graphql/sim/store.go byName).
// NerdGraph documents its default order (sortBy NAME) no further; the sequential read
// is sorted the same way, so the index's order does not depend on the path that read
// it, and listMatched cuts its pages from it.

// nameLanguages are the partitions' languages: the APM agents NerdGraph names
// (AgentReleasesFilter: DOTNET, GO, JAVA, NODEJS, PHP, PYTHON, RUBY;
// schema/nerdgraph-full-2026-04-19.graphql.gz) in the lower case
// ApmApplicationEntity.language holds (`language === 'nodejs'`:
// newrelic/nr1-account-maturity src/rules/APM.js @
// 731ec63a69ff864cfc14e7e1358c479287f0065a), and "c" for the C SDK, which the
// simulator's data allow too. A value no application has costs an empty page from
// each end; any language not listed falls in the NOT IN partition.
func nameLanguages() []string {
	return []string{"c", "dotnet", "go", "java", "nodejs", "php", "python", "ruby"}
}

// nameReadsInFlight is the searches one index read has in flight: both ends of every
// partition at once (nameLanguages and the rest: 18; the ends of a partition wait for
// each other, so all must be), and the count beside them. That stays within
// NerdGraph's 25 concurrent requests a user (graphql.Options.MaxConcurrentPerKey
// queues any beyond it).
const nameReadsInFlight = 19

// maxNamePages caps the pages one search of the index reads: 200 entities a page, a
// million applications.
const maxNamePages = 5000

// errNamePages is a search that still had a next page after maxNamePages.
var errNamePages = errors.New("application names: more pages than the read allows")

// namedApp is one entity of a name search.
type namedApp struct {
	guid, name, lower, language string
	id                          int64 // 0: no REST id (not in the index, but counted)
	apm, reporting              bool
}

// readNameIndex reads the account's name index (see above): partitioned, verified by
// the search's count, or else as one search. An account of more applications than an
// index holds (Options.NameIndexMaxApps: its count, or a search reading past it) stops
// the read with errNameIndexTooLarge.
func (t *Translator) readNameIndex(ctx context.Context, c Caller) ([]nameEntry, error) {
	full, err := EntitySearch(c.AccountID, DomainAPM, TypeApp).Build()
	if err != nil {
		return nil, err
	}
	parts, err := namePartitions(c.AccountID)
	if err != nil {
		return nil, err
	}
	apps, ok, err := t.readNamePartitions(ctx, full, parts)
	if err != nil {
		return nil, err
	}
	if !ok {
		// Correctness first: the partitions did not account for the whole search.
		if apps, err = t.readNameSearch(ctx, full); err != nil {
			return nil, err
		}
	}
	return nameEntries(apps), nil
}

// namePartitions are the searches that together cover the account's APM applications:
// one per nameLanguages, then the rest.
func namePartitions(accountID int64) ([]string, error) {
	langs := nameLanguages()
	parts := make([]string, 0, len(langs)+1)
	for _, l := range langs {
		q, err := EntitySearch(accountID, DomainAPM, TypeApp).Eq("language", l).Build()
		if err != nil {
			return nil, err
		}
		parts = append(parts, q)
	}
	q, err := EntitySearch(accountID, DomainAPM, TypeApp).NotIn("language", langs).Build()
	if err != nil {
		return nil, err
	}
	return append(parts, q), nil
}

// readNamePartitions reads every partition from both ends (twoEnds) and full's count
// at once. ok is whether the partitions' distinct entities are exactly the count;
// false with a nil error also when NerdGraph rejected a partition's search.
func (t *Translator) readNamePartitions(ctx context.Context, full string, parts []string) (apps []namedApp, ok bool, err error) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(nameReadsInFlight)
	count := -1
	g.Go(func() error {
		resp, err := ng.AppCursor(gctx, t.client, full, nil)
		if err != nil {
			return fmt.Errorf("application count: %w", err)
		}
		if n := resp.GetActor().GetEntitySearch().GetCount(); n != nil {
			count = *n
		}
		if count > t.index.maxApps {
			return errNameIndexTooLarge // the partitions' reads end with it
		}
		return nil
	})
	found := make([][2][]namedApp, len(parts))
	for i, q := range parts {
		ends := newTwoEnds()
		g.Go(func() (err error) {
			defer ends.stop(fromStart)
			found[i][fromStart], err = t.readNamePages(gctx, q, nil, ends.meet(fromStart))
			return err
		})
		g.Go(func() (err error) {
			defer ends.stop(fromEnd)
			found[i][fromEnd], err = t.readNamePages(gctx, q, byNameDescending(), ends.meet(fromEnd))
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
				if !seen[a.guid] {
					seen[a.guid] = true
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
func (w *twoEnds) meet(end int) func(page []namedApp, last bool) bool {
	other := 1 - end
	return func(page []namedApp, last bool) bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.pages[end]++
		k := w.pages[end]
		for _, a := range page {
			if w.read[a.guid]&(1<<other) != 0 && w.metAt == 0 {
				w.metAt = k
			}
			w.read[a.guid] |= 1 << end
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

// readNameSearch reads every page of query with AppNamePage in the search's order.
func (t *Translator) readNameSearch(ctx context.Context, query string) ([]namedApp, error) {
	return t.readNamePages(ctx, query, nil, nil)
}

// readNamePages reads the pages of query in the order sort asks (eachNamePage) and
// returns its entities in that order (with an error, those read before it), no more
// than an index holds. It stops after a page more (when set) refuses, or at the
// search's end.
func (t *Translator) readNamePages(ctx context.Context, query string, sort []ng.SortCriterionWithDirection, more func(page []namedApp, last bool) bool) ([]namedApp, error) {
	var apps []namedApp
	err := t.eachNamePage(ctx, query, sort, func(page []namedApp, last bool) (bool, error) {
		n := len(apps)
		apps = append(apps, page...)
		if len(apps) > t.index.maxApps {
			return false, errNameIndexTooLarge
		}
		return more == nil || more(apps[n:], last), nil
	})
	return apps, err
}

// eachNamePage reads the pages of query with AppNamePage in the order sort asks (nil:
// the search's), checking the request's end before each, at most maxNamePages, and
// hands each page's entities to f (the slice is reused for the next page), which says
// whether to read on.
func (t *Translator) eachNamePage(ctx context.Context, query string, sort []ng.SortCriterionWithDirection, f func(page []namedApp, last bool) (bool, error)) error {
	var cursor *string
	page := make([]namedApp, 0, PageSize)
	for range maxNamePages {
		if err := ng.Stopped(ctx); err != nil {
			return fmt.Errorf("application names: %w", err)
		}
		resp, err := ng.AppNamePage(ctx, t.client, query, cursor, sort)
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
			a := namedApp{guid: e.GetGuid(), name: e.GetName(), language: e.GetLanguage(), apm: e.IsApmApplication(), reporting: e.Reporting}
			if a.apm {
				a.id = appIDOf(e)
			}
			page = append(page, a)
		}
		cursor = res.NextCursor
		if on, err := f(page, cursor == nil); err != nil || !on || cursor == nil {
			return err
		}
	}
	return errNamePages
}

// nameEntries is the index of apps: the APM applications with a REST id, ordered by
// name without case, name and guid, each language string shared.
func nameEntries(apps []namedApp) []nameEntry {
	for i := range apps {
		apps[i].lower = strings.ToLower(apps[i].name)
	}
	slices.SortFunc(apps, func(a, b namedApp) int {
		return cmp.Or(strings.Compare(a.lower, b.lower), strings.Compare(a.name, b.name), strings.Compare(a.guid, b.guid))
	})
	languages := map[string]string{}
	idx := make([]nameEntry, 0, len(apps))
	for _, a := range apps {
		if !a.apm || a.id == 0 {
			continue
		}
		lang, ok := languages[a.language]
		if !ok {
			lang = a.language
			languages[lang] = lang
		}
		idx = append(idx, nameEntry{id: a.id, name: a.name, language: lang, reporting: a.reporting})
	}
	return slices.Clip(idx)
}
