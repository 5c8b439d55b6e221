package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/migrate"
)

func TestExplainCommand(t *testing.T) {
	dir := t.TempDir()
	bodyFile := filepath.Join(dir, "deployment.json")
	if err := os.WriteFile(bodyFile, []byte(`{"deployment":{"revision":"from-file"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(dir, "v2bridge.yaml")
	if err := os.WriteFile(cfgFile, []byte("default_account_id: 77\nuse_create_deployment: true\nroutes:\n  applications.show: passthrough\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	likeFile := filepath.Join(dir, "like.yaml")
	if err := os.WriteFile(likeFile, []byte("name_filter: like\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const metricData = "GET /v2/applications/123/metrics/data.json?names[]=HttpDispatcher&values[]=call_count"
	tests := []struct {
		name  string
		args  []string
		stdin string
		check func(t *testing.T, x migrate.Explanation)
	}{
		{"metric data", []string{"--account", "1000001", metricData}, "", func(t *testing.T, x migrate.Explanation) {
			if x.Route != "applications.metric_data" || len(x.Calls) != 1 || x.Calls[0].Operation != "MetricData" ||
				len(x.Calls[0].NRQL) != 1 || !strings.Contains(x.Calls[0].NRQL[0], "'HttpDispatcher'") || x.Account.ID != 1000001 {
				t.Fatalf("%+v", x)
			}
		}},
		{"flags after the request, unquoted", []string{"GET", "/v2/applications.json", "--account", "5"}, "", func(t *testing.T, x migrate.Explanation) {
			if x.Route != "applications.list" || x.Account.ID != 5 || x.Calls[0].Operation != "AppList" {
				t.Fatalf("%+v", x)
			}
		}},
		{"body on standard input", []string{"--account", "5", "--data", "-", "POST /v2/applications/123/deployments.json"},
			`{"deployment":{"revision":"from-stdin"}}`, func(t *testing.T, x migrate.Explanation) {
				if len(x.Calls) != 1 || x.Calls[0].Kind != "mutation" || !strings.Contains(string(x.Calls[0].Variables), "from-stdin") {
					t.Fatalf("%+v", x.Calls)
				}
			}},
		{"body from a file, configuration", []string{"--config", cfgFile, "--data", "@" + bodyFile, "POST /v2/applications/123/deployments.json"}, "",
			func(t *testing.T, x migrate.Explanation) {
				// use_create_deployment picks changeTrackingCreateDeployment; default_account_id scopes it.
				if x.Account.ID != 77 || x.Account.Source != "default_account_id" || len(x.Calls) != 1 || x.Calls[0].Operation != "DeploymentCreate" ||
					!strings.Contains(string(x.Calls[0].Variables), "from-file") {
					t.Fatalf("%+v", x)
				}
			}},
		{"route in passthrough mode", []string{"--config", cfgFile, "GET /v2/applications/1.json"}, "", func(t *testing.T, x migrate.Explanation) {
			if x.Mode != gateway.ModePassthrough || !strings.Contains(x.ModeNote, "forwards") || len(x.Calls) != 1 {
				t.Fatalf("%+v", x)
			}
		}},
		{"name_filter: like", []string{"--config", likeFile, "--account", "5", "GET /v2/applications.json?filter[name]=heck"}, "", func(t *testing.T, x migrate.Explanation) {
			if len(x.Calls) == 0 || x.Calls[0].Operation != "AppNamePage" || !strings.Contains(string(x.Calls[0].Variables), "name LIKE 'heck'") {
				t.Fatalf("%+v", x.Calls)
			}
		}},
		{"name_filter: read", []string{"--account", "5", "GET /v2/applications.json?filter[name]=heck"}, "", func(t *testing.T, x migrate.Explanation) {
			if len(x.Calls) == 0 || strings.Contains(string(x.Calls[0].Variables), "LIKE") {
				t.Fatalf("%+v", x.Calls)
			}
		}},
		{"retired", []string{"GET /v2/labels.json"}, "", func(t *testing.T, x migrate.Explanation) {
			if x.Fidelity != gateway.Unsupported || x.Answer.Status != 410 || len(x.Calls) != 0 {
				t.Fatalf("%+v", x)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), append([]string{"explain", "--format", "json"}, tt.args...), strings.NewReader(tt.stdin), &out, &errOut)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut.String())
			}
			var x migrate.Explanation
			if err := json.Unmarshal(out.Bytes(), &x); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			tt.check(t, x)
		})
	}
}

func TestExplainCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "give the request"},
		{[]string{"GET /v2/applications.json"}, "422 Name the account"},
		{[]string{"--account", "1", "GET /v2/unknown.json"}, "404 No route"},
		{[]string{"--account", "-3", "GET /v2/applications.json"}, "not an account id"},
		{[]string{"--account", "1", "OPTIONS /v2/applications.json"}, "400"},
		{[]string{"--data", "@/nonexistent/body.json", "POST /v2/applications/1/deployments.json"}, "--data"},
		{[]string{"--bogus", "GET /v2/applications.json"}, "bogus"},
		{[]string{"--format", "yaml", "--account", "1", "GET /v2/applications.json"}, "not text or json"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		err := run(context.Background(), append([]string{"explain"}, tt.args...), strings.NewReader(""), &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("explain %q: %v, want an error with %q", tt.args, err, tt.want)
		}
		if out.Len() != 0 {
			t.Errorf("explain %q printed %s", tt.args, out.String())
		}
	}
}

// By default explain prints for people: the documents as written, one line of GraphQL a
// line, not JSON's escaped string.
func TestExplainCommandPrintsForPeople(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"explain", "--account", "1000001", "GET /v2/applications/123.json"}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "NerdGraph call 1: query ") || !strings.Contains(out.String(), "\n    actor {\n") ||
		strings.Contains(out.String(), `\n`) || strings.HasPrefix(out.String(), "{") {
		t.Errorf("explain prints:\n%s", out.String())
	}
}
