package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/translate"
)

// TestLegacyLicenseKey: the pre-v2 deployments route takes X-License-Key when no API key
// is sent, and an API key when one is; no key at all is a 401; a v2 route does not take
// X-License-Key.
func TestLegacyLicenseKey(t *testing.T) {
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

// answeringClient answers NerdGraph operations by name with answer's data (marshalled
// into the operation's response), noting each call's operation, variables and whether
// its context had a deadline.
type answeringClient struct {
	answer func(op string, vars map[string]any) (any, error)

	mu    sync.Mutex
	ops   []string
	vars  []map[string]any
	timed []bool
}

func (c *answeringClient) MakeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) error {
	b, err := json.Marshal(req.Variables)
	if err != nil {
		return err
	}
	vars := map[string]any{}
	if err := json.Unmarshal(b, &vars); err != nil {
		return err
	}
	_, timed := ctx.Deadline()
	c.mu.Lock()
	c.ops, c.vars, c.timed = append(c.ops, req.OpName), append(c.vars, vars), append(c.timed, timed)
	c.mu.Unlock()
	data, err := c.answer(req.OpName, vars)
	if err != nil {
		return err
	}
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(body, resp.Data)
}

// mobileAnswer is one mobile application (id 31) for MobileSearch.
func mobileAnswer(op string, _ map[string]any) (any, error) {
	if op != "MobileSearch" {
		return nil, fmt.Errorf("answeringClient: unexpected %s", op)
	}
	return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{"results": map[string]any{
		"nextCursor": nil,
		"entities": []any{map[string]any{"__typename": "MobileApplicationEntityOutline", "guid": "MOBILE-31",
			"accountId": 1000001, "name": "phone", "reporting": false, "applicationId": 31}},
	}}}}, nil
}

// serveAnswering sends one request with a User key and an account through a gateway
// whose NerdGraph is c.
func serveAnswering(t *testing.T, cfg Config, c *answeringClient, r *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	now := func() time.Time { return explainClock }
	if cfg.Now == nil {
		cfg.Now = now
	}
	g := New(cfg, translate.New(c, translate.Options{Now: cfg.Now}), zap.NewNop())
	if r.Header.Get("X-Api-Key") == "" {
		r.Header.Set("X-Api-Key", "NRAK-0123456789ABCDEFGHIJKLMNOPQ")
	}
	r.Header.Set("X-Account-ID", "1000001")
	rec := httptest.NewRecorder()
	g.Handler().ServeHTTP(rec, r)
	return rec
}

// TestRouteAnswer: a list NerdGraph answers is a 200 with its document; a Link header
// only when there is more than one page (none at all on a single page, not an empty one).
func TestRouteAnswer(t *testing.T) {
	tests := []struct {
		target   string
		wantBody string
		wantLink string // "" with no Link header at all
	}{
		{"/v2/mobile_applications.json",
			`{"mobile_applications":[{"id":31,"name":"phone","health_status":"gray","reporting":false}]}`, ""},
		{"/v2/mobile_applications.json?page=2", `{"mobile_applications":[]}`,
			`<http://gw.test/v2/mobile_applications.json?page=1>; rel="first", <http://gw.test/v2/mobile_applications.json?page=1>; rel="prev"`},
	}
	for _, tt := range tests {
		c := &answeringClient{answer: mobileAnswer}
		rec := serveAnswering(t, Config{PublicURL: "http://gw.test"}, c, httptest.NewRequest(http.MethodGet, tt.target, nil))
		if rec.Code != http.StatusOK || rec.Body.String() != tt.wantBody {
			t.Errorf("GET %s: %d %q, want 200 %q", tt.target, rec.Code, rec.Body, tt.wantBody)
		}
		links, has := rec.Header()["Link"]
		if tt.wantLink == "" && has {
			t.Errorf("GET %s: Link %q, want no Link header", tt.target, links)
		}
		if tt.wantLink != "" && rec.Header().Get("Link") != tt.wantLink {
			t.Errorf("GET %s: Link %q, want %q", tt.target, rec.Header().Get("Link"), tt.wantLink)
		}
	}
}

// TestRequestDeadlineOnCalls: a request's deadline travels with its NerdGraph call
// counter (the graphql client arms it), not as a context timer armed for every request,
// cached or not.
func TestRequestDeadlineOnCalls(t *testing.T) {
	c := &answeringClient{answer: mobileAnswer}
	rec := serveAnswering(t, Config{}, c, httptest.NewRequest(http.MethodGet, "/v2/mobile_applications.json", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if len(c.timed) != 1 || c.timed[0] {
		t.Errorf("NerdGraph calls %v with a context deadline %v, want one call without (the deadline is on the call counter)", c.ops, c.timed)
	}
}

// TestRateLimitRetryAfter: the 429 of the per-key limit says to retry when the window
// ends, in whole seconds rounded up.
func TestRateLimitRetryAfter(t *testing.T) {
	g := New(Config{RateLimitPerMinute: 1}, nil, nil)
	future := time.Now().Add(10 * time.Minute).Truncate(time.Minute)
	g.limit.now = func() time.Time { return future }
	call := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
		req.Header.Set("X-Api-Key", "NRAK-A")
		req.Header.Set("X-Account-ID", "not-a-number") // stops before any upstream call
		rec := httptest.NewRecorder()
		g.Handler().ServeHTTP(rec, req)
		return rec
	}
	if rec := call(); rec.Code == http.StatusTooManyRequests {
		t.Fatal("first call limited")
	}
	before := time.Until(future.Add(time.Minute))
	rec := call()
	after := time.Until(future.Add(time.Minute))
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("second call: %d, want 429", rec.Code)
	}
	ra, err := strconv.Atoi(rec.Header().Get("Retry-After"))
	if lo, hi := int(after.Seconds())+1, int(before.Seconds())+1; err != nil || ra < lo || ra > hi {
		t.Errorf("Retry-After %q, want %d..%d (the seconds to the window's end, rounded up)", rec.Header().Get("Retry-After"), lo, hi)
	}
}
