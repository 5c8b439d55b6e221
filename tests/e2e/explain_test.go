package e2e

import (
	"encoding/csv"
	"encoding/json"
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// TestExplainOverSimulator: the usage report links each route row to the explanation
// of a sample request, scoped to the caller's account; following the links (and
// explaining a write) makes no request to NerdGraph (the simulator counts zero more),
// and the write is not applied.
func TestExplainOverSimulator(t *testing.T) {
	h := harness.StartWith(t, harness.Options{Migrate: migrate.Config{ReportToken: "s3cret"}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	for _, p := range []string{"/v2/applications.json", "/v2/applications/314221522.json",
		"/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&values[]=call_count"} {
		e.get(t, p, key1)
	}
	admin := []string{"Authorization", "Bearer s3cret"}
	var rep struct{ Usage []migrate.Usage }
	if err := json.Unmarshal(e.get(t, "/v2bridge/report.json", "", admin...).body, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Usage) != 3 {
		t.Fatalf("report rows %+v", rep.Usage)
	}
	deployments := len(e.get(t, "/v2/applications/314221522/deployments.json", key1).body)
	before := e.sim.Requests()
	for _, u := range rep.Usage {
		if u.Explain == "" {
			t.Fatalf("row %s has no explain link", u.Route)
		}
		if u.Account != 1000001 || !strings.Contains(u.Explain, "account=1000001") {
			t.Errorf("row %s: account %d, link %s", u.Route, u.Account, u.Explain)
		}
		r := e.get(t, u.Explain, "", admin...)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", u.Explain, r.status, r.body)
		}
		var x migrate.Explanation
		if err := json.Unmarshal(r.body, &x); err != nil {
			t.Fatal(err)
		}
		if x.Route != u.Route || len(x.Calls) == 0 || x.Account == nil || x.Account.ID != 1000001 {
			t.Errorf("%s explained as %s with %d calls", u.Route, x.Route, len(x.Calls))
		}
	}
	// A write with the caller's key: the key is not in the explanation, nothing is sent.
	q := url.Values{"request": {"POST /v2/applications/314221522/deployments.json"}, "account": {"1000001"},
		"body": {`{"deployment":{"revision":"explained-only"}}`}}
	r := e.get(t, "/v2bridge/explain?"+q.Encode(), key1, admin...)
	if r.status != 200 || !strings.Contains(string(r.body), `"kind": "mutation"`) || strings.Contains(string(r.body), key1) {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// Without an account: the caller's key finds the one account this gateway cached
	// for it; a key it has not seen gets the 422, and neither is sent.
	q = url.Values{"request": {"GET /v2/applications/314221522/hosts.json"}}
	r = e.get(t, "/v2bridge/explain?"+q.Encode(), key1, admin...)
	var x migrate.Explanation
	if err := json.Unmarshal(r.body, &x); err != nil || r.status != 200 || x.Account == nil || x.Account.ID != 1000001 ||
		!strings.Contains(x.Account.Source, "cache") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r = e.get(t, "/v2bridge/explain?"+q.Encode(), key2, admin...); r.status != 422 || !strings.Contains(string(r.body), "Name the account") {
		t.Fatalf("unseen key: %d %s", r.status, r.body)
	}
	if n := e.sim.Requests() - before; n != 0 {
		t.Fatalf("explain made %d NerdGraph requests", n)
	}
	if got := len(e.get(t, "/v2/applications/314221522/deployments.json", key1).body); got != deployments {
		t.Fatalf("the explained deployment was recorded: list of %d bytes, %d before", got, deployments)
	}

	// CSV and HTML carry the same links.
	rows, err := csv.NewReader(strings.NewReader(string(e.get(t, "/v2bridge/report.csv", "", admin...).body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := len(rows[0]) - 1
	if rows[0][col] != "explain" {
		t.Fatalf("csv header %v", rows[0])
	}
	page := html.UnescapeString(string(e.get(t, "/v2bridge/report", "", admin...).body))
	for _, row := range rows[1:] {
		if !strings.HasPrefix(row[col], "/v2bridge/explain?request=") {
			t.Errorf("csv row %v", row)
		}
		if !strings.Contains(page, `href="`+row[col]+`"`) {
			t.Errorf("page lacks the link %s", row[col])
		}
	}
}
