package translate

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
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
	ctx, c := context.Background(), acceptedCaller(t, m)
	f, app := writesFake(manyApps(450))
	a := New(f, Options{SharedCache: fleetStore(t, m)})
	b := New(f, Options{SharedCache: fleetStore(t, m)})
	lookup := func(tr *Translator, name string) []int64 {
		t.Helper()
		ids, err := tr.indexedMatches(ctx, c, "", AppListRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		a.index.WaitRefreshes()
		b.index.WaitRefreshes()
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
			_, err := a.UpdateApplication(ctx, c, 7, restv2.ApplicationUpdate{Name: sptr("Checkout Seven")})
			return err
		}, "out sev", []int64{7}, 0},
		{"the old name is gone", nil, "app-00007", nil, 0},
		{"a setting, no name", func() error {
			_, err := a.UpdateApplication(ctx, c, 7, restv2.ApplicationUpdate{AppApdexThreshold: f64(0.9)})
			return err
		}, "checkout", []int64{7}, 0},
		{"delete", func() error {
			_, err := a.DeleteApplication(ctx, c, 7)
			return err
		}, "checkout", nil, 0},
		{"an outcome unknown", func() error {
			app.missing = false
			app.update = func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindTimeout} }
			_, err := a.UpdateApplication(ctx, c, 7, restv2.ApplicationUpdate{Name: sptr("Checkout Eight")})
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
			b.st.Writes.Raise(c.AccountID, a.st.Writes.Gen(c.AccountID)) // the fleet's write count
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

// A replica that has not yet heard of a write another replica made (its write count
// behind the fleet's) serves the writer's edited index from the store as it is: the
// index already holds that write, so nothing reads the account again, before or behind
// the lookup.
func TestIndexAheadOfReplicasCountNotReadAgain(t *testing.T) {
	m := miniredis.RunT(t)
	ctx, c := context.Background(), acceptedCaller(t, m)
	f, _ := writesFake(manyApps(450))
	a := New(f, Options{SharedCache: fleetStore(t, m)})
	if _, err := a.indexedMatches(ctx, c, "", AppListRequest{Name: "app-00007"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UpdateApplication(ctx, c, 7, restv2.ApplicationUpdate{Name: sptr("Checkout Seven")}); err != nil {
		t.Fatal(err)
	}
	a.index.WaitRefreshes()
	late := New(f, Options{SharedCache: fleetStore(t, m)})
	before := fullReads(f)
	ids, err := late.indexedMatches(ctx, c, "", AppListRequest{Name: "out sev"})
	late.index.WaitRefreshes()
	if err != nil || !slices.Equal(ids, []int64{7}) {
		t.Fatalf("lookup of the new name: %v, %v; want [7]", ids, err)
	}
	if n := fullReads(f) - before; n != 0 {
		t.Errorf("%d pages of the account read for an index that holds the write", n)
	}
}

// acceptedCaller is a caller whose key the fleet on m has accepted.
func acceptedCaller(t *testing.T, m *miniredis.Miniredis) Caller {
	t.Helper()
	fleetStore(t, m).KeyAccepted(context.Background(), "k", time.Hour)
	return Caller{KeyHash: "k", AccountID: 1}
}
