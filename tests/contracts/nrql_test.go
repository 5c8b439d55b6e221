package contracts

import (
	"encoding/json"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// TestNrqlRecordingsDecode decodes recorded nrql answers with the generated NrqlQuery
// types: results is a list of JSON objects, one per row, whose aggregates are numbers
// named by the function (count) and whose facet attribute keeps its own name. The
// client-go fixture of a FACET query has no "facet" key; the gateway's facet readers
// (alerts_violations' incidentId, the host summaries) read "facet" or the attribute's
// own name (README, "FACET rows" names the recording that would settle which).
func TestNrqlRecordingsDecode(t *testing.T) {
	tests := []struct {
		file     string
		rows     int
		wantKeys []string
	}{
		{file: "NrqlQuery.docs-count.json", rows: 1, wantKeys: []string{"count"}},
		{file: "NrqlQuery.clientgo-facet.json", rows: 2, wantKeys: []string{"count", "appName"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, client, ctx, _ := setup(t, map[string]recording{"NrqlQuery": {file: tt.file}})
			resp, err := ng.NrqlQuery(ctx, client, account, "SELECT count(*) FROM Transaction")
			if err != nil {
				t.Fatal(err)
			}
			acct := resp.GetActor().GetAccount()
			if acct == nil || acct.Nrql == nil || len(acct.Nrql.Results) != tt.rows {
				t.Fatalf("nrql decoded as %+v", acct)
			}
			for i, raw := range acct.Nrql.Results {
				var row map[string]any
				if raw == nil || json.Unmarshal(*raw, &row) != nil {
					t.Fatalf("row %d is not a JSON object", i)
				}
				for _, k := range tt.wantKeys {
					if _, ok := row[k]; !ok {
						t.Errorf("row %d has no %q: %v", i, k, row)
					}
				}
				if _, ok := row["count"].(float64); !ok {
					t.Errorf("row %d count is %T, want a number", i, row["count"])
				}
			}
		})
	}
}
