package sim_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
)

const searchQuery = `query($q: String, $cursor: String, $limit: Int) {
  actor { entitySearch(query: $q, options: {limit: $limit}) {
    count query
    results(cursor: $cursor) { nextCursor entities { guid name accountId domain type reporting alertSeverity } }
  } }
}`

type searchEntity struct {
	GUID          string
	Name          string
	AccountID     int
	Domain        string
	Type          string
	Reporting     bool
	AlertSeverity string
}

type searchOut struct {
	Actor struct {
		EntitySearch struct {
			Count   int
			Query   string
			Results struct {
				NextCursor *string
				Entities   []searchEntity
			}
		}
	}
}

func (h *harness) search(t *testing.T, key, q string, cursor *string) searchOut {
	t.Helper()
	var out searchOut
	vars := map[string]any{"q": q}
	if cursor != nil {
		vars["cursor"] = *cursor
	}
	h.mustQuery(t, key, searchQuery, vars, &out)
	return out
}

func count(d *sim.Data, account int, pred func(a sim.APMApplication) bool) int {
	n := 0
	for _, acct := range d.Accounts {
		if acct.ID != account && account != 0 {
			continue
		}
		for _, a := range acct.APMApplications {
			if pred(a) {
				n++
			}
		}
	}
	return n
}

func TestEntitySearchCounts(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	all := func(sim.APMApplication) bool { return true }
	hasBrowser := func(a sim.APMApplication) bool { return a.Browser != nil }
	const apm = "domain = 'APM' AND type = 'APPLICATION'"
	tests := []struct {
		name string
		key  string
		q    string
		want int
	}{
		{name: "account one", key: keyOne, q: apm + " AND accountId = 1000001", want: count(d, acctOne, all)},
		{name: "account two", key: keyTwo, q: apm, want: count(d, acctTwo, all)},
		{name: "multi key sees both", key: keyMulti, q: apm, want: count(d, 0, all)},
		{name: "multi key scoped by accountId", key: keyMulti, q: apm + " AND accountId = 1000002", want: count(d, acctTwo, all)},
		{name: "other account is never widened to", key: keyOne, q: apm + " AND accountId = 1000002", want: 0},
		{name: "OR cannot escape the key", key: keyOne, q: "accountId = 1000002 OR accountId = 1000001", want: count(d, acctOne, all) + count(d, acctOne, hasBrowser) + len(d.Accounts[0].MobileApplications) + len(d.Accounts[0].KeyTransactions)},
		{name: "browser applications", key: keyOne, q: "domain = 'BROWSER' AND type = 'APPLICATION' AND accountId = 1000001", want: count(d, acctOne, hasBrowser)},
		{name: "language tag", key: keyOne, q: apm + " AND language = 'java'", want: count(d, acctOne, func(a sim.APMApplication) bool { return a.Language == "java" })},
		{name: "dotted tag", key: keyOne, q: apm + " AND tags.language = 'go'", want: count(d, acctOne, func(a sim.APMApplication) bool { return a.Language == "go" })},
		{name: "backticked tag", key: keyOne, q: apm + " AND `tags.environment` = 'staging'", want: count(d, acctOne, func(a sim.APMApplication) bool { return a.Tags["environment"][0] == "staging" })},
		{name: "not reporting", key: keyOne, q: apm + " AND reporting = 'false'", want: count(d, acctOne, func(a sim.APMApplication) bool { return !a.Reporting })},
		{name: "severity IN", key: keyOne, q: apm + " AND alertSeverity IN ('CRITICAL', 'WARNING')", want: count(d, acctOne, func(a sim.APMApplication) bool {
			return a.AlertSeverity == "CRITICAL" || a.AlertSeverity == "WARNING"
		})},
		{name: "LIKE tokens", key: keyOne, q: apm + " AND name LIKE 'checkout service'", want: count(d, acctOne, func(a sim.APMApplication) bool {
			n := strings.ToLower(a.Name)
			return strings.Contains(n, "checkout") && strings.Contains(n, "service")
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := h.search(t, tt.key, tt.q, nil)
			if got := out.Actor.EntitySearch.Count; got != tt.want {
				t.Fatalf("count %d, want %d", got, tt.want)
			}
			if out.Actor.EntitySearch.Query != tt.q {
				t.Errorf("query echo %q", out.Actor.EntitySearch.Query)
			}
			if tt.want > 0 && tt.want <= 200 && len(out.Actor.EntitySearch.Results.Entities) != tt.want {
				t.Errorf("%d entities on the page, want %d", len(out.Actor.EntitySearch.Results.Entities), tt.want)
			}
		})
	}
	if count(d, acctOne, all) < 250 {
		t.Fatalf("account one has %d applications, want at least 250", count(d, acctOne, all))
	}
}

func TestEntitySearchPaging(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	const q = "domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001"
	first := h.search(t, keyOne, q, nil)
	total := first.Actor.EntitySearch.Count
	if want := len(apps(t, d, acctOne)); total != want || total <= 200 {
		t.Fatalf("count %d, want %d (> 200)", total, want)
	}
	page1 := first.Actor.EntitySearch.Results
	if len(page1.Entities) != 200 || page1.NextCursor == nil {
		t.Fatalf("page 1: %d entities, cursor %v", len(page1.Entities), page1.NextCursor)
	}
	second := h.search(t, keyOne, q, page1.NextCursor)
	page2 := second.Actor.EntitySearch.Results
	if len(page2.Entities) != total-200 || page2.NextCursor != nil || second.Actor.EntitySearch.Count != total {
		t.Fatalf("page 2: %d entities, cursor %v, count %d", len(page2.Entities), page2.NextCursor, second.Actor.EntitySearch.Count)
	}
	seen := map[string]bool{}
	all := append(page1.Entities, page2.Entities...)
	for i, e := range all {
		if seen[e.GUID] {
			t.Fatalf("guid %s on both pages", e.GUID)
		}
		seen[e.GUID] = true
		if i > 0 {
			prev := all[i-1]
			a, b := strings.ToLower(prev.Name), strings.ToLower(e.Name)
			if a > b || (a == b && prev.Name > e.Name) || (prev.Name == e.Name && prev.GUID > e.GUID) {
				t.Fatalf("not sorted by name: %q before %q", prev.Name, e.Name)
			}
		}
		if e.AccountID != acctOne || e.Domain != "APM" {
			t.Fatalf("entity %+v outside the query", e)
		}
	}

	t.Run("limit", func(t *testing.T) {
		var out searchOut
		h.mustQuery(t, keyOne, searchQuery, map[string]any{"q": q, "limit": 100}, &out)
		if n := len(out.Actor.EntitySearch.Results.Entities); n != 100 || out.Actor.EntitySearch.Results.NextCursor == nil {
			t.Fatalf("limit 100: %d entities", n)
		}
		h.mustQuery(t, keyOne, searchQuery, map[string]any{"q": q, "limit": 1000}, &out)
		if n := len(out.Actor.EntitySearch.Results.Entities); n != 200 {
			t.Fatalf("limit 1000: %d entities, want the 200 maximum", n)
		}
	})

	badCursors := map[string]string{
		"garbage":                 "not-a-cursor",
		"cursor of another query": *h.search(t, keyOne, "domain = 'APM'", nil).Actor.EntitySearch.Results.NextCursor,
		"cursor of another key":   *h.search(t, keyMulti, q, nil).Actor.EntitySearch.Results.NextCursor,
	}
	for name, c := range badCursors {
		t.Run(name, func(t *testing.T) {
			errs := h.query(t, keyOne, searchQuery, map[string]any{"q": q, "cursor": c}, nil)
			if !hasError(errs, "INVALID_INPUT", "Invalid cursor") {
				t.Fatalf("errors %+v, want an invalid cursor error", errs)
			}
		})
	}
}

func TestEntitySearchNames(t *testing.T) {
	h := demoHarness(t)
	quote := func(s string) string {
		r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
		return "'" + r.Replace(s) + "'"
	}
	tests := []struct {
		name string
		key  string
		want []int // account of each match
	}{
		{name: `x' OR accountId = 1000002 OR name LIKE 'a`, key: keyMulti, want: []int{acctOne}},
		{name: `x' OR accountId = 1000002 OR name LIKE 'a`, key: keyTwo},
		{name: "O'Reilly Books", key: keyMulti, want: []int{acctOne, acctTwo}},
		{name: "O'Reilly Books", key: keyOne, want: []int{acctOne}},
		{name: `The "Quoted" App`, key: keyOne, want: []int{acctOne}},
		{name: `C:\Services\Legacy Importer`, key: keyOne, want: []int{acctOne}},
		{name: `back\\slash\\pair`, key: keyOne, want: []int{acctOne}},
		{name: "Billing (EU)", key: keyOne, want: []int{acctOne}},
		{name: "Café Ünïcode", key: keyTwo, want: []int{acctTwo}},
		{name: "café ünïcode", key: keyTwo, want: []int{acctTwo}}, // = ignores case
		{name: "日本語アプリ", key: keyMulti, want: []int{acctOne, acctTwo}},
		{name: "Café", key: keyOne}, // = is exact, not LIKE
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.key, func(t *testing.T) {
			q := "domain = 'APM' AND name = " + quote(tt.name)
			out := h.search(t, tt.key, q, nil)
			var got []int
			for _, e := range out.Actor.EntitySearch.Results.Entities {
				if !strings.EqualFold(e.Name, tt.name) {
					t.Errorf("matched %q", e.Name)
				}
				got = append(got, e.AccountID)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) || out.Actor.EntitySearch.Count != len(tt.want) {
				t.Fatalf("matches in accounts %v (count %d), want %v", got, out.Actor.EntitySearch.Count, tt.want)
			}
		})
	}
}

// TestEntitySearchSortByNameDirection reads a search page after page (50 a page) in
// each sortByWithDirection the simulator takes: ASC is the search's own order, DESC its
// exact reverse.
func TestEntitySearchSortByNameDirection(t *testing.T) {
	h := demoHarness(t)
	const q = `query($cursor: String, $sort: [SortCriterionWithDirection]) {
  actor { entitySearch(query: "domain = 'APM'", sortByWithDirection: $sort, options: {limit: 50}) {
    results(cursor: $cursor) { nextCursor entities { guid } }
  } }
}`
	read := func(t *testing.T, sort any) []string {
		var guids []string
		var cursor any
		for range 100 {
			var out searchOut
			h.mustQuery(t, keyOne, q, map[string]any{"cursor": cursor, "sort": sort}, &out)
			for _, e := range out.Actor.EntitySearch.Results.Entities {
				guids = append(guids, e.GUID)
			}
			if out.Actor.EntitySearch.Results.NextCursor == nil {
				return guids
			}
			cursor = *out.Actor.EntitySearch.Results.NextCursor
		}
		t.Fatal("more than 100 pages")
		return nil
	}
	want := read(t, nil)
	if len(want) <= 50 {
		t.Fatalf("%d entities: want more than a page", len(want))
	}
	desc := slices.Clone(want)
	slices.Reverse(desc)
	tests := []struct {
		name string
		sort any
		want []string
	}{
		{"ASC", []map[string]any{{"attribute": "NAME", "direction": "ASC"}}, want},
		{"direction omitted", []map[string]any{{"attribute": "NAME"}}, want},
		{"DESC", []map[string]any{{"attribute": "NAME", "direction": "DESC"}}, desc},
		{"DESC, not a list", map[string]any{"attribute": "NAME", "direction": "DESC"}, desc},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := read(t, tt.sort); !slices.Equal(got, tt.want) {
				t.Errorf("%d entities %v…, want %d %v…", len(got), got[:min(3, len(got))], len(tt.want), tt.want[:3])
			}
		})
	}
}

func TestEntitySearchErrors(t *testing.T) {
	h := demoHarness(t)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		class string
		msg   string
	}{
		{name: "syntax error", query: searchQuery, vars: map[string]any{"q": "domain = 'APM' AND"}, class: "INVALID_INPUT", msg: "position 19"},
		{name: "unterminated string", query: searchQuery, vars: map[string]any{"q": "name = 'x"}, class: "INVALID_INPUT", msg: "position 8"},
		{name: "no query", query: searchQuery, vars: map[string]any{}, class: "INVALID_INPUT", msg: "needs a query"},
		{name: "sortByWithDirection REPORTING", query: `{ actor { entitySearch(query: "domain = 'APM'", sortByWithDirection: [{attribute: REPORTING}]) { count } } }`, msg: sim.UnsupportedMessage},
		{name: "sortByWithDirection tag", query: `{ actor { entitySearch(query: "domain = 'APM'", sortByWithDirection: [{tag: "team"}]) { count } } }`, msg: sim.UnsupportedMessage},
		{name: "sortByWithDirection two criteria", query: `{ actor { entitySearch(query: "domain = 'APM'", sortByWithDirection: [{attribute: NAME}, {attribute: NAME, direction: DESC}]) { count } } }`, msg: sim.UnsupportedMessage},
		{name: "sortByWithDirection beside sortBy TYPE", query: `{ actor { entitySearch(query: "domain = 'APM'", sortBy: [TYPE], sortByWithDirection: [{attribute: NAME}]) { count } } }`, msg: sim.UnsupportedMessage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := h.query(t, keyOne, tt.query, tt.vars, nil)
			if !hasError(errs, tt.class, tt.msg) {
				t.Fatalf("errors %+v, want %s %q", errs, tt.class, tt.msg)
			}
			if len(errs) != 1 || len(errs[0].Path) == 0 {
				t.Fatalf("errors %+v, want one error with a path", errs)
			}
		})
	}
}

func TestEntitySearchBuilderSortTypes(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	var out struct {
		Actor struct {
			Go struct {
				Count int
				Query string
			}
			Sev struct {
				Results struct {
					Entities []searchEntity
				}
			}
			Types struct {
				Types []struct {
					Count      int
					Domain     string
					Type       string
					EntityType string
				}
			}
		}
	}
	h.mustQuery(t, keyOne, `{ actor {
	  go: entitySearch(queryBuilder: {domain: APM, type: APPLICATION, tags: [{key: "language", value: "go"}]}) { count query }
	  sev: entitySearch(query: "accountId = 1000001", sortBy: [ALERT_SEVERITY]) { results { entities { name alertSeverity } } }
	  types: entitySearch(query: "accountId = 1000001") { types { count domain type entityType } }
	} }`, nil, &out)
	if want := count(d, acctOne, func(a sim.APMApplication) bool { return a.Language == "go" }); out.Actor.Go.Count != want {
		t.Errorf("builder count %d, want %d", out.Actor.Go.Count, want)
	}
	if want := "domain = 'APM' AND type = 'APPLICATION' AND tags.language = 'go'"; out.Actor.Go.Query != want {
		t.Errorf("builder query %q, want %q", out.Actor.Go.Query, want)
	}
	ents := out.Actor.Sev.Results.Entities
	if len(ents) == 0 || ents[0].AlertSeverity != "CRITICAL" || ents[len(ents)-1].AlertSeverity == "CRITICAL" {
		t.Errorf("ALERT_SEVERITY order: first %+v", ents[:min(3, len(ents))])
	}
	types := out.Actor.Types.Types
	if len(types) != 4 || types[0].Domain != "APM" || types[0].Count != len(apps(t, d, acctOne)) || types[1].EntityType != "BROWSER_APPLICATION_ENTITY" ||
		types[2].EntityType != "KEY_TRANSACTION_ENTITY" || types[2].Count != len(d.Accounts[0].KeyTransactions) ||
		types[3].EntityType != "MOBILE_APPLICATION_ENTITY" {
		t.Errorf("types %+v", types)
	}
}
