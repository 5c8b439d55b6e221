package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/zap"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// TestOwnAccountOfMultiAccountKey: a key reaching several accounts, with none named, is
// scoped to the account NerdGraph says the key belongs to (ApiAccessUserKey.accountId
// of the caller's own key, found by its value); default_account_id applies first; the
// 422 remains when NerdGraph does not say (the key is not found, the search is refused,
// or the account is not one the key reaches); a refused key is a 401 and a NerdGraph
// failure passes as it is.
func TestOwnAccountOfMultiAccountKey(t *testing.T) {
	const key = "NRAK-OWN-ACCOUNT-TEST"
	const several = `[{"id":7},{"id":8}]`
	own := func(k string, acct int) string {
		return `{"__typename":"ApiAccessUserKey","key":"` + k + `","accountId":` + itoa(int64(acct)) + `}`
	}
	tests := []struct {
		name       string
		client     *accountsClient
		def        int64
		want       int64
		wantSource string
		wantStatus int // 0: no v2 error; -1: an error that is not a v2 error
	}{
		{"the key's own account", &accountsClient{accounts: several, keys: "[" + own("NRAK-OTHER", 7) + "," + own(key, 8) + "]"}, 0, 8, "key", 0},
		{"default_account_id first", &accountsClient{accounts: several, keys: "[" + own(key, 8) + "]"}, 7, 7, "default", 0},
		{"an ingest key is not the caller's", &accountsClient{accounts: several, keys: `[{"__typename":"ApiAccessIngestKey","key":"` + key + `"}]`}, 0, 0, "", 422},
		{"own key not found", &accountsClient{accounts: several, keys: "[" + own("NRAK-OTHER", 8) + "]"}, 0, 0, "", 422},
		{"own account out of reach", &accountsClient{accounts: several, keys: "[" + own(key, 9) + "]"}, 0, 0, "", 422},
		{"search refused", &accountsClient{accounts: several, keysErr: &ng.Error{Kind: ng.KindForbidden, Err: errors.New("no")}}, 0, 0, "", 422},
		{"key refused", &accountsClient{accounts: several, keysErr: &ng.Error{Kind: ng.KindAuth, Err: errors.New("no")}}, 0, 0, "", 401},
		{"NerdGraph down", &accountsClient{accounts: several, keysErr: &ng.Error{Kind: ng.KindServer, Status: 503, Err: errors.New("down")}}, 0, 0, "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(Config{DefaultAccountID: tt.def}, translate.New(tt.client, translate.Options{}), zap.NewNop())
			rq := &request{http: httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil), vars: map[string]string{}}
			ctx := ng.WithAPIKey(context.Background(), key)
			for range 2 { // the second time from the cache
				id, source, err := g.resolveAccount(ctx, rq, translate.HashKey(key))
				var e *restv2.Error
				switch {
				case tt.wantStatus == 0:
					if err != nil || id != tt.want || source != tt.wantSource {
						t.Fatalf("(%d, %q, %v), want (%d, %q)", id, source, err, tt.want, tt.wantSource)
					}
				case tt.wantStatus < 0:
					if err == nil || errors.As(err, &e) {
						t.Fatalf("error %v, want NerdGraph's failure as is", err)
					}
				default:
					if !errors.As(err, &e) || e.Status != tt.wantStatus {
						t.Fatalf("(%d, %q, %v), want status %d", id, source, err, tt.wantStatus)
					}
				}
			}
			if id, _ := g.KeyAccount(key); tt.wantSource == "key" && id != tt.want {
				t.Errorf("KeyAccount (explain's) = %d, want the cached own account %d", id, tt.want)
			}
			if (tt.wantStatus == 0 || tt.wantStatus == 422) && tt.def == 0 && tt.client.keyCalls != 1 {
				t.Errorf("%d key searches for two requests, want 1 (cached per key)", tt.client.keyCalls)
			}
		})
	}
}
