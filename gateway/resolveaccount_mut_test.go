package gateway

// Which account a request without a path or header account is scoped to (issue 22,
// request.go resolveAccount, lines of f9be12a and main: written ahead of gremlins
// reaching request.go; every mutant named was applied by hand and is killed).

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
	"go.uber.org/zap"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// accountsClient answers the Accounts query with its accounts (or its error).
type accountsClient struct {
	accounts string // JSON list of {"id":n}
	err      error
}

func (c *accountsClient) MakeRequest(_ context.Context, req *gql.Request, resp *gql.Response) error {
	if c.err != nil {
		return c.err
	}
	if req.OpName != "Accounts" {
		return errors.New("accountsClient: only Accounts")
	}
	return json.Unmarshal([]byte(`{"actor":{"accounts":`+c.accounts+`}}`), resp.Data)
}

// TestResolveAccountMut: the key's only account, else default_account_id, else 403 for
// no account and 422 for several; a refused key is a 401, another failure passes.
// Kills request.go:128 CONDITIONALS_NEGATION (`err != nil`), :130 CONDITIONALS_NEGATION
// (`ge.Kind == ng.KindAuth`), :135 (`len(ids) == 1`), :138 (`DefaultAccountID != 0`),
// :141 (`len(ids) == 0`).
func TestResolveAccountMut(t *testing.T) {
	tests := []struct {
		name       string
		client     *accountsClient
		def        int64
		want       int64
		wantSource string
		wantStatus int // 0: no v2 error; -1: an error that is not a v2 error
	}{
		{"one account", &accountsClient{accounts: `[{"id":7}]`}, 0, 7, "single", 0},
		{"one account beats the default", &accountsClient{accounts: `[{"id":7}]`}, 9, 7, "single", 0},
		{"several, default", &accountsClient{accounts: `[{"id":7},{"id":8}]`}, 9, 9, "default", 0},
		{"none, default", &accountsClient{accounts: `[]`}, 9, 9, "default", 0},
		{"several, no default", &accountsClient{accounts: `[{"id":7},{"id":8}]`}, 0, 0, "", 422},
		{"none, no default", &accountsClient{accounts: `[]`}, 0, 0, "", 403},
		{"key refused", &accountsClient{err: &ng.Error{Kind: ng.KindAuth, Err: errors.New("no")}}, 0, 0, "", 401},
		{"NerdGraph down", &accountsClient{err: &ng.Error{Kind: ng.KindServer, Status: 503, Err: errors.New("down")}}, 9, 0, "", -1},
	}
	for _, tt := range tests {
		g := New(Config{DefaultAccountID: tt.def}, translate.New(tt.client, translate.Options{}), zap.NewNop())
		rq := &request{http: httptest.NewRequest("GET", "/v2/applications.json", nil), vars: map[string]string{}}
		id, source, err := g.resolveAccount(context.Background(), rq, translate.HashKey("NRAK-"+tt.name))
		var e *v2.Error
		switch {
		case tt.wantStatus == 0:
			if err != nil || id != tt.want || source != tt.wantSource {
				t.Errorf("%s: (%d, %q, %v), want (%d, %q)", tt.name, id, source, err, tt.want, tt.wantSource)
			}
		case tt.wantStatus < 0:
			if err == nil || errors.As(err, &e) {
				t.Errorf("%s: error %v, want NerdGraph's failure as is", tt.name, err)
			}
		default:
			if !errors.As(err, &e) || e.Status != tt.wantStatus {
				t.Errorf("%s: (%d, %q, %v), want status %d", tt.name, id, source, err, tt.wantStatus)
			}
		}
	}
}
