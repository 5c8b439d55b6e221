package e2e

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
)

// filter[name] (and filter[language]) on an account known to exceed its account-wide
// inventory answer from a name pass that reads only names (translate/namefilter.go)
// and then the page's applications by id; on a smaller one from a full read
// (listFiltered). Either way every filtered list must hold exactly the applications,
// objects and order that REST's match (a case-insensitive substring; the language
// equal ignoring case) keeps from the full unfiltered list, whatever the filter's
// case, script or punctuation.
func TestNameFilterMatchesFullRead(t *testing.T) {
	l, err := sim.ParseScale("apps=1000,hosts=3,names=10")
	if err != nil {
		t.Fatal(err)
	}
	e := newCapsEnv(t, l)
	// readAll follows rel="next" from path and returns every application of every page.
	readAll := func(t *testing.T, path, key string) []nfApp {
		t.Helper()
		var out []nfApp
		for next, n := path, 0; next != ""; n++ {
			r := e.get(t, next, key)
			if r.status != 200 {
				t.Fatalf("GET %s: %d %s", next, r.status, r.body)
			}
			if d := r.header.Get("X-V2bridge-Degraded"); d != "" {
				t.Fatalf("GET %s: degraded %q", next, d)
			}
			var body struct {
				Applications []json.RawMessage `json:"applications"`
			}
			if err := json.Unmarshal(r.body, &body); err != nil {
				t.Fatalf("GET %s: %v", next, err)
			}
			for _, raw := range body.Applications {
				var a struct {
					ID       int64  `json:"id"`
					Name     string `json:"name"`
					Language string `json:"language"`
				}
				if err := json.Unmarshal(raw, &a); err != nil {
					t.Fatal(err)
				}
				out = append(out, nfApp{a.ID, a.Name, a.Language, raw})
			}
			next = links(t, r.header)["next"]
			if n > 10 {
				t.Fatal("more than 10 pages")
			}
		}
		return out
	}
	type filter struct{ name, language string }
	accounts := []struct {
		key      string
		tests    []filter
		namePass bool
	}{
		{key1, []filter{
			{"e", ""}, // more than a page of matches
			{"E", ""},
			{"checkout", ""},
			{"CHECKOUT", ""},
			{"eckou", ""}, // a fragment inside a word
			{"out-s", ""}, // across a separator
			{"café", ""},
			{"CAFÉ", ""},
			{"ünï", ""},
			{"ÜNÏ", ""},
			{"日本", ""},
			{"ελληνικά", ""},
			{"🚀", ""},
			{" ", ""},
			{"-", ""},
			{".", ""},
			{"(nbsp)", ""},
			{"'", ""},
			{`\`, ""},
			{"%", ""},
			{"_", ""},
			{"no such application", ""},
			{"", "java"},
			{"e", "JAVA"},
			{"a", "ruby"},
		}, false},
		{keyLarge, []filter{
			{"e", ""}, // every application: five pages
			{"LARGE-APP-0042", ""},
			{"app-004", ""},
			{"p-00", ""},    // a fragment across a separator
			{"-TEAM00", ""}, // 10 teams: 100 applications
			{"eam07", ""},
			{"4-t", ""},
			{"large app", ""}, // a space is not a separator
			{"%", ""},
			{"_", ""},
			{"", "java"},
			{"team01", "JAVA"},
		}, true},
	}
	for _, acct := range accounts {
		all := readAll(t, "/v2/applications.json", acct.key)
		if len(all) <= 200 {
			t.Fatalf("%s lists %d applications; the test wants more than a page", acct.key, len(all))
		}
		first := true // a large account's name index is read by its first filter only
		for _, tt := range acct.tests {
			t.Run(acct.key+"|"+tt.name+"|"+tt.language, func(t *testing.T) {
				before := e.sim.RequestsByOperation()["AppNamePage"]
				var want []nfApp
				for _, a := range all {
					if strings.Contains(strings.ToLower(a.name), strings.ToLower(tt.name)) &&
						(tt.language == "" || strings.EqualFold(a.language, tt.language)) {
						want = append(want, a)
					}
				}
				q := url.Values{}
				if tt.name != "" {
					q.Set("filter[name]", tt.name)
				}
				if tt.language != "" {
					q.Set("filter[language]", tt.language)
				}
				got := readAll(t, "/v2/applications.json?"+q.Encode(), acct.key)
				// Later filters read the index; a name no application bears exactly is
				// looked up once more by equality (an application created since the index
				// was read).
				exact := slices.ContainsFunc(all, func(a nfApp) bool { return strings.EqualFold(a.name, tt.name) })
				wantPass := acct.namePass && (first || (!exact && tt.name != ""))
				first = false
				if pass := e.sim.RequestsByOperation()["AppNamePage"] > before; pass != wantPass {
					t.Errorf("filter %q: name pass %v, want %v", q.Encode(), pass, wantPass)
				}
				if !slices.EqualFunc(got, want, func(a, b nfApp) bool { return a.id == b.id }) {
					t.Fatalf("filter %q: %d applications %v, want %d %v", q.Encode(), len(got), nfIDs(got), len(want), nfIDs(want))
				}
				for i := range got {
					if !bytes.Equal(got[i].raw, want[i].raw) {
						t.Errorf("application %d differs from the unfiltered list's:\n got %s\nwant %s", got[i].id, got[i].raw, want[i].raw)
					}
				}
			})
		}
	}
}

// nfApp is one application of a list answer: its id, name and language, and its JSON.
type nfApp struct {
	id       int64
	name     string
	language string
	raw      json.RawMessage
}

func nfIDs(xs []nfApp) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = x.id
	}
	return out
}

// On an account whose account-wide inventory is known to be cut (manyApps), the name
// pass reads only names (AppNamePage: guid, name, language), never the full outlines
// of the whole account (AppSearchPage), and then the page's applications by id with
// their inventory in one AppList; the next page reads only its applications, and a
// page read before comes from the list cache. A smaller account keeps the full read,
// whose first page carries the inventory (a round trip fewer).
func TestNameFilterReadsNamesOnly(t *testing.T) {
	l, err := sim.ParseScale("apps=1000,hosts=3,names=10")
	if err != nil {
		t.Fatal(err)
	}
	e := newCapsEnv(t, l)
	// The key's account, and the account-wide inventory found cut: out of the counts.
	e.get(t, "/v2/applications.json", keyLarge)
	e.get(t, "/v2/applications.json", key1)
	tests := []struct {
		name  string
		key   string
		path  string
		ops   map[string]int64
		items int
	}{
		// The demo account: 264 applications, inventory under 5000 facets.
		{"small account", key1, "/v2/applications.json?filter[name]=checkout", map[string]int64{"AppList": 1, "AppSearchPage": 1}, -1},
		// 1000 applications: a name page from each end of each of the eight agent
		// languages and of the rest, beside the search's count (translate/nameindex/read.go);
		// 10 matches (team007), one page of them.
		{"first page", keyLarge, "/v2/applications.json?filter[name]=team007", map[string]int64{"AppNamePage": 18, "AppCursor": 1, "AppList": 1}, 10},
		{"again", keyLarge, "/v2/applications.json?filter[name]=team007", map[string]int64{}, 10},
		// Every application matches: the account's name index is read already (no
		// application is named LARGE-APP exactly: one equality look-up); page 2 reads
		// its 200 by id.
		{"all, page 1", keyLarge, "/v2/applications.json?filter[name]=LARGE-APP", map[string]int64{"AppNamePage": 1, "AppList": 1}, 200},
		{"all, page 2", keyLarge, "/v2/applications.json?filter[name]=LARGE-APP&page=2", map[string]int64{"AppList": 1}, 200},
		{"all, page 6", keyLarge, "/v2/applications.json?filter[name]=LARGE-APP&page=6", map[string]int64{}, 0},
	}
	for _, tt := range tests {
		before := e.sim.RequestsByOperation()
		r := e.get(t, tt.path, tt.key)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", tt.name, r.status, r.body)
		}
		got := map[string]int64{}
		for op, n := range e.sim.RequestsByOperation() {
			if d := n - before[op]; d != 0 {
				got[op] = d
			}
		}
		if !maps.Equal(got, tt.ops) {
			t.Errorf("%s: operations %v, want %v", tt.name, got, tt.ops)
		}
		if n := strings.Count(string(r.body), `"id":`); tt.items >= 0 && n != tt.items {
			t.Errorf("%s: %d applications, want %d", tt.name, n, tt.items)
		}
	}
}
