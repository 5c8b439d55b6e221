package e2e

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/graphql/sim"
)

// filter[name] (and filter[language]) answer from a name pass that reads only names
// (translate/namefilter.go) and then the page's applications by id: every filtered
// list must hold exactly the applications, objects and order that REST's match (a
// case-insensitive substring; the language equal ignoring case) keeps from the full
// unfiltered list, whatever the filter's case, script or punctuation.
func TestNameFilterMatchesFullRead(t *testing.T) {
	e := newEnv(t)
	// readAll follows rel="next" from path and returns every application of every page.
	readAll := func(t *testing.T, path string) []nfApp {
		t.Helper()
		var out []nfApp
		for next, n := path, 0; next != ""; n++ {
			r := e.get(t, next, key1)
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
	all := readAll(t, "/v2/applications.json")
	if len(all) <= 200 {
		t.Fatalf("the demo account lists %d applications; the test wants more than a page", len(all))
	}
	tests := []struct{ name, language string }{
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
	}
	for _, tt := range tests {
		t.Run(tt.name+"|"+tt.language, func(t *testing.T) {
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
			got := readAll(t, "/v2/applications.json?"+q.Encode())
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

// The name pass reads only names (AppNamePage: guid, name, language), never the full
// outlines of the whole account (AppSearchPage), and then the page's applications by
// id with their inventory in one AppList; the next page reads only its applications,
// and a page read before comes from the list cache.
func TestNameFilterReadsNamesOnly(t *testing.T) {
	l, err := sim.ParseScale("apps=1000,hosts=1,names=10")
	if err != nil {
		t.Fatal(err)
	}
	e := newCapsEnv(t, l)
	e.get(t, "/v2/applications.json", keyLarge) // the key's account, out of the counts
	tests := []struct {
		name  string
		path  string
		ops   map[string]int64
		items int
	}{
		// 1000 applications: 5 name pages; 10 matches (team007), one page of them.
		{"first page", "/v2/applications.json?filter[name]=team007", map[string]int64{"AppNamePage": 5, "AppList": 1}, 10},
		{"again", "/v2/applications.json?filter[name]=team007", map[string]int64{}, 10},
		// Every application matches: the names are kept, page 2 reads its 200 by id.
		{"all, page 1", "/v2/applications.json?filter[name]=LARGE-APP", map[string]int64{"AppNamePage": 5, "AppList": 1}, 200},
		{"all, page 2", "/v2/applications.json?filter[name]=LARGE-APP&page=2", map[string]int64{"AppList": 1}, 200},
		{"all, page 6", "/v2/applications.json?filter[name]=LARGE-APP&page=6", map[string]int64{}, 0},
	}
	for _, tt := range tests {
		before := e.sim.RequestsByOperation()
		r := e.get(t, tt.path, keyLarge)
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
		if n := strings.Count(string(r.body), `"id":`); n != tt.items {
			t.Errorf("%s: %d applications, want %d", tt.name, n, tt.items)
		}
	}
}
