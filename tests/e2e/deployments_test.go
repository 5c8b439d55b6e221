package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

const deployPath = "/v2/applications/" + metricApp + "/deployments.json"

type deploymentsBody struct {
	Deployment  *deploymentJSON  `json:"deployment"`
	Deployments []deploymentJSON `json:"deployments"`
	Error       *struct{ Title string }
}

type deploymentJSON struct {
	ID          int64
	Revision    string
	Changelog   *string
	Description *string
	User        *string
	Timestamp   string
	Links       struct{ Application int64 }
}

func (e *env) post(t *testing.T, path, body string, hdr ...string) (response, deploymentsBody) {
	t.Helper()
	r := e.do(t, http.MethodPost, path, key1, strings.NewReader(body), append([]string{"Content-Type", "application/json"}, hdr...)...)
	var b deploymentsBody
	_ = json.Unmarshal(r.body, &b)
	return r, b
}

func (e *env) deployments(t *testing.T) []deploymentJSON {
	t.Helper()
	r := e.get(t, deployPath, key1)
	var b deploymentsBody
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
		t.Fatalf("list: %d %s", r.status, r.body)
	}
	return b.Deployments
}

func TestDeploymentCreateAndList(t *testing.T) {
	e := newEnv(t)
	if got := e.deployments(t); len(got) != 0 {
		t.Fatalf("fresh app has %d deployments", len(got))
	}
	r, b := e.post(t, deployPath, `{"deployment":{"revision":"abc123","changelog":"fixed it","description":"release 7","user":"ci-bot","timestamp":"2026-11-20T11:59:00Z"}}`)
	if r.status != 201 || b.Deployment == nil || b.Deployment.Revision != "abc123" || b.Deployment.ID == 0 ||
		b.Deployment.Timestamp != "2026-11-20T11:59:00+00:00" {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	r2, _ := e.post(t, deployPath, `{"deployment":{"revision":"def456"}}`)
	if r2.status != 201 {
		t.Fatalf("second create: %d %s", r2.status, r2.body)
	}
	// The specification's deployment object: changelog "string or absent", description
	// "string or null": created without them, changelog is left out, description null.
	noChangelog := func(what string, body []byte) {
		t.Helper()
		if bytes.Contains(body, []byte(`"changelog":null`)) || !bytes.Contains(body, []byte(`"revision":"def456","description":null`)) {
			t.Errorf("%s: %s, want no changelog and a null description", what, body)
		}
	}
	noChangelog("create", r2.body)
	noChangelog("list", e.get(t, deployPath, key1).body)
	list := e.deployments(t)
	if len(list) != 2 {
		t.Fatalf("two creates listed %d deployments", len(list))
	}
	got := list[1] // newest first
	if got.ID != b.Deployment.ID || got.Revision != "abc123" || *got.Changelog != "fixed it" || *got.Description != "release 7" ||
		*got.User != "ci-bot" || got.Timestamp != b.Deployment.Timestamp || got.Links.Application != 314221522 {
		t.Fatalf("listed %+v, created %+v", got, *b.Deployment)
	}
	if list[0].Revision != "def456" || list[0].Description != nil {
		t.Fatalf("newest %+v", list[0])
	}
	golden(t, "deployment_create.json", r.body)

	// An explicit timestamp must be later than the latest deployment.
	latest := list[0].Timestamp
	ts, _ := time.Parse(time.RFC3339, latest)
	r, _ = e.post(t, deployPath, `{"deployment":{"revision":"x","timestamp":"`+ts.UTC().Format(time.RFC3339)+`"}}`)
	if r.status != 422 || !strings.Contains(string(r.body), "most recent deployment") {
		t.Fatalf("timestamp equal to the latest: %d %s", r.status, r.body)
	}
}

func TestDeploymentInputRules(t *testing.T) {
	e := newEnv(t)
	long := func(n int) string { return strings.Repeat("r", n) }
	tests := []struct {
		name   string
		body   string
		status int
		field  string
	}{
		{"revision 127", `{"deployment":{"revision":"` + long(127) + `"}}`, 201, ""},
		{"revision 128", `{"deployment":{"revision":"` + long(128) + `"}}`, 422, "revision"},
		{"revision missing", `{"deployment":{"user":"x"}}`, 422, "revision"},
		{"user 31", `{"deployment":{"revision":"a","user":"` + long(31) + `"}}`, 201, ""},
		{"user 32", `{"deployment":{"revision":"a","user":"` + long(32) + `"}}`, 422, "user"},
		{"changelog 65536", `{"deployment":{"revision":"a","changelog":"` + long(65536) + `"}}`, 422, "changelog"},
		{"emoji", `{"deployment":{"revision":"a","description":"ship it 🚀"}}`, 422, "description"},
		{"3-byte UTF-8 is fine", `{"deployment":{"revision":"a","description":"日本語"}}`, 201, ""},
		{"not UTC", `{"deployment":{"revision":"a","timestamp":"2026-11-20T11:00:00+02:00"}}`, 422, "timestamp"},
		{"fractional seconds", `{"deployment":{"revision":"a","timestamp":"2026-11-20T11:00:00.5Z"}}`, 422, "timestamp"},
		{"single quotes", `{'deployment':{'revision':'a'}}`, 400, "JSON"},
		{"no deployment object", `{"revision":"a"}`, 422, "deployment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := e.sim.RequestsByOperation()["DeploymentCreateEvent"]
			r, b := e.post(t, deployPath, tt.body)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			after := e.sim.RequestsByOperation()["DeploymentCreateEvent"]
			if tt.status != 201 {
				if b.Error == nil || !strings.Contains(b.Error.Title, tt.field) {
					t.Fatalf("title %s does not name %s", r.body, tt.field)
				}
				if after != before {
					t.Fatal("a rejected deployment reached NerdGraph")
				}
			}
		})
	}
}

func TestDeploymentTimestampInFuture(t *testing.T) {
	e := newEnv(t)
	future := harness.Clock.Add(time.Second).Format(time.RFC3339)
	before := e.sim.RequestsByOperation()["DeploymentCreateEvent"]
	r, _ := e.post(t, deployPath, `{"deployment":{"revision":"a","timestamp":"`+future+`"}}`)
	if r.status != 422 || !strings.Contains(string(r.body), "future") || e.sim.RequestsByOperation()["DeploymentCreateEvent"] != before {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

func TestDeploymentDeleteIs501(t *testing.T) {
	e := newEnv(t)
	r := e.do(t, http.MethodDelete, "/v2/applications/"+metricApp+"/deployments/123.json", key1, nil)
	if b := decode(t, r); r.status != 501 || b.Error == nil || !strings.Contains(b.Error.Title, "immutable") {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

func TestDeploymentUnknownApp(t *testing.T) {
	e := newEnv(t)
	r, _ := e.post(t, "/v2/applications/1/deployments.json", `{"deployment":{"revision":"a"}}`)
	if r.status != 404 {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

// The upstream applies the mutation but its answer never arrives in time: the caller
// gets 504 saying the deployment may have been recorded, and there is exactly one marker.
func TestDeploymentTimeoutAfterApplyIsNotRetried(t *testing.T) {
	slowAnswer := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if !bytes.Contains(body, []byte("DeploymentCreateEvent")) {
				next.ServeHTTP(w, r)
				return
			}
			rec := &bufferWriter{header: http.Header{}}
			next.ServeHTTP(rec, r) // applied
			time.Sleep(1500 * time.Millisecond)
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.status)
			_, _ = w.Write(rec.body.Bytes())
		})
	}
	// The timeout ends the slow mutation; the key's account lookup before it must fit
	// in it under -race on a loaded machine.
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{}, Sim: []sim.Option{sim.WithMiddleware(slowAnswer)},
		UpstreamTimeout: time.Second})
	e := &env{sim: h.Sim, gw: h.Gateway}
	r, b := e.post(t, deployPath, `{"deployment":{"revision":"once"}}`)
	if r.status != 504 || b.Error == nil || !strings.Contains(b.Error.Title, "may have been recorded") ||
		!strings.Contains(b.Error.Title, "GET /v2/applications/"+metricApp+"/deployments.json (a new deployment can take a few minutes to be listed)") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	time.Sleep(600 * time.Millisecond)
	if n := e.sim.RequestsByOperation()["DeploymentCreateEvent"]; n != 1 {
		t.Fatalf("mutation sent %d times", n)
	}
	if list := e.deployments(t); len(list) != 1 || list[0].Revision != "once" {
		t.Fatalf("markers: %+v", list)
	}
}

type bufferWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferWriter) Header() http.Header { return b.header }
func (b *bufferWriter) WriteHeader(s int)   { b.status = s }
func (b *bufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = 200
	}
	return b.body.Write(p)
}
