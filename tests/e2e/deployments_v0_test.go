package e2e

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestDeploymentV0(t *testing.T) {
	e := newEnv(t)
	form := func(v url.Values) *strings.Reader { return strings.NewReader(v.Encode()) }
	hdr := []string{"Content-Type", "application/x-www-form-urlencoded"}
	tests := []struct {
		name string
		body url.Values
	}{
		{"app_name", url.Values{"deployment[app_name]": {"100% Uptime Monitor"}, "deployment[revision]": {"v0-1"},
			"deployment[description]": {"sent by Capistrano"}, "deployment[user]": {"deployer"}}},
		{"application_id", url.Values{"deployment[application_id]": {metricApp}, "deployment[revision]": {"v0-2"}}},
		{"name in application_id (Ruby agent)", url.Values{"deployment[application_id]": {"100% Uptime Monitor"}, "deployment[host]": {"web-01"}}},
		{"unprefixed (PowerShell)", url.Values{"application_id": {metricApp}, "description": {"ps"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(t, http.MethodPost, "/deployments.xml", key1, form(tt.body), hdr...)
			if r.status != 201 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			var d struct {
				XMLName xml.Name `xml:"deployment"`
				AgentID int64    `xml:"agent-id"`
				Account int64    `xml:"account-id"`
				ID      int64    `xml:"id"`
				Rev     string   `xml:"revision"`
			}
			if err := xml.Unmarshal(r.body, &d); err != nil || d.AgentID != 314221522 || d.Account != 1000001 || d.ID == 0 || d.Rev == "" {
				t.Fatalf("v0 answer %s (%v)", r.body, err)
			}
		})
	}
	if n := len(e.deployments(t)); n != len(tests) {
		t.Fatalf("%d markers, want %d", n, len(tests))
	}
	r := e.do(t, http.MethodPost, "/deployments.xml", key1, form(url.Values{"deployment[app_name]": {"No Such App"}}), hdr...)
	if r.status != 404 || !strings.Contains(string(r.body), "<errors>") ||
		!strings.Contains(string(r.body), "<error>Deployment not recorded: Application No Such App does not exist.</error>") {
		t.Fatalf("unknown app: %d %s", r.status, r.body)
	}
	r = e.do(t, http.MethodPost, "/deployments.xml", "", form(url.Values{"deployment[app_name]": {"x"}}), hdr...)
	if r.status != 401 || !strings.Contains(string(r.body), "<error>") {
		t.Fatalf("no key: %d %s", r.status, r.body)
	}
}
