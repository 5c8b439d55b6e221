package gateway

// X-Account-ID with mapped keys (issue 22, parameter boundaries): which account a
// request is scoped to when the key map (keys:) gives one, the path or a header names
// one, or both. Written against mutants of routes.go (`acct == 0 || ...` and the
// X-Account-Id override) and request.go resolveAccount (`id <= 0` → `< 0`).

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

func TestAccountWithMappedKeysMut(t *testing.T) {
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
		// Bug found while writing this test: with a mapped key the NewRelic-Account-Id
		// header (accepted by resolveAccount as an alias of X-Account-ID) was ignored and
		// the request silently ran against the key map's account.
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
