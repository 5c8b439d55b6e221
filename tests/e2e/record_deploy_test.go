package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// recordDeploy does what the New Relic Python agent's `newrelic-admin record-deploy`
// (v13.5.0) does (newrelic/newrelic-python-agent newrelic/admin/record_deploy.py and
// newrelic/common/agent_http.py): look the application up by name with
// GET /v2/applications.json?filter[name]=..., keep the application whose name equals it
// (any case), then POST {"deployment":{...}} to its deployments.json with X-Api-Key and
// Content-Type: application/json, the body gzip-compressed with Content-Encoding: gzip
// when over 64 KiB and marked Content-Encoding: Identity otherwise. It names no
// account. It returns the POST's answer.
func recordDeploy(t *testing.T, e *env, key, appName string, deployment map[string]string) response {
	t.Helper()
	identity := []string{"Accept-Encoding", "identity"} // Python's http.client sends it
	lookup := e.get(t, "/v2/applications.json?"+url.Values{"filter[name]": {appName}}.Encode(), key, identity...)
	if lookup.status != 200 {
		t.Fatalf("application lookup: %d %s", lookup.status, lookup.body)
	}
	var id int64
	for _, a := range decode(t, lookup).Applications {
		if strings.EqualFold(a.Name, appName) {
			id = a.ID
		}
	}
	if id == 0 {
		t.Fatalf("the application named %q was not found: %s", appName, lookup.body)
	}
	payload, err := json.Marshal(map[string]any{"deployment": deployment})
	if err != nil {
		t.Fatal(err)
	}
	body, encoding := payload, "Identity"
	if len(payload) > 64*1024 {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write(payload)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		body, encoding = b.Bytes(), "gzip"
	}
	return e.do(t, "POST", "/v2/applications/"+itoa64(id)+"/deployments.json", key, bytes.NewReader(body),
		"Content-Type", "application/json", "Content-Encoding", encoding, "Accept-Encoding", "identity")
}

func itoa64(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// record-deploy with the multi-account key and no account: the application is found in
// the account the key belongs to (1000001, where "O'Reilly Books" lives), and both a
// deployment with a long changelog (sent gzip-compressed) and a short one (sent marked
// Identity) are recorded (201) whole.
func TestRecordDeployCompressedWithMultiAccountKey(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name       string
		deployment map[string]string
	}{
		{"long changelog, gzip", map[string]string{"revision": "v2.0.0", "description": strings.Repeat("Release notes. ", 2000),
			"changelog": strings.Repeat("- fixed a bug in the checkout flow\n", 1800), "user": "deployer"}},
		{"short, Identity", map[string]string{"revision": "v2.0.1", "description": "hotfix", "user": "deployer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := recordDeploy(t, e, keyMulti, "o'reilly books", tt.deployment)
			if r.status != 201 {
				t.Fatalf("POST deployment: %d %.300s", r.status, r.body)
			}
			if got := r.header.Get("X-V2bridge-Account"); got != "1000001" {
				t.Errorf("X-V2bridge-Account %q, want the key's own account 1000001", got)
			}
			var created struct {
				Deployment map[string]any `json:"deployment"`
			}
			if err := json.Unmarshal(r.body, &created); err != nil {
				t.Fatalf("decode %.200s: %v", r.body, err)
			}
			for k, want := range tt.deployment {
				if got, _ := created.Deployment[k].(string); got != want {
					t.Errorf("deployment.%s: %d characters recorded, want %d", k, len(got), len(want))
				}
			}
		})
	}
}
