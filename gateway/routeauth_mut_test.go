package gateway

// Which key a route takes (issue 22, routes.go's handler; written ahead of gremlins
// reaching routes.go: the mutants named were applied by hand to main's lines, 543 and
// 546, and are killed).

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLegacyLicenseKeyMut: the pre-v2 deployments route takes X-License-Key when no
// API key is sent, and an API key when one is; no key at all is a 401; a v2 route does
// not take X-License-Key.
// Kills routes.go:482 (f9be12a) CONDITIONALS_NEGATION (`key == "" && rt.Legacy` →
// `key != ""`: the API key replaced by the absent license key) and :485
// CONDITIONALS_NEGATION (`key == ""` → `!=`).
func TestLegacyLicenseKeyMut(t *testing.T) {
	const key = "NRAK-0123456789ABCDEFGHIJKLMNOPQ"
	tests := []struct {
		name, target, header string
		want401              bool
	}{
		{"legacy, license key", "/deployments.xml", "X-License-Key", false},
		{"legacy, API key", "/deployments.xml", "X-Api-Key", false},
		{"legacy, no key", "/deployments.xml", "", true},
		{"v2, license key", "/v2/applications/5/deployments.json", "X-License-Key", true},
		{"v2, API key", "/v2/applications/5/deployments.json", "X-Api-Key", false},
	}
	for _, tt := range tests {
		g, client := explainGateway(Config{})
		req := httptest.NewRequest("POST", tt.target, strings.NewReader("deployment[application_id]=5&deployment[revision]=r1"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if tt.header != "" {
			req.Header.Set(tt.header, key)
		}
		req.Header.Set("X-Account-ID", "1000001")
		rec := httptest.NewRecorder()
		g.Handler().ServeHTTP(rec, req)
		got401 := rec.Code == 401 && strings.Contains(rec.Body.String(), "No API key specified")
		if got401 != tt.want401 {
			t.Errorf("%s: %d %s, want 401 %v", tt.name, rec.Code, rec.Body, tt.want401)
		}
		if !tt.want401 && client.calls.Load() == 0 {
			t.Errorf("%s: NerdGraph not asked", tt.name)
		}
	}
}
