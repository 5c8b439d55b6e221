package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"go.uber.org/zap"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate"
)

// failingClient answers every NerdGraph call with a server error (v2: 502) and counts.
type failingClient struct{ calls atomic.Int64 }

func (c *failingClient) MakeRequest(context.Context, *gql.Request, *gql.Response) error {
	c.calls.Add(1)
	return &ng.Error{Kind: ng.KindServer, Status: 503, Err: errors.New("failingClient: not answering")}
}

func serveFailing(t *testing.T, method, target, body string) (*httptest.ResponseRecorder, int64) {
	t.Helper()
	c := &failingClient{}
	now := func() time.Time { return explainClock }
	g := New(Config{Now: now}, translate.New(c, translate.Options{Now: now}), zap.NewNop())
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
	return rec, c.calls.Load()
}

func TestRouteParams(t *testing.T) {
	tests := []struct {
		method, target, body string
		wantStatus           int
		wantTitle            string // prefix of the error title; "" with a 502 (NerdGraph's failure)
	}{
		// handleViolations: each parameter's error, then the translator's.
		{"GET", "/v2/alerts_violations.json?start_date=bogus", "", 400, "Invalid parameter 'start_date'"},
		{"GET", "/v2/alerts_violations.json?end_date=bogus", "", 400, "Invalid parameter 'end_date'"},
		{"GET", "/v2/alerts_violations.json?only_open=maybe", "", 400, "Invalid parameter 'only_open'"},
		{"GET", "/v2/alerts_violations.json?page=x", "", 400, "Invalid parameter 'page'"},
		{"GET", "/v2/alerts_violations.json?start_date=2026-01-01T00:00:00Z&end_date=2026-01-02T00:00:00Z&only_open=true&page=2", "", 502, ""},
		// handleIncidents
		{"GET", "/v2/alerts_incidents.json?only_open=maybe", "", 400, "Invalid parameter 'only_open'"},
		{"GET", "/v2/alerts_incidents.json?exclude_violations=maybe", "", 400, "Invalid parameter 'exclude_violations'"},
		{"GET", "/v2/alerts_incidents.json?page=x", "", 400, "Invalid parameter 'page'"},
		{"GET", "/v2/alerts_incidents.json?only_open=true&exclude_violations=false", "", 502, ""},
		// the alert policy routes
		{"GET", "/v2/alerts_policies.json?page=x", "", 400, "Invalid parameter 'page'"},
		{"GET", "/v2/alerts_policies.json", "", 502, ""},
		{"POST", "/v2/alerts_policies.json", "{", 400, "The request body is not valid JSON"},
		{"POST", "/v2/alerts_policies.json", "{}", 422, "Validation or internal error occurred"},
		{"POST", "/v2/alerts_policies.json", `{"policy":{"name":"p","incident_preference":"PER_POLICY"}}`, 502, ""},
		{"PUT", "/v2/alerts_policies/0.json", `{"policy":{"name":"p"}}`, 404, "No Alerts policy was found"},
		{"PUT", "/v2/alerts_policies/5.json", "{", 400, "The request body is not valid JSON"},
		{"PUT", "/v2/alerts_policies/5.json", `{"policy":{"name":"p"}}`, 502, ""},
		{"DELETE", "/v2/alerts_policies/0.json", "", 404, "No Alerts policy was found"},
		{"DELETE", "/v2/alerts_policies/5.json", "", 502, ""},
		// the mobile application routes
		{"GET", "/v2/mobile_applications.json?page=x", "", 400, "Invalid parameter 'page'"},
		{"GET", "/v2/mobile_applications.json", "", 502, ""},
		{"GET", "/v2/mobile_applications/0.json", "", 404, "No Mobile Application found"},
		{"GET", "/v2/mobile_applications/5.json", "", 502, ""},
		{"POST", "/v2/mobile_applications.json", "{", 400, "The request body is not valid JSON"},
		{"POST", "/v2/mobile_applications.json", "{}", 422, "The request body needs a"},
		{"POST", "/v2/mobile_applications.json", `{"mobile_application":{"name":"m"}}`, 502, ""},
		// the key transaction routes
		{"GET", "/v2/key_transactions.json?filter[ids]=x", "", 400, "Invalid parameter 'filter[ids]'"},
		{"GET", "/v2/key_transactions.json?page=x", "", 400, "Invalid parameter 'page'"},
		{"GET", "/v2/key_transactions.json?filter[ids]=1,2&page=1", "", 502, ""},
		{"GET", "/v2/key_transactions/0.json", "", 404, "No Key Transaction found"},
		{"GET", "/v2/key_transactions/5.json", "", 502, ""},
		// the application routes
		{"GET", "/v2/applications.json?filter[ids]=x", "", 400, "Invalid parameter 'filter[ids]'"},
		{"GET", "/v2/applications.json?filter[id]=x", "", 400, "Invalid parameter 'filter[id]'"},
		{"GET", "/v2/applications.json?exclude_links=maybe", "", 400, "Invalid parameter 'exclude_links'"},
		{"GET", "/v2/applications.json?page=x", "", 400, "Invalid parameter 'page'"},
		{"GET", "/v2/applications.json?filter[ids]=1&filter[id]=2&exclude_links=true", "", 502, ""},
		{"GET", "/v2/applications/99999999999999999999.json", "", 404, "No Application found"},
		{"GET", "/v2/applications/5.json", "", 502, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target+" "+tt.body, func(t *testing.T) {
			rec, calls := serveFailing(t, tt.method, tt.target, tt.body)
			if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), `{"error":{"title":"`+tt.wantTitle) {
				t.Errorf("got %d %s, want %d with title %q", rec.Code, rec.Body, tt.wantStatus, tt.wantTitle)
			}
			if tt.wantStatus == 502 && calls == 0 {
				t.Error("NerdGraph not asked")
			}
			if tt.wantStatus != 502 && calls != 0 {
				t.Errorf("%d NerdGraph calls for a refused request", calls)
			}
		})
	}
}
