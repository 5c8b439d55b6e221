package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
)

// Read, write through the gateway, read again: every cached read a write can change
// shows the write on the next read, within the round trips the write path promises.

// rwrRead is a read that a write can change: every page of path (Link rel="next"),
// which names it lists, and the round trips all its pages may cost after the write.
type rwrRead struct {
	path  string
	lists func(name string) bool // nil: every name
	most  int
}

// rwrCase is a write and the reads it changes: the entry id is named before (""
// when the write creates it) and after (""when the write deletes it).
type rwrCase struct {
	name          string
	before, after string
	id            int64
	write         func(t *testing.T, e *env, key string) (id int64)
	reads         []rwrRead
}

// substring is REST's filter[name]: a case-insensitive substring match.
func substring(s string) func(string) bool {
	return func(name string) bool { return strings.Contains(strings.ToLower(name), strings.ToLower(s)) }
}

// listed is every entry (id → name) of a v2 answer, over the pages of path, and the
// round trips they cost. A 404 lists nothing.
func (e *env) listed(t *testing.T, path, key string) (map[int64]string, int) {
	t.Helper()
	out := map[int64]string{}
	calls := 0
	for next, n := path, 0; next != ""; n++ {
		r := e.get(t, next, key)
		c, _ := strconv.Atoi(r.header.Get("X-V2bridge-Upstream-Calls"))
		calls += c
		if r.status == http.StatusNotFound {
			return out, calls
		}
		if r.status != 200 || n > 10 {
			t.Fatalf("GET %s: %d (page %d) %.300s", next, r.status, n+1, r.body)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(r.body, &doc); err != nil {
			t.Fatalf("GET %s: %v", next, err)
		}
		type entry struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		}
		for k, raw := range doc {
			if k == "links" {
				continue
			}
			var list []entry
			if json.Unmarshal(raw, &list) != nil {
				var one entry
				if json.Unmarshal(raw, &one) != nil {
					continue
				}
				list = []entry{one}
			}
			for _, x := range list {
				out[x.ID] = x.Name
			}
		}
		next = links(t, r.header)["next"]
	}
	return out, calls
}

// run reads, writes, reads again.
func (c rwrCase) run(t *testing.T, e *env, key string) {
	t.Helper()
	check := func(when string, id int64, name string, rd rwrRead, got map[int64]string) {
		t.Helper()
		want := name != "" && (rd.lists == nil || rd.lists(name))
		if id == 0 { // not created yet: no entry of its name
			for gid, n := range got {
				if n == c.after {
					t.Errorf("%s: %s lists %d %q already", when, rd.path, gid, n)
				}
			}
			return
		}
		n, ok := got[id]
		switch {
		case want && (!ok || n != name):
			t.Errorf("%s: %s lists %d as %q (listed %v), want %q", when, rd.path, id, n, ok, name)
		case !want && ok:
			t.Errorf("%s: %s lists %d as %q, want it left out", when, rd.path, id, n)
		}
	}
	for _, rd := range c.reads {
		got, _ := e.listed(t, rd.path, key)
		check("before the write", c.id, c.before, rd, got)
	}
	id := c.write(t, e, key)
	if id == 0 {
		t.Fatal("the write named no entry")
	}
	for _, rd := range c.reads {
		got, calls := e.listed(t, rd.path, key)
		check("after the write", id, c.after, rd, got)
		if calls > rd.most {
			t.Errorf("after the write: %s cost %d round trips, want at most %d", rd.path, calls, rd.most)
		}
	}
}

// rwrDo sends a write and fails unless it is answered with one of want.
func rwrDo(t *testing.T, e *env, key, method, path, body string, want ...int) response {
	t.Helper()
	var r response
	if body == "" {
		r = e.do(t, method, path, key, nil)
	} else {
		r = e.do(t, method, path, key, strings.NewReader(body), "Content-Type", "application/json")
	}
	for _, w := range want {
		if r.status == w {
			return r
		}
	}
	t.Fatalf("%s %s: %d %.300s", method, path, r.status, r.body)
	return r
}

// createdID is the id of the object a write answered with under wrapper.
func createdID(t *testing.T, r response, wrapper string) int64 {
	t.Helper()
	var doc map[string]struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil || doc[wrapper].ID == 0 {
		t.Fatalf("no %s id in %.300s", wrapper, r.body)
	}
	return doc[wrapper].ID
}

func renameApp(id int64, name string) func(*testing.T, *env, string) int64 {
	return func(t *testing.T, e *env, key string) int64 {
		body, _ := json.Marshal(map[string]any{"application": map[string]any{"name": name}})
		rwrDo(t, e, key, http.MethodPut, fmt.Sprintf("/v2/applications/%d.json", id), string(body), 200)
		return id
	}
}

// appCosts are the round trips the application reads may cost after a write retired
// the account's cached reads (docs/fidelity.md applications.*, docs/performance.md).
type appCosts struct {
	pages int // every page of the list: a search each (the first also its inventory on a large account)
	name  int // filter[name] by a fragment: the full read (small), or the page of matches plus an equality look-up (large)
	exact int // filter[name] by a whole name: as name
}

// appReads are the application reads of id that a write to it can change: the list's
// pages, filter[ids] and the show (1 round trip each: the entity cache was retired),
// filter[name] by fragments and by whole names (a name lookup).
func appReads(id int64, costs appCosts, fragments, names []string) []rwrRead {
	reads := []rwrRead{
		{path: "/v2/applications.json", most: costs.pages},
		{path: fmt.Sprintf("/v2/applications.json?filter[ids]=%d", id), most: 1},
		{path: fmt.Sprintf("/v2/applications/%d.json", id), most: 1},
	}
	for _, f := range fragments {
		reads = append(reads, rwrRead{path: "/v2/applications.json?filter[name]=" + url.QueryEscape(f), lists: substring(f), most: costs.name})
	}
	for _, f := range names {
		reads = append(reads, rwrRead{path: "/v2/applications.json?filter[name]=" + url.QueryEscape(f), lists: substring(f), most: costs.exact})
	}
	return reads
}

// smallCosts: the demo's account of 264 applications is two pages of the search, and
// a filter reads them all (the full read).
var smallCosts = appCosts{pages: 2, name: 2, exact: 2}

// On the demo's account (264 applications: two pages, below the account-wide
// inventory's LIMIT, so filters read the whole list), every application read shows a
// rename, a delete, a browser agent switched on, a browser application created, and
// the alert conditions their writes.
func TestReadWriteReadSmallAccount(t *testing.T) {
	const renamed = "Read-write-read Renamed"
	cases := []rwrCase{
		{name: "application renamed", id: 314221522, before: "100% Uptime Monitor", after: renamed,
			write: renameApp(314221522, renamed),
			reads: appReads(314221522, smallCosts, []string{"uptime", "read-write-read"}, []string{"100% Uptime Monitor", renamed})},
		{name: "application deleted", id: 439883550, before: "Billing (US)",
			write: func(t *testing.T, e *env, key string) int64 {
				rwrDo(t, e, key, http.MethodDelete, "/v2/applications/439883550.json", "", 200)
				return 439883550
			},
			reads: appReads(439883550, smallCosts, []string{"billing"}, []string{"Billing (US)"})},
		{name: "browser monitoring switched on", id: 107756728, before: "", after: `The "Quoted" App`,
			write: func(t *testing.T, e *env, key string) int64 {
				rwrDo(t, e, key, http.MethodPut, "/v2/applications/107756728.json",
					`{"application":{"settings":{"enable_real_user_monitoring":true}}}`, 200)
				return 107756728
			},
			reads: []rwrRead{
				{path: "/v2/browser_applications.json", most: 2},
				{path: "/v2/browser_applications.json?filter[name]=quoted", lists: substring("quoted"), most: 2},
			}},
		{name: "browser application created", after: "Read-write-read Site",
			write: func(t *testing.T, e *env, key string) int64 {
				r := rwrDo(t, e, key, http.MethodPost, "/v2/browser_applications.json",
					`{"browser_application":{"name":"Read-write-read Site"}}`, 201)
				return createdID(t, r, "browser_application")
			},
			reads: []rwrRead{
				{path: "/v2/browser_applications.json", most: 2},
				{path: "/v2/browser_applications.json?filter[name]=read-write", lists: substring("read-write"), most: 2},
			}},
		{name: "NRQL condition created", after: "Read-write-read condition",
			write: func(t *testing.T, e *env, key string) int64 {
				r := rwrDo(t, e, key, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", rwrCondition, 201)
				return createdID(t, r, "nrql_condition")
			},
			reads: []rwrRead{{path: "/v2/alerts_nrql_conditions.json?policy_id=1002", most: 1}}},
		{name: "NRQL condition renamed", id: 6101, before: "High error rate", after: "Read-write-read renamed condition",
			write: func(t *testing.T, e *env, key string) int64 {
				rwrDo(t, e, key, http.MethodPut, "/v2/alerts_nrql_conditions/6101.json",
					`{"nrql_condition":{"name":"Read-write-read renamed condition"}}`, 200)
				return 6101
			},
			reads: conditionReads},
		{name: "application added to an NRQL condition", id: 6101, before: "", after: "High error rate",
			write: func(t *testing.T, e *env, key string) int64 {
				rwrDo(t, e, key, http.MethodPut, "/v2/alerts_entity_conditions/924224343.json?entity_type=Application&condition_id=6101", "", 200)
				return 6101
			},
			reads: []rwrRead{{path: "/v2/alerts_entity_conditions/924224343.json?entity_type=Application", most: 2}}},
		{name: "NRQL condition deleted", id: 6101, before: "High error rate",
			write: func(t *testing.T, e *env, key string) int64 {
				rwrDo(t, e, key, http.MethodDelete, "/v2/alerts_nrql_conditions/6101.json", "", 200)
				return 6101
			},
			reads: conditionReads},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.run(t, newEnv(t), key1)
		})
	}
}

// conditionReads list condition 6101 ("High error rate", policy 1001, naming
// checkout-service 320822617): the policy's NRQL conditions (one search) and the
// application's entity conditions (two round trips). Neither is cached, so a write
// costs the next read nothing more.
var conditionReads = []rwrRead{
	{path: "/v2/alerts_nrql_conditions.json?policy_id=1001", most: 1},
	{path: "/v2/alerts_entity_conditions/320822617.json?entity_type=Application", most: 2},
}

const rwrCondition = `{"nrql_condition":{"type":"static","name":"Read-write-read condition","enabled":true,
	"value_function":"single_value","terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1","time_function":"all"}],
	"nrql":{"query":"SELECT count(*) FROM Transaction"}}}`

// On an account of more than the account-wide inventory's LIMIT (1,000 applications),
// where filter[name] matches in the account's name index and the list's pages are
// cursors of the search, every application read shows a rename.
func TestReadWriteReadLargeAccount(t *testing.T) {
	l, err := sim.ParseScale("apps=1000,hosts=3")
	if err != nil {
		t.Fatal(err)
	}
	e := newCapsEnv(t, l)
	id := int64(e.large.LargeAppID(42))
	old := e.large.LargeAppName(42)
	const renamed = "rwr-renamed-0042"
	// Five pages: the first a search and its inventory, the others a search each. A name
	// matches in the index: its page by id (1), and a name no indexed application bears
	// exactly one equality look-up more (docs/performance.md).
	costs := appCosts{pages: 2 + 4, name: 2, exact: 2}
	c := rwrCase{name: "application renamed", id: id, before: old, after: renamed, write: renameApp(id, renamed),
		reads: appReads(id, costs, []string{"large-app-004"}, []string{old, renamed})}
	c.run(t, e.env, keyLarge)
}

// Key transactions are cached for the list TTL and not retired by an application write:
// no field of theirs comes from what the write changes (name, Apdex threshold, browser
// monitoring: their names, apdex_target and links.application are the key transaction's
// own), so after a rename and a new threshold of their application the list is the
// same and costs what a warm read costs (its summary's NRQL, docs/fidelity.md
// key_transactions.list).
func TestReadWriteReadKeyTransactions(t *testing.T) {
	e := newEnv(t)
	type kt struct {
		ID    int64
		Name  string
		Links struct {
			Application int64
		}
		ApplicationSummary *struct {
			ApdexTarget float64 `json:"apdex_target"`
		} `json:"application_summary"`
	}
	read := func() (string, string) {
		t.Helper()
		r := e.get(t, "/v2/key_transactions.json", key1)
		var b struct {
			KeyTransactions []kt `json:"key_transactions"`
		}
		if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
			t.Fatalf("key transactions: %d %.300s", r.status, r.body)
		}
		out, _ := json.Marshal(b.KeyTransactions)
		return string(out), r.header.Get("X-V2bridge-Upstream-Calls")
	}
	before, _ := read()
	rwrDo(t, e, key1, http.MethodPut, "/v2/applications/314221522.json",
		`{"application":{"name":"Read-write-read KT app","settings":{"app_apdex_threshold":0.9}}}`, 200)
	after, calls := read()
	if after != before || calls != "1" {
		t.Fatalf("after the application write: %s with %s round trips, want %s with 1", after, calls, before)
	}
}
