package sim_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
)

// The gateway's own operations (graphql/operations) must run against the simulator
// without validation errors and without "not supported" answers.
func TestGatewayOperations(t *testing.T) {
	doc := ng.OperationsDocument()
	runner := sim.NRQLRunnerFunc(func(context.Context, []int, string, time.Time) ([]map[string]any, time.Time, time.Time, error) {
		return []map[string]any{}, time.Time{}, time.Time{}, nil
	})
	h := demoHarness(t, sim.WithNRQL(runner))
	d := loadDemo(t)
	app := findApp(t, d, acctOne, func(a sim.APMApplication) bool { return a.Browser != nil && a.Reporting })
	apmQ := "domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001"
	browserQ := "domain = 'BROWSER' AND type = 'APPLICATION' AND accountId = 1000001"
	tests := []struct {
		op   string
		vars map[string]any
	}{
		{op: "Accounts"},
		{op: "UserKeys"},
		{op: "AppList", vars: map[string]any{"query": apmQ, "browserQuery": browserQ, "accountId": acctOne, "inventory": "SELECT 1", "withInventory": true}},
		{op: "AppShow", vars: map[string]any{"guid": appGUID(acctOne, app.ID), "accountId": acctOne, "inventory": "SELECT 1"}},
		{op: "BrowserPage", vars: map[string]any{"query": browserQ}},
		{op: "AppSearchPage", vars: map[string]any{"query": apmQ}},
		{op: "AppCursor", vars: map[string]any{"query": apmQ}},
		{op: "NrqlConditions", vars: map[string]any{"accountId": acctOne, "criteria": map[string]any{"policyId": "1001"}}},
		{op: "NrqlCondition", vars: map[string]any{"accountId": acctOne, "id": "6102"}},
		{op: "AsNrqlConditions", vars: map[string]any{"accountId": acctOne,
			"criteria": map[string]any{"policyId": "1004", "sourceProduct": []string{"APM", "BROWSER", "MOBILE", "SERVERS"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			if !strings.Contains(doc, "query "+tt.op) {
				t.Skipf("operation %s not defined", tt.op)
			}
			body, _ := json.Marshal(map[string]any{"query": doc, "operationName": tt.op, "variables": tt.vars})
			status, b := h.postRaw(t, keyOne, body)
			var r gqlResp
			if err := json.Unmarshal(b, &r); err != nil || status != http.StatusOK {
				t.Fatalf("status %d body %s", status, b)
			}
			if len(r.Errors) > 0 || len(r.Data) == 0 || string(r.Data) == "null" {
				t.Fatalf("errors %+v", r.Errors)
			}
		})
	}
	if got := h.sim.RequestsByOperation()["AppShow"]; got != 1 {
		t.Errorf("AppShow counted %d times", got)
	}
}
