package e2e

import (
	"strings"
	"testing"
)

// Write bodies with bytes REST v2 would not store are refused with a 422 naming the
// field, judged on the raw bytes; tab, newline and surrogate pairs
// stay allowed.
func TestWriteBodyTextRules(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        string
		status      int
		field       string
	}{
		{"deployment: invalid UTF-8", "POST", deployPath, "application/json", "{\"deployment\":{\"revision\":\"v1\xff\xfe\"}}", 422, "deployment.revision"},
		{"deployment: lone surrogate", "POST", deployPath, "application/json", `{"deployment":{"revision":"v1","user":"a\ud800b"}}`, 422, "deployment.user"},
		{"deployment: lone low surrogate", "POST", deployPath, "application/json", `{"deployment":{"revision":"v1","description":"\udc00"}}`, 422, "deployment.description"},
		{"deployment: NUL", "POST", deployPath, "application/json", `{"deployment":{"revision":"v1\u0000"}}`, 422, "deployment.revision"},
		{"deployment: bell", "POST", deployPath, "application/json", `{"deployment":{"revision":"v1","changelog":"a\u0007"}}`, 422, "deployment.changelog"},
		{"deployment: raw DEL", "POST", deployPath, "application/json", "{\"deployment\":{\"revision\":\"v1\x7f\"}}", 422, "deployment.revision"},
		{"deployment: form NUL", "POST", deployPath, "application/x-www-form-urlencoded", "deployment[revision]=v1%00", 422, "deployment[revision]"},
		{"deployment: form invalid UTF-8", "POST", deployPath, "application/x-www-form-urlencoded", "deployment[revision]=v1&deployment[user]=%FF", 422, "deployment[user]"},
		{"legacy deployment: invalid UTF-8", "POST", "/deployments.xml", "application/x-www-form-urlencoded", "deployment[application_id]=" + metricApp + "&deployment[revision]=%C3%28", 422, "deployment[revision]"},
		{"application name: invalid UTF-8", "PUT", "/v2/applications/314221522.json", "application/json", "{\"application\":{\"name\":\"x\xff\"}}", 422, "application.name"},
		{"application name: lone surrogate", "PUT", "/v2/applications/314221522.json", "application/json", `{"application":{"name":"\ud800"}}`, 422, "application.name"},
		{"application name: NUL", "PUT", "/v2/applications/314221522.json", "application/json", `{"application":{"name":"a\u0000b"}}`, 422, "application.name"},
		{"deployment: tab, newline, escaped é allowed", "POST", deployPath, "application/json", `{"deployment":{"revision":"v-ok-1","changelog":"line 1\n\tline 2 \u00e9"}}`, 201, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(t, tt.method, tt.path, key1, strings.NewReader(tt.body), "Content-Type", tt.contentType)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.field != "" && !strings.Contains(string(r.body), tt.field) {
				t.Fatalf("the error does not name %s: %s", tt.field, r.body)
			}
		})
	}
}
