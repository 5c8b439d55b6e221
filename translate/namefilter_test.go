package translate

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The name pass is chosen for an account known to be large: its account-wide inventory
// was found cut (manyApps) or a search counted more applications than it reads
// (accountInventoryApps).
func TestLargeAccount(t *testing.T) {
	tests := []struct {
		name  string
		many  bool
		count int
		want  bool
	}{
		{"unknown", false, 0, false},
		{"a page", false, 200, false},
		{"at the inventory's LIMIT", false, accountInventoryApps, false},
		{"past it", false, accountInventoryApps + 1, true},
		{"inventory cut", true, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(nil, Options{})
			c := Caller{KeyHash: "k", AccountID: 1}
			if tt.many {
				tr.cursors.Set(c.cacheKey("apps-many"), true)
			}
			tr.noteAppCount(c, tt.count)
			if got := tr.largeAccount(c); got != tt.want {
				t.Errorf("largeAccount = %v, want %v", got, tt.want)
			}
			if other := (Caller{KeyHash: "k", AccountID: 2}); tr.largeAccount(other) {
				t.Error("another account is large too")
			}
		})
	}
}

// name_filter: like (Options.NameLike) puts `name LIKE` into the name pass's search,
// applies REST's exact match to what it returns, reads the page's applications by id
// (2 round trips) and declares CapNameLike; off, or for a name the search language
// cannot carry, or without filter[name], no query holds LIKE and nothing is declared.
func TestNameLike(t *testing.T) {
	tests := []struct {
		name     string
		like     bool
		req      AppListRequest
		wantLike string // the clause every AppNamePage query holds ("": no query holds LIKE)
		wantIDs  []int64
		wantRTs  int
	}{
		{"narrowed, then REST's match", true, AppListRequest{Name: "LPHA-"}, "name LIKE 'LPHA-'", []int64{2, 4, 6, 8, 10}, 2},
		{"quoted", true, AppListRequest{Name: "o'k"}, `name LIKE 'o\'k'`, nil, 1},
		{"off", false, AppListRequest{Name: "LPHA-"}, "", []int64{2, 4, 6, 8, 10}, 1},
		{"control character", true, AppListRequest{Name: "a\x01"}, "", nil, 1},
		{"language only", true, AppListRequest{Language: "JAVA"}, "", []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := appsFake(10)
			all := f.answer
			f.answer = func(op string, vars map[string]any) (any, error) {
				if op != "AppNamePage" {
					return all(op, vars)
				}
				// A superset of every filter: the whole account (LIKE's match is
				// NerdGraph's; REST's exact match must still be applied).
				var es []map[string]any
				for i := 1; i <= 10; i++ {
					name := "beta-" + strconv.Itoa(i)
					if i%2 == 0 {
						name = "Alpha-" + strconv.Itoa(i)
					}
					es = append(es, map[string]any{"__typename": "ApmApplicationEntityOutline",
						"guid": AppGUID(1, DomainAPM, int64(i)), "name": name, "language": "java"})
				}
				return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
					"results": map[string]any{"entities": es}}}}, nil
			}
			tr := New(f, Options{NameLike: tt.like, Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }})
			var notes Notes
			l, _, err := tr.ListApplications(WithNotes(context.Background(), &notes), Caller{KeyHash: "k", AccountID: 1}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, a := range l.Applications {
				ids = append(ids, a.ID)
			}
			if !slices.Equal(ids, tt.wantIDs) {
				t.Errorf("ids %v, want %v", ids, tt.wantIDs)
			}
			if got := f.count(""); got != tt.wantRTs {
				t.Errorf("%d round trips, want %d", got, tt.wantRTs)
			}
			for _, c := range f.calls {
				q, _ := c.vars["query"].(string)
				switch {
				case c.op == "AppNamePage" && tt.wantLike != "" && !strings.Contains(q, " AND "+tt.wantLike):
					t.Errorf("AppNamePage query %q lacks %q", q, tt.wantLike)
				case c.op != "AppNamePage" && strings.Contains(q, "LIKE"), tt.wantLike == "" && strings.Contains(q, "LIKE"):
					t.Errorf("%s query %q holds LIKE", c.op, q)
				}
			}
			if declared := slices.Contains(notes.Caps(), CapNameLike); declared != (tt.wantLike != "") {
				t.Errorf("caps %q", notes.Caps())
			}
		})
	}
}
