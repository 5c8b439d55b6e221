package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
	"go.uber.org/zap"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// accountSpy answers every NerdGraph call with an error after noting the account ids
// its variables name.
type accountSpy struct {
	mu       sync.Mutex
	accounts []string
}

var accountVar = regexp.MustCompile(`"(?:accountId|account_id|id)":\s*(\d+)`)

func (s *accountSpy) MakeRequest(_ context.Context, req *gql.Request, _ *gql.Response) error {
	b, _ := json.Marshal(req.Variables)
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := accountVar.FindSubmatch(b); m != nil {
		s.accounts = append(s.accounts, string(m[1]))
	}
	return &ng.Error{Kind: ng.KindServer, Status: 503, Err: errors.New("spy: not answering")}
}

func (s *accountSpy) first() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.accounts) == 0 {
		return ""
	}
	return s.accounts[0]
}

func TestAccountWithMappedKeys(t *testing.T) {
	legacy := "legacy-rest-key-0123456789abcdef"
	tests := []struct {
		name       string
		path       string
		header     map[string]string
		wantStatus int    // 0: any status; the account is what counts
		wantAcct   string // account NerdGraph is asked about; "" for none
	}{
		{"map gives the account", "/v2/applications.json", nil, 0, "5"},
		{"X-Account-ID overrides the map", "/v2/applications.json", map[string]string{"X-Account-ID": "7"}, 0, "7"},
		{"path overrides the map", "/accounts/9/v2/applications.json", nil, 0, "9"},
		// NewRelic-Account-Id, resolveAccount's alias of X-Account-ID, also names the
		// account over the key map's.
		{"NewRelic-Account-Id overrides the map", "/v2/applications.json", map[string]string{"NewRelic-Account-Id": "8"}, 0, "8"},
		{"path beats the header", "/accounts/9/v2/applications.json", map[string]string{"X-Account-ID": "7"}, 0, "9"},
		{"header account 0 refused", "/v2/applications.json", map[string]string{"X-Account-ID": "0"}, http.StatusBadRequest, ""},
		{"header account -1 refused", "/v2/applications.json", map[string]string{"X-Account-ID": "-1"}, http.StatusBadRequest, ""},
		{"path account 0 refused", "/accounts/0/v2/applications.json", nil, http.StatusBadRequest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spy := &accountSpy{}
			tr := translate.New(spy, translate.Options{})
			g := New(Config{Keys: KeyMap{translate.HashKey(legacy): {UserKey: "NRAK-MAPPED", AccountID: 5}}}, tr, zap.NewNop())
			req := httptest.NewRequest(http.MethodGet, tt.path, nil)
			req.Header.Set("X-Api-Key", legacy)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			g.Handler().ServeHTTP(rec, req)
			if tt.wantStatus != 0 && rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.wantStatus, rec.Body)
			}
			if rec.Code >= 500 && rec.Code != http.StatusBadGateway {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			if got := spy.first(); got != tt.wantAcct {
				t.Errorf("NerdGraph asked about account %q, want %q (status %d %s)", got, tt.wantAcct, rec.Code, rec.Body)
			}
		})
	}
}

// accountsClient answers the Accounts query with its accounts (or its error), and
// UserKeys with its keys (none when unset) or its keysErr.
type accountsClient struct {
	accounts string // JSON list of {"id":n}
	err      error
	keys     string // JSON list of ApiAccessKey objects
	keysErr  error
	keyCalls int
}

func (c *accountsClient) MakeRequest(_ context.Context, req *gql.Request, resp *gql.Response) error {
	if c.err != nil {
		return c.err
	}
	switch req.OpName {
	case "Accounts":
		return json.Unmarshal([]byte(`{"actor":{"accounts":`+c.accounts+`}}`), resp.Data)
	case "UserKeys":
		c.keyCalls++
		if c.keysErr != nil {
			return c.keysErr
		}
		keys := c.keys
		if keys == "" {
			keys = "[]"
		}
		return json.Unmarshal([]byte(`{"actor":{"apiAccess":{"keySearch":{"keys":`+keys+`}}}}`), resp.Data)
	}
	return errors.New("accountsClient: only Accounts and UserKeys")
}

// TestResolveAccount: the key's only account, else default_account_id, else 403 for no
// account and 422 for several; a refused key is a 401, another failure passes.
func TestResolveAccount(t *testing.T) {
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
		var e *restv2.Error
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
