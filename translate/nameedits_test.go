package translate

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// writesFake is NerdGraph for nameFake's applications (the name index's reads and the
// equality look-ups) and, through appFake, PUT and DELETE of application 7; a rename or
// delete that NerdGraph applies changes nameFake's list too.
func writesFake(apps []fakeApp) (*nameFake, *appFake) {
	f := newNameFake(apps)
	a := newAppFake()
	a.name = apps[6].name
	names := f.answer
	f.answer = func(op string, vars map[string]any) (any, error) {
		switch op {
		case "AppShow", "AppUpdate", "AppDelete":
			out, err := a.answer(op, vars)
			if err != nil {
				return out, err
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			apm, _ := vars["apmSettings"].(map[string]any)
			if alias, ok := apm["alias"].(string); ok && op == "AppUpdate" {
				a.name, f.apps[6].name = alias, alias
			}
			if op == "AppDelete" {
				a.missing = true
				f.apps = slices.DeleteFunc(f.apps, func(x fakeApp) bool { return x.id == 7 })
			}
			return out, nil
		}
		return names(op, vars)
	}
	return f, a
}

// Two replicas on one store: a write through one edits the writer's name index in
// place, here and in the store, and the other replica, once the fleet's write count
// reaches it, serves the edited index from the store: a rename is found by a fragment
// of its new name and a delete is gone on both, with no page of the account read
// again, before or behind the lookups. A write whose outcome is unknown edits nothing,
// and the index is then read again behind the lookups, as for a write made elsewhere.
func TestWritesEditNameIndexInPlace(t *testing.T) {
	m := miniredis.RunT(t)
	ctx := context.Background()
	c := Caller{KeyHash: "k", AccountID: 1}
	fleetStore(t, m).KeyAccepted(ctx, "k", time.Hour)
	f, app := writesFake(manyApps(450))
	a := New(f, Options{SharedCache: fleetStore(t, m)})
	b := New(f, Options{SharedCache: fleetStore(t, m)})
	lookup := func(tr *Translator, name string) []int64 {
		t.Helper()
		ids, err := tr.indexedMatches(ctx, c, "", AppListRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		a.index.waitRefreshes()
		b.index.waitRefreshes()
		return ids
	}
	lookup(a, "app-00007")
	lookup(b, "app-00007")
	steps := []struct {
		name  string
		write func() error
		// each lookup is made on both replicas, and finds want
		lookup string
		want   []int64
		pages  int // whole-search pages read in all, behind the lookups too
	}{
		{"rename", func() error {
			_, err := a.UpdateApplication(ctx, c, 7, AppUpdateInput{Name: sptr("Checkout Seven")})
			return err
		}, "out sev", []int64{7}, 0},
		{"the old name is gone", nil, "app-00007", nil, 0},
		{"a setting, no name", func() error {
			_, err := a.UpdateApplication(ctx, c, 7, AppUpdateInput{AppApdexThreshold: f64(0.9)})
			return err
		}, "checkout", []int64{7}, 0},
		{"delete", func() error {
			_, err := a.DeleteApplication(ctx, c, 7)
			return err
		}, "checkout", nil, 0},
		{"an outcome unknown", func() error {
			app.missing = false
			app.update = func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindTimeout} }
			_, err := a.UpdateApplication(ctx, c, 7, AppUpdateInput{Name: sptr("Checkout Eight")})
			if err == nil {
				return fmt.Errorf("update answered despite its timeout")
			}
			return nil
		}, "app-0000", []int64{1, 2, 3, 4, 5, 6, 8, 9}, indexPages(449)},
	}
	for _, s := range steps {
		if s.write != nil {
			if err := s.write(); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			b.writes.Raise(c.AccountID, a.writes.Gen(c.AccountID)) // the fleet's write count
		}
		before := fullReads(f)
		for i, tr := range []*Translator{a, b} {
			if got := lookup(tr, s.lookup); !slices.Equal(got, s.want) {
				t.Errorf("%s: replica %d found %v for %q, want %v", s.name, i, got, s.lookup, s.want)
			}
		}
		if n := fullReads(f) - before; n != s.pages {
			t.Errorf("%s: %d pages of the account read, want %d", s.name, n, s.pages)
		}
	}
}

// An edit puts a renamed entry where the index's order (name without case, name, guid)
// has it, and a removal keeps the rest in order; the slice served before is untouched.
func TestEditEntriesKeepsOrder(t *testing.T) {
	es := []nameEntry{{id: 1, name: "alpha"}, {id: 2, name: "Beta"}, {id: 3, name: "delta"}}
	tests := []struct {
		name string
		edit nameEdit
		want []int64
	}{
		{"rename to the end", nameEdit{entry: nameEntry{id: 1, name: "zulu"}}, []int64{2, 3, 1}},
		{"rename between, case aside", nameEdit{entry: nameEntry{id: 3, name: "BRAVO"}}, []int64{1, 2, 3}},
		{"rename to the front", nameEdit{entry: nameEntry{id: 3, name: "Aardvark"}}, []int64{3, 1, 2}},
		{"a new entry", nameEdit{entry: nameEntry{id: 4, name: "charlie"}}, []int64{1, 2, 4, 3}},
		{"remove", nameEdit{entry: nameEntry{id: 2}, removed: true}, []int64{1, 3}},
		{"remove what is not there", nameEdit{entry: nameEntry{id: 9}, removed: true}, []int64{1, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := entryIDs(editEntries(es, 1, tc.edit))
			if !slices.Equal(got, tc.want) {
				t.Errorf("%v, want %v", got, tc.want)
			}
			if !slices.Equal(entryIDs(es), []int64{1, 2, 3}) {
				t.Errorf("the served slice changed: %v", entryIDs(es))
			}
		})
	}
}
