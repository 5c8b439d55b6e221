package translate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// partApp is one application of partitionFake's account; language "" is an entity without
// the language tag.
type partApp struct {
	guid, name, language string
	id                   int64 // 0: a guid without a REST id
}

// fakeNG is how partitionFake's NerdGraph departs from the entity search readNameIndex
// expects.
type fakeNG struct {
	rejectNotIn bool      // NOT IN is an invalid query
	desc        descOrder // what sortByWithDirection DESC gives
}

// descOrder is what a fake answers for sortByWithDirection [{attribute: NAME,
// direction: DESC}].
type descOrder int

const (
	descReverse  descOrder = iota // the exact reverse of the search's order
	descSame                      // not the reverse: the search's own order
	descRejected                  // an invalid-argument error
)

// fakeDescending is whether a name page's variables ask for the reverse of the
// search's order (sortByWithDirection [{attribute: NAME, direction: DESC}]) rather
// than the search's own (no sortByWithDirection); anything else is an error.
func fakeDescending(vars map[string]any) (bool, error) {
	s, ok := vars["sortByWithDirection"]
	if !ok {
		return false, nil
	}
	if want := []any{map[string]any{"attribute": "NAME", "direction": "DESC"}}; !reflect.DeepEqual(s, want) {
		return false, fmt.Errorf("fake: sortByWithDirection %v", s)
	}
	return true, nil
}

// partitionFake answers AppNamePage and AppCursor for one account's APM applications the way
// the entity search does for the clauses readNameIndex sends: no clause (the whole
// account), `language = 'x'` (without case) and `language NOT IN (...)`, which leaves
// out an entity without the tag; 200 entities a page, by name without case, name,
// guid, or in its reverse (or what ng.desc says).
func partitionFake(t *testing.T, apps []partApp, nerd fakeNG) *opFake {
	t.Helper()
	sorted := slices.Clone(apps)
	slices.SortFunc(sorted, func(a, b partApp) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), strings.Compare(a.name, b.name), strings.Compare(a.guid, b.guid))
	})
	scope, err := EntitySearch(1, DomainAPM, TypeApp).Build()
	if err != nil {
		t.Fatal(err)
	}
	match := func(q string) ([]partApp, error) {
		clause, ok := strings.CutPrefix(q, scope)
		if !ok {
			return nil, fmt.Errorf("fake: query %q not scoped to the account", q)
		}
		var keep func(a partApp) bool
		switch {
		case clause == "":
			keep = func(partApp) bool { return true }
		case strings.HasPrefix(clause, " AND language = '"):
			lang := strings.TrimSuffix(strings.TrimPrefix(clause, " AND language = '"), "'")
			keep = func(a partApp) bool { return strings.EqualFold(a.language, lang) }
		case strings.HasPrefix(clause, " AND language NOT IN ("):
			if nerd.rejectNotIn {
				return nil, &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "Invalid entity search query"}}}
			}
			list := strings.TrimSuffix(strings.TrimPrefix(clause, " AND language NOT IN ("), ")")
			var langs []string
			for _, l := range strings.Split(list, ", ") {
				langs = append(langs, strings.Trim(l, "'"))
			}
			keep = func(a partApp) bool { return a.language != "" && !slices.Contains(langs, a.language) }
		default:
			return nil, fmt.Errorf("fake: clause %q", clause)
		}
		var out []partApp
		for _, a := range sorted {
			if keep(a) {
				out = append(out, a)
			}
		}
		return out, nil
	}
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		q, _ := vars["query"].(string)
		all, err := match(q)
		if err != nil {
			return nil, err
		}
		switch op {
		case "AppCursor":
			return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
				"count": len(all), "results": map[string]any{"nextCursor": nil}}}}, nil
		case "AppNamePage":
			desc, err := fakeDescending(vars)
			switch {
			case err != nil:
				return nil, err
			case desc && nerd.desc == descRejected:
				return nil, &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: `Unknown argument "sortByWithDirection" on field "Actor.entitySearch".`}}}
			case desc && nerd.desc == descSame:
			case desc:
				all = slices.Clone(all)
				slices.Reverse(all)
			}
			k := 0
			if s, ok := vars["cursor"].(string); ok {
				k, _ = strconv.Atoi(strings.TrimPrefix(s, "c"))
			}
			var next any
			if (k+1)*200 < len(all) {
				next = "c" + strconv.Itoa(k+1)
			}
			es := []map[string]any{}
			for _, a := range all[min(k*200, len(all)):min((k+1)*200, len(all))] {
				es = append(es, map[string]any{"__typename": "ApmApplicationEntityOutline", "guid": a.guid, "name": a.name, "language": a.language})
			}
			return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
				"results": map[string]any{"nextCursor": next, "entities": es}}}}, nil
		}
		return nil, fmt.Errorf("fake: unexpected %s", op)
	}
	return f
}

// nameAccount is n applications whose languages are langs in turn (names with case
// variants and duplicates, so the order's ties are exercised).
func nameAccount(n int, langs ...string) []partApp {
	apps := make([]partApp, 0, n)
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("svc-%05d", i*7919%n)
		switch i % 5 {
		case 1:
			name = strings.ToUpper(name)
		case 2:
			name = "Svc-" + strconv.Itoa(i%50) // duplicates across languages
		}
		apps = append(apps, partApp{guid: AppGUID(1, DomainAPM, int64(i)), id: int64(i), name: name, language: langs[i%len(langs)]})
	}
	return apps
}

// sequentialIndex is the index the unpartitioned search gives: every application with
// a REST id, in the search's order.
func sequentialIndex(apps []partApp) []nameEntry {
	sorted := slices.Clone(apps)
	slices.SortFunc(sorted, func(a, b partApp) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), strings.Compare(a.name, b.name), strings.Compare(a.guid, b.guid))
	})
	var idx []nameEntry
	for _, a := range sorted {
		if a.id != 0 {
			idx = append(idx, nameEntry{ID: a.id, Name: a.name, Language: a.language})
		}
	}
	return idx
}

// namePagesByQuery is how many AppNamePage calls each search had, by query and order
// (" DESC" after the query for the reverse): the longest is the read's sequential
// depth (its searches run at once, each page after page).
func namePagesByQuery(f *opFake) map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	pages := map[string]int{}
	for _, c := range f.calls {
		if c.op == "AppNamePage" {
			q, _ := c.vars["query"].(string)
			if _, ok := c.vars["sortByWithDirection"]; ok {
				q += " DESC"
			}
			pages[q]++
		}
	}
	return pages
}

// The name index is read as one search per agent language and one for the rest, each
// from both ends, all at once, checked against the whole search's count: the result is
// the sequential read's (same entries, same order), and its sequential depth is half
// the largest language's pages, not the account's. When the partitions do not add up
// to the count (an entity without the language tag, which NOT IN leaves out; a reverse
// order that is not the exact reverse) or NerdGraph rejects NOT IN, the account is
// read again as one search and the index is still complete; when it rejects the
// reverse order, each partition is read from its start through.
func TestReadNameIndexPartitions(t *testing.T) {
	all := []string{"c", "dotnet", "go", "java", "nodejs", "php", "python", "ruby"}
	noTag := append(nameAccount(3000, all...), partApp{guid: AppGUID(1, DomainAPM, 99999), id: 99999, name: "untagged", language: ""})
	noID := append(nameAccount(3000, all...), partApp{guid: "not-a-guid", name: "no rest id", language: "java"})
	tests := []struct {
		name      string
		apps      []partApp
		nerd      fakeNG
		wantDepth int // the longest search's pages (an end's)
		wantFull  bool
	}{
		// 5,000 applications: 25 pages as one search; 625 a language, 4 pages each
		// from one end, 2 from each of two.
		{name: "eight languages", apps: nameAccount(5000, all...), wantDepth: 2},
		// Languages outside the list share the NOT IN partition: 2,500, 13 pages
		// from one end, 7 from each of two.
		{name: "other languages", apps: nameAccount(5000, "java", "elixir", "rust", "go"), wantDepth: 7},
		{name: "one language", apps: nameAccount(1000, "java"), wantDepth: 3},
		{name: "empty account", apps: nil, wantDepth: 1},
		// An entity without a REST id is counted (by guid), not indexed: no second read.
		{name: "entity without a REST id", apps: noID, wantDepth: 1},
		{name: "entity without the language tag", apps: noTag, wantDepth: 16, wantFull: true},
		{name: "NOT IN rejected", apps: nameAccount(3000, all...), nerd: fakeNG{rejectNotIn: true}, wantDepth: 15, wantFull: true},
		// The ends meet at once and miss most of the partition: the count says so.
		{name: "reverse order not the reverse", apps: nameAccount(1000, "java"), nerd: fakeNG{desc: descSame}, wantDepth: 5, wantFull: true},
		{name: "reverse order rejected", apps: nameAccount(1000, "java"), nerd: fakeNG{desc: descRejected}, wantDepth: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := partitionFake(t, tt.apps, tt.nerd)
			tr := New(f, Options{})
			got, err := tr.readNameIndex(context.Background(), Caller{KeyHash: "k", AccountID: 1})
			if err != nil {
				t.Fatal(err)
			}
			want := sequentialIndex(tt.apps)
			if !slices.Equal(got, want) {
				t.Fatalf("index of %d entries differs from the sequential read's %d", len(got), len(want))
			}
			pages := namePagesByQuery(f)
			depth := 0
			for _, n := range pages {
				depth = max(depth, n)
			}
			full, _ := EntitySearch(1, DomainAPM, TypeApp).Build()
			if _, read := pages[full]; read != tt.wantFull {
				t.Errorf("whole account read as one search: %v, want %v", read, tt.wantFull)
			}
			if depth != tt.wantDepth {
				t.Errorf("sequential depth %d pages, want %d (pages by search: %v)", depth, tt.wantDepth, pages)
			}
			if f.count("AppCursor") != 1 {
				t.Errorf("%d counts, want 1", f.count("AppCursor"))
			}
		})
	}
}

// A failed partition fails the read (NerdGraph down is not a reason to read the account
// again), and a request that ended stops every search before its next page.
func TestReadNameIndexErrors(t *testing.T) {
	tests := []struct {
		name   string
		fail   error
		cancel bool
	}{
		{name: "server error", fail: &ng.Error{Kind: ng.KindServer}},
		{name: "request ended", cancel: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := partitionFake(t, nameAccount(3000, "java", "go"), fakeNG{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			answer := f.answer
			f.answer = func(op string, vars map[string]any) (any, error) {
				if tt.cancel {
					cancel()
				}
				if q, _ := vars["query"].(string); tt.fail != nil && strings.HasSuffix(q, "'go'") {
					return nil, tt.fail
				}
				return answer(op, vars)
			}
			_, err := New(f, Options{}).readNameIndex(ctx, Caller{KeyHash: "k", AccountID: 1})
			switch {
			case err == nil:
				t.Fatal("no error")
			case tt.fail != nil && !errors.Is(err, tt.fail):
				t.Fatalf("error %v, want %v", err, tt.fail)
			case tt.cancel && !errors.Is(err, context.Canceled):
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if full, _ := EntitySearch(1, DomainAPM, TypeApp).Build(); namePagesByQuery(f)[full] != 0 {
				t.Error("the account was read again as one search")
			}
			if tt.cancel && f.count("AppNamePage") > 2*(len(nameLanguages())+1) {
				t.Errorf("%d pages after the request ended, want at most a first page an end", f.count("AppNamePage"))
			}
		})
	}
}
