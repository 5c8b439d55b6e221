package spec_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

type deploymentAnswer struct {
	Deployment *struct {
		ID        int64
		Revision  string
		Timestamp string
	}
	Deployments []struct{ ID int64 }
	Links       map[string]string
	Error       *struct{ Title string }
}

func postDeployment(t *testing.T, h *harness.Env, body string) (answer, deploymentAnswer) {
	t.Helper()
	a := send(t, h, http.MethodPost, "/v2/applications/"+app+"/deployments.json", body, "Content-Type", "application/json")
	var d deploymentAnswer
	_ = json.Unmarshal(a.body, &d)
	return a, d
}

// RES-DEP-08, RES-DEP-09: the deployments list is {deployments, links} with the link
// template deployment.agent → /v2/applications/{application_id}, sent with
// Cache-Control max-age=0, private, must-revalidate and Content-Type application/json.
func TestSpecDeploymentListEnvelopeAndHeaders(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	if a, _ := postDeployment(t, h, `{"deployment":{"revision":"r1"}}`); a.status != 201 {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	a := get(t, h, "/v2/applications/"+app+"/deployments.json")
	var d deploymentAnswer
	decodeInto(t, a, &d)
	if len(d.Deployments) != 1 || d.Links["deployment.agent"] != "/v2/applications/{application_id}" {
		t.Errorf("list %s", a.body)
	}
	if got := a.header.Get("Cache-Control"); got != "max-age=0, private, must-revalidate" {
		t.Errorf("Cache-Control %q", got)
	}
	if got := a.header.Get("Content-Type"); !strings.HasPrefix(got, "application/json") {
		t.Errorf("Content-Type %q", got)
	}
}

// RES-DEP-09: the deployments list (as every 200) carries a strong ETag, "<hex>" as
// REST's Rails answers show (newrelic/docs-website
// src/content/docs/apis/rest-api-v2/basic-functions/extract-metric-timeslice-data.mdx); the tag follows the content, and a GET
// whose If-None-Match names it is answered 304 with no body, as Rails' conditional GET.
func TestSpecDeploymentListETag(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	path := "/v2/applications/" + app + "/deployments.json"
	if a, _ := postDeployment(t, h, `{"deployment":{"revision":"r1"}}`); a.status != 201 {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	first := get(t, h, path)
	tag := first.header.Get("Etag")
	if !regexp.MustCompile(`^"[0-9a-f]{16}"$`).MatchString(tag) {
		t.Fatalf("ETag %q, want a quoted hex digest", tag)
	}
	if again := get(t, h, path); again.header.Get("Etag") != tag {
		t.Errorf("the same list has two tags: %q, %q", tag, again.header.Get("Etag"))
	}
	for _, inm := range []string{tag, `"0000000000000000", ` + tag, "W/" + tag, "*"} {
		a := send(t, h, http.MethodGet, path, "", "If-None-Match", inm)
		if a.status != http.StatusNotModified || len(a.body) != 0 || a.header.Get("Etag") != tag {
			t.Errorf("If-None-Match %s: %d %q ETag %q, want 304 with no body", inm, a.status, a.body, a.header.Get("Etag"))
		}
	}
	if a := send(t, h, http.MethodGet, path, "", "If-None-Match", `"0000000000000000"`); a.status != 200 || len(a.body) == 0 {
		t.Errorf("a stale tag: %d %q, want the list", a.status, a.body)
	}
	if a, _ := postDeployment(t, h, `{"deployment":{"revision":"r2"}}`); a.status != 201 {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	if a := send(t, h, http.MethodGet, path, "", "If-None-Match", tag); a.status != 200 || a.header.Get("Etag") == tag {
		t.Errorf("after a new deployment: %d, ETag %q (was %q), want 200 and a new tag", a.status, a.header.Get("Etag"), tag)
	}
}

// RES-DEP-03, RES-DEP-04, LIM-02, LIM-03: changelog and description take up to 65535
// characters, not one more.
func TestSpecDeploymentTextLimits(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	for _, field := range []string{"changelog", "description"} {
		ok := strings.Repeat("d", 65535)
		if a, _ := postDeployment(t, h, `{"deployment":{"revision":"r-`+field+`","`+field+`":"`+ok+`"}}`); a.status != 201 {
			t.Errorf("%s of 65535 characters: %d %.200s", field, a.status, a.body)
		}
		a, d := postDeployment(t, h, `{"deployment":{"revision":"r","`+field+`":"`+ok+`d"}}`)
		if a.status != 422 || d.Error == nil || !strings.Contains(d.Error.Title, field) {
			t.Errorf("%s of 65536 characters: %d %.200s", field, a.status, a.body)
		}
	}
}

// EP-DEP-05, ERR-03: without timestamp the deployment is recorded at the time the
// request is received; a timestamp that is not ISO 8601 is refused.
func TestSpecDeploymentTimestampRules(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	a, d := postDeployment(t, h, `{"deployment":{"revision":"now"}}`)
	if a.status != 201 || d.Deployment == nil || d.Deployment.Timestamp != harness.Clock.Format("2006-01-02T15:04:05+00:00") {
		t.Errorf("no timestamp: %d %s, want recorded at %s", a.status, a.body, harness.Clock)
	}
	for _, ts := range []string{"yesterday", "20/11/2026 11:00", "2026-11-20"} {
		a, d := postDeployment(t, h, `{"deployment":{"revision":"x","timestamp":"`+ts+`"}}`)
		if a.status != 422 || d.Error == nil || !strings.Contains(d.Error.Title, "timestamp") {
			t.Errorf("timestamp %q: %d %s", ts, a.status, a.body)
		}
	}
}

// SVC-14, VER-06: a deployment is recorded with changeTrackingCreateEvent (operation
// DeploymentCreateEvent); with use_create_deployment, with the older
// changeTrackingCreateDeployment (operation DeploymentCreate), and either way it is
// listed back.
func TestSpecDeploymentMutations(t *testing.T) {
	for _, tt := range []struct {
		name   string
		legacy bool
		op     string
	}{
		{"changeTrackingCreateEvent", false, "DeploymentCreateEvent"},
		{"changeTrackingCreateDeployment", true, "DeploymentCreate"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := harness.Start(t, gateway.Config{UseCreateDeployment: tt.legacy})
			if a, _ := postDeployment(t, h, `{"deployment":{"revision":"`+tt.name+`"}}`); a.status != 201 {
				t.Fatalf("create: %d %s", a.status, a.body)
			}
			if n := h.Sim.RequestsByOperation()[tt.op]; n != 1 {
				t.Fatalf("%s sent %d times (%v)", tt.op, n, h.Sim.RequestsByOperation())
			}
			var d struct {
				Deployments []struct{ Revision string }
			}
			decodeInto(t, get(t, h, "/v2/applications/"+app+"/deployments.json"), &d)
			if len(d.Deployments) != 1 || d.Deployments[0].Revision != tt.name {
				t.Fatalf("listed %+v", d.Deployments)
			}
		})
	}
}

// RES-DEP-10: a deployment is recorded against an APM application, never a browser
// application: a browser application's id is not an application of the deployments
// route (404).
func TestSpecNoDeploymentOnBrowserApplication(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	a := send(t, h, http.MethodPost, "/v2/browser_applications.json", `{"browser_application":{"name":"Docs Site"}}`, "Content-Type", "application/json")
	var created struct {
		BrowserApplication struct{ ID int64 } `json:"browser_application"`
	}
	if err := json.Unmarshal(a.body, &created); err != nil || a.status != 201 || created.BrowserApplication.ID == 0 {
		t.Fatalf("browser create: %d %s", a.status, a.body)
	}
	d := send(t, h, http.MethodPost, "/v2/applications/"+itoa(created.BrowserApplication.ID)+"/deployments.json",
		`{"deployment":{"revision":"r1"}}`, "Content-Type", "application/json")
	if d.status != 404 {
		t.Fatalf("deployment on browser application %d: %d %s", created.BrowserApplication.ID, d.status, d.body)
	}
}
