package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

type browserBody struct {
	BrowserApplication  *browserJSON  `json:"browser_application"`
	BrowserApplications []browserJSON `json:"browser_applications"`
}

type browserJSON struct {
	ID                   int64  `json:"id"`
	Name                 string `json:"name"`
	BrowserMonitoringKey string `json:"browser_monitoring_key"`
	LoaderScript         string `json:"loader_script"`
}

func TestBrowserApplications(t *testing.T) {
	e := newEnv(t)
	var list browserBody
	r := e.get(t, "/v2/browser_applications.json", key1)
	if err := json.Unmarshal(r.body, &list); err != nil || r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if len(list.BrowserApplications) != 33 {
		t.Fatalf("%d browser apps, want the demo's 33", len(list.BrowserApplications))
	}
	first := list.BrowserApplications[0]
	if first.BrowserMonitoringKey == "" || !strings.Contains(first.LoaderScript, "<script") {
		t.Fatalf("browser app %+v", first)
	}
	// The id of an injected agent is its APM application's id.
	if r := e.get(t, "/v2/applications/"+strconv.FormatInt(first.ID, 10)+".json", key1); r.status != 200 {
		t.Fatalf("id %d is not an APM application id: %d", first.ID, r.status)
	}

	r = e.do(t, http.MethodPost, "/v2/browser_applications.json", key1, strings.NewReader(`{"browser_application":{"name":"Marketing Site"}}`),
		"Content-Type", "application/json")
	var created browserBody
	if err := json.Unmarshal(r.body, &created); err != nil || r.status != 201 || created.BrowserApplication == nil {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	c := created.BrowserApplication
	if c.ID == 0 || c.Name != "Marketing Site" || c.BrowserMonitoringKey == "" || !strings.Contains(c.LoaderScript, "lite") {
		t.Fatalf("created %+v", c)
	}
	// It then appears in the list with the same id (filter by id and by name).
	for _, q := range []string{"filter[ids]=" + strconv.FormatInt(c.ID, 10), "filter[name]=marketing"} {
		var got browserBody
		_ = json.Unmarshal(e.get(t, "/v2/browser_applications.json?"+q, key1).body, &got)
		if len(got.BrowserApplications) != 1 || got.BrowserApplications[0].ID != c.ID || got.BrowserApplications[0].BrowserMonitoringKey != c.BrowserMonitoringKey {
			t.Fatalf("%s: %+v", q, got.BrowserApplications)
		}
	}
	// Several names separated by commas: any of them matches (docs-website
	// add-or-list-browser-apps-api-v2.mdx); blank parts match nothing more.
	for q, want := range map[string]int{"marketing,no such name": 1, "marketing," + first.Name: 2, "marketing, ,": 1} {
		var got browserBody
		_ = json.Unmarshal(e.get(t, "/v2/browser_applications.json?filter[name]="+url.QueryEscape(q), key1).body, &got)
		if len(got.BrowserApplications) != want {
			t.Errorf("filter[name]=%s: %d applications, want %d", q, len(got.BrowserApplications), want)
		}
	}
	if r := e.do(t, http.MethodPost, "/v2/browser_applications.json", key1, strings.NewReader(`{"browser_application":{}}`)); r.status != 422 {
		t.Fatalf("no name: %d", r.status)
	}
}
