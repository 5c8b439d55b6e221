package e2e

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

const (
	key1     = "NRAK-DEMO-ACCOUNT-1"
	key2     = "NRAK-DEMO-ACCOUNT-2"
	keyMulti = "NRAK-DEMO-MULTI"
)

var linkRe = regexp.MustCompile(`<([^>]+)>; rel="(first|prev|next|last)"`)

func links(t *testing.T, h http.Header) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, l := range linkRe.FindAllStringSubmatch(h.Get("Link"), -1) {
		m[l[2]] = l[1]
	}
	return m
}

func TestApplicationsListPaging(t *testing.T) {
	e := newEnv(t)
	r := e.get(t, "/v2/applications.json", key1)
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	page1 := decode(t, r)
	if len(page1.Applications) != 200 {
		t.Fatalf("page 1 has %d apps, want 200", len(page1.Applications))
	}
	l := links(t, r.header)
	if !strings.HasPrefix(l["next"], e.gw.URL+"/v2/applications.json?") || !strings.Contains(l["next"], "page=2") {
		t.Fatalf("next link %q (Link: %s)", l["next"], r.header.Get("Link"))
	}
	if !strings.Contains(l["last"], "page=2") || l["first"] != "" || l["prev"] != "" {
		t.Fatalf("links %v", l)
	}
	// Page 2 through the link, as clients follow it; warm cursor cache: one round trip.
	r2 := e.get(t, l["next"], key1)
	page2 := decode(t, r2)
	if n := len(page2.Applications); n == 0 || n > 200 {
		t.Fatalf("page 2 has %d apps", n)
	}
	if got := r2.header.Get("X-V2bridge-Upstream-Calls"); got != "1" {
		t.Errorf("page 2 upstream calls = %s, want 1", got)
	}
	l2 := links(t, r2.header)
	if l2["next"] != "" || l2["last"] != "" || !strings.Contains(l2["first"], "page=1") || !strings.Contains(l2["prev"], "page=1") {
		t.Errorf("last-page links %v", l2)
	}
	seen := map[int64]bool{}
	for _, a := range append(page1.Applications, page2.Applications...) {
		if seen[a.ID] {
			t.Fatalf("app %d on both pages", a.ID)
		}
		seen[a.ID] = true
	}
	// Page 1 again: one NerdGraph request (account already resolved).
	r = e.get(t, "/v2/applications.json", key1)
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "1" {
		t.Errorf("list page 1 upstream calls = %s, want 1", got)
	}
}

func TestApplicationsFilterFollowNext(t *testing.T) {
	e := newEnv(t)
	// "a" matches far more than 200 names: the filter must survive in the next link
	// (newrelic-client-go does not re-send filters).
	r := e.get(t, "/v2/applications.json?filter%5Bname%5D=a", key1)
	page1 := decode(t, r)
	next := links(t, r.header)["next"]
	if next == "" {
		t.Skip("filter matched a single page")
	}
	u, err := url.Parse(next)
	if err != nil || u.Query().Get("filter[name]") != "a" {
		t.Fatalf("next %q does not carry the filter", next)
	}
	page2 := decode(t, e.get(t, next, key1))
	for _, a := range append(page1.Applications, page2.Applications...) {
		if !strings.Contains(strings.ToLower(a.Name), "a") {
			t.Errorf("app %q does not match filter", a.Name)
		}
	}
}

func TestApplicationsHostileFilter(t *testing.T) {
	e := newEnv(t)
	acct2 := map[int64]bool{}
	for _, a := range decode(t, e.get(t, "/v2/applications.json", key2)).Applications {
		acct2[a.ID] = true
	}
	if len(acct2) == 0 {
		t.Fatal("account 2 has no apps")
	}
	for _, give := range []string{
		`x' OR accountId = 1000002 OR name LIKE 'a`,
		`\`, `\'`, `'`, `%`, `_`, `日本`, `') OR (name LIKE '`,
	} {
		for _, param := range []string{"filter[name]", "filter[language]", "filter[host]"} {
			r := e.get(t, "/v2/applications.json?"+url.Values{param: {give}}.Encode(), key1)
			if r.status >= 500 {
				t.Errorf("%s=%q: status %d %s", param, give, r.status, r.body)
				continue
			}
			for _, a := range decode(t, r).Applications {
				if acct2[a.ID] {
					t.Errorf("%s=%q returned account 2 app %d", param, give, a.ID)
				}
			}
		}
	}
	// The same key gets nothing of account 2 by id.
	for id := range acct2 {
		r := e.get(t, "/v2/applications/"+itoa(id)+".json", key1)
		if r.status != 404 {
			t.Fatalf("account 1 key reading account 2 app %d: status %d", id, r.status)
		}
		if b := decode(t, r); b.Error == nil || b.Error.Title != "No Application found with the given ID" {
			t.Fatalf("404 body %s", r.body)
		}
		break
	}
}

func TestApplicationsAccountSelection(t *testing.T) {
	e := newEnv(t)
	// With no account named, the multi-account key is answered for the account it
	// belongs to (1000001), which the answer names.
	r := e.get(t, "/v2/applications.json", keyMulti)
	own := decode(t, e.get(t, "/v2/applications.json", key1)).Applications
	if got := decode(t, r).Applications; r.status != 200 || len(got) != len(own) || got[0].ID != own[0].ID ||
		r.header.Get("X-V2bridge-Account") != "1000001" {
		t.Fatalf("multi key without account: %d, account header %q, %s", r.status, r.header.Get("X-V2bridge-Account"), r.body)
	}
	want := decode(t, e.get(t, "/v2/applications.json", key2)).Applications
	for _, r := range []response{
		e.get(t, "/v2/applications.json", keyMulti, "X-Account-ID", "1000002"),
		e.get(t, "/accounts/1000002/v2/applications.json", keyMulti),
	} {
		got := decode(t, r).Applications
		if r.status != 200 || len(got) != len(want) || got[0].ID != want[0].ID {
			t.Fatalf("account 2 via multi key: %d, %d apps, want %d", r.status, len(got), len(want))
		}
	}
}

func TestApplicationsErrors(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name, path, key string
		want            int
		title           string
	}{
		{"no key", "/v2/applications.json", "", 401, "No API key specified"},
		{"unknown key", "/v2/applications.json", "NRAK-NOPE", 401, "Invalid API key"},
		{"unknown id", "/v2/applications/1.json", key1, 404, "No Application found with the given ID"},
		{"bad ids", "/v2/applications.json?filter[ids]=abc", key1, 400, ""},
		{"bad page", "/v2/applications.json?page=0", key1, 400, ""},
		{"unknown route", "/v2/nothing_here.json", key1, 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.get(t, tt.path, tt.key)
			b := decode(t, r)
			if r.status != tt.want || b.Error == nil || (tt.title != "" && b.Error.Title != tt.title) {
				t.Fatalf("status %d body %s, want %d %q", r.status, r.body, tt.want, tt.title)
			}
		})
	}
}

func TestApplicationsShowAndGolden(t *testing.T) {
	e := newEnv(t)
	first := decode(t, e.get(t, "/v2/applications.json", key1)).Applications[0]
	show := e.get(t, "/v2/applications/"+itoa(first.ID)+".json", key1)
	if show.status != 200 {
		t.Fatalf("show: %d %s", show.status, show.body)
	}
	if got := show.header.Get("X-V2bridge-Upstream-Calls"); got != "1" {
		t.Errorf("show upstream calls = %s, want 1", got)
	}
	if b := decode(t, show); b.Application == nil || b.Application.ID != first.ID {
		t.Fatalf("show body %s", show.body)
	}
	golden(t, "application_show.json", show.body)
	showXML := e.get(t, "/v2/applications/"+itoa(first.ID)+".xml", key1)
	wellFormed(t, showXML.body)
	golden(t, "application_show.xml", showXML.body)

	ids := e.get(t, "/v2/applications.json?filter[ids]="+itoa(first.ID), key1)
	if got := decode(t, ids).Applications; len(got) != 1 || got[0].ID != first.ID {
		t.Fatalf("filter[ids]: %s", ids.body)
	}
	golden(t, "applications_list_ids.json", ids.body)
	listXML := e.get(t, "/v2/applications.xml?filter[ids]="+itoa(first.ID), key1)
	wellFormed(t, listXML.body)
	golden(t, "applications_list_ids.xml", listXML.body)
}

func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(b)))
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return
			}
			t.Fatalf("XML not well-formed: %v", err)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestApplicationsForeignAccountForbidden(t *testing.T) {
	e := newEnv(t)
	for _, r := range []response{
		e.get(t, "/v2/applications.json", key1, "X-Account-ID", "1000002"),
		e.get(t, "/accounts/1000002/v2/applications.json", key1),
	} {
		if r.status != 403 {
			t.Fatalf("account 1 key naming account 2: %d %s", r.status, r.body)
		}
	}
}

func TestRetiredProducts(t *testing.T) {
	e := newEnv(t)
	tests := []struct{ path, method, mention string }{
		{"/v2/servers.json", "GET", "Infrastructure"},
		{"/v2/servers/12.xml", "DELETE", "Infrastructure"},
		{"/v2/labels.json", "PUT", "tags"},
		{"/v2/plugins.json", "GET", "integrations"},
		{"/v2/components/5/metrics/data.json", "GET", "integrations"},
	}
	before := e.sim.Requests()
	for _, tt := range tests {
		r := e.do(t, tt.method, tt.path, key1, nil)
		if strings.HasSuffix(tt.path, ".xml") {
			wellFormed(t, r.body)
			if r.status != 410 || !strings.Contains(string(r.body), "<title>") || !strings.Contains(string(r.body), tt.mention) {
				t.Errorf("%s %s: %d %s", tt.method, tt.path, r.status, r.body)
			}
			continue
		}
		b := decode(t, r)
		if r.status != 410 || b.Error == nil || !strings.Contains(b.Error.Title, tt.mention) {
			t.Errorf("%s %s: %d %s", tt.method, tt.path, r.status, r.body)
		}
		if got := r.header.Get("X-V2bridge-Fidelity"); got != "unsupported" {
			t.Errorf("%s: fidelity %q", tt.path, got)
		}
	}
	if e.sim.Requests() != before {
		t.Errorf("retired routes reached NerdGraph")
	}
}

func TestObservabilityEndpoints(t *testing.T) {
	e := newEnv(t)
	e.get(t, "/v2/applications.json", key1)
	e.get(t, "/v2/applications/1.json", key1)
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready"} {
		r := e.get(t, path, "")
		if r.status != 200 || !strings.Contains(string(r.body), want) {
			t.Errorf("%s: %d %s", path, r.status, r.body)
		}
	}
	r := e.get(t, "/metrics", "")
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(r.body)))
	if err != nil {
		t.Fatalf("scrape does not parse: %v", err)
	}
	for _, name := range []string{"v2bridge_requests_total", "v2bridge_request_duration_seconds", "v2bridge_requests_in_flight",
		"v2bridge_upstream_requests_total", "v2bridge_upstream_duration_seconds", "v2bridge_cache_requests_total"} {
		if families[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	if strings.Contains(string(r.body), "NRAK-") {
		t.Error("a key reached /metrics")
	}
}

// Reporting applications carry last_reported_at, summaries and links from the NRQL
// inventory; non-reporting ones are gray and carry neither last_reported_at nor a
// summary (newrelic/docs-website
// src/content/docs/apis/rest-api-v2/application-examples-v2/application-reporting-health-status-v2.mdx).
func TestApplicationFieldsByReporting(t *testing.T) {
	e := newEnv(t)
	var body struct {
		Applications []map[string]any `json:"applications"`
	}
	r := e.get(t, "/v2/applications.json", key1)
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	var reporting, silent int
	for _, a := range body.Applications {
		links, _ := a["links"].(map[string]any)
		if a["reporting"] == true {
			reporting++
			if a["last_reported_at"] == nil || a["application_summary"] == nil {
				t.Errorf("reporting app %v lacks last_reported_at or summary", a["id"])
			}
			if len(links["application_instances"].([]any)) == 0 || len(links["application_hosts"].([]any)) == 0 {
				t.Errorf("reporting app %v has no instance or host links", a["id"])
			}
			continue
		}
		silent++
		if a["last_reported_at"] != nil || a["application_summary"] != nil || a["health_status"] != "gray" {
			t.Errorf("non-reporting app %v: %v", a["id"], a)
		}
	}
	if reporting == 0 || silent == 0 {
		t.Fatalf("page 1 has %d reporting and %d non-reporting apps; want both", reporting, silent)
	}
}

func TestNotImplementedRoutes(t *testing.T) {
	e := newEnv(t)
	tests := []struct{ method, path, mention string }{
		{"POST", "/v2/alerts_conditions/policies/1001.json", "alertsNrqlConditionStaticCreate"},
		{"PUT", "/v2/alerts_conditions/5.json", "NRQL condition"},
		{"DELETE", "/v2/alerts_conditions/5.json", "retained_alerts: passthrough"},
		{"GET", "/v2/alerts_entity_conditions/3001.json?entity_type=KeyTransaction", "WHERE clause"},
		{"DELETE", "/v2/applications/314221522/deployments/1.json", "immutable"},
	}
	for _, tt := range tests {
		r := e.do(t, tt.method, tt.path, key1, nil)
		b := decode(t, r)
		if r.status != 501 || b.Error == nil || !strings.Contains(b.Error.Title, tt.mention) {
			t.Errorf("%s %s: %d %s", tt.method, tt.path, r.status, r.body)
		}
	}
	// The list of legacy conditions is not claimed by the 501 route.
	if r := e.get(t, "/v2/alerts_conditions.json?policy_id=1001", key1); r.status == 501 {
		t.Error("GET /alerts_conditions.json answered 501")
	}
}
