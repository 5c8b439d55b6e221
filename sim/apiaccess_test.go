package sim_test

import (
	"testing"
)

// TestKeySearchOwnKey: a user key search answers the caller's own key whole with the
// account it was created in (NRAK-DEMO-MULTI reaches both demo accounts and belongs to
// 1000001); a scope that excludes it, or a search for ingest keys, finds nothing.
func TestKeySearchOwnKey(t *testing.T) {
	h := demoHarness(t)
	const q = `query($types: [ApiAccessKeyType]!, $accounts: [Int]) { actor { apiAccess {
		keySearch(query: {types: $types, scope: {accountIds: $accounts}}) {
			count keys { key type ... on ApiAccessUserKey { accountId } } } } } }`
	tests := []struct {
		name     string
		key      string
		types    []string
		accounts []int
		wantKey  string
		wantAcct int
	}{
		{"multi-account key", keyMulti, []string{"USER"}, nil, keyMulti, acctOne},
		{"single-account key", keyTwo, []string{"USER"}, nil, keyTwo, acctTwo},
		{"scoped to its account", keyMulti, []string{"USER"}, []int{acctOne}, keyMulti, acctOne},
		{"scoped to another account", keyMulti, []string{"USER"}, []int{acctTwo}, "", 0},
		{"ingest keys", keyMulti, []string{"INGEST"}, nil, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out struct {
				Actor struct {
					APIAccess struct {
						KeySearch struct {
							Count int
							Keys  []struct {
								Key, Type string
								AccountID int `json:"accountId"`
							}
						}
					} `json:"apiAccess"`
				}
			}
			vars := map[string]any{"types": tt.types}
			if tt.accounts != nil {
				vars["accounts"] = tt.accounts
			}
			h.mustQuery(t, tt.key, q, vars, &out)
			ks := out.Actor.APIAccess.KeySearch
			if tt.wantKey == "" {
				if ks.Count != 0 || len(ks.Keys) != 0 {
					t.Fatalf("found %+v, want none", ks)
				}
				return
			}
			if ks.Count != 1 || len(ks.Keys) != 1 || ks.Keys[0].Key != tt.wantKey || ks.Keys[0].AccountID != tt.wantAcct || ks.Keys[0].Type != "USER" {
				t.Fatalf("found %+v, want %s of account %d", ks, tt.wantKey, tt.wantAcct)
			}
		})
	}
}
