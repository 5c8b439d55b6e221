package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// serveCounting sends one request through the gateway's handler with a User key and an
// account; the translator's transport only counts the calls that reach it.
func serveCounting(t *testing.T, method, target, body string) (*httptest.ResponseRecorder, int64) {
	t.Helper()
	g, client := explainGateway(Config{})
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, target, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, target, nil)
	}
	req.Header.Set("X-Api-Key", "NRAK-0123456789ABCDEFGHIJKLMNOPQ")
	req.Header.Set("X-Account-ID", "1000001")
	rec := httptest.NewRecorder()
	g.Handler().ServeHTTP(rec, req)
	return rec, client.calls.Load()
}

// TestConditionParams: a policy_id, entity_id, entity_type or condition_id REST refuses
// is answered without a NerdGraph call; a good one reaches NerdGraph.
func TestConditionParams(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		target     string
		wantStatus int // 0: any status, NerdGraph must be reached
		wantTitle  string
	}{
		{"policy_id 0", "GET", "/v2/alerts_nrql_conditions.json?policy_id=0", 400, "Invalid parameter 'policy_id'"},
		{"policy_id not a number", "GET", "/v2/alerts_nrql_conditions.json?policy_id=abc", 400, "Invalid parameter 'policy_id'"},
		{"policy_id missing", "GET", "/v2/alerts_nrql_conditions.json", 400, "Missing parameter: policy_id"},
		{"policy_id good", "GET", "/v2/alerts_nrql_conditions.json?policy_id=5", 0, ""},
		{"entity_id 0", "GET", "/v2/alerts_entity_conditions/0.json?entity_type=Application", 404, "No entity was found"},
		{"entity_type unknown", "GET", "/v2/alerts_entity_conditions/7.json?entity_type=Bogus", 406, "Bad entity type"},
		{"entity good", "GET", "/v2/alerts_entity_conditions/7.json?entity_type=Application", 0, ""},
		{"condition_id 0", "PUT", "/v2/alerts_entity_conditions/7.json?entity_type=Application&condition_id=0", 400, "Invalid parameter 'condition_id'"},
		{"condition_id -1", "DELETE", "/v2/alerts_entity_conditions/7.json?entity_type=Application&condition_id=-1", 400, "Invalid parameter 'condition_id'"},
		{"condition_id good", "PUT", "/v2/alerts_entity_conditions/7.json?entity_type=Application&condition_id=3", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, calls := serveCounting(t, tt.method, tt.target, "")
			if tt.wantStatus == 0 {
				if calls == 0 {
					t.Errorf("NerdGraph not asked: %d %s", rec.Code, rec.Body)
				}
				return
			}
			if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantTitle) {
				t.Errorf("got %d %s, want %d with %q", rec.Code, rec.Body, tt.wantStatus, tt.wantTitle)
			}
			if calls != 0 {
				t.Errorf("%d NerdGraph calls for a refused request", calls)
			}
		})
	}
}
