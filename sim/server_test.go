package sim_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
)

const accountsQuery = `query Accounts { actor { accounts { id name } } }`

func TestAuth(t *testing.T) {
	h := demoHarness(t)
	const unauthorized = `{"errors":[{"message":"Invalid API key","extensions":{"errorClass":"UNAUTHORIZED","error_code":"BAD_API_KEY"}}]}`
	tests := []struct {
		name       string
		header     string
		key        string
		wantStatus int
	}{
		{name: "missing key", wantStatus: http.StatusUnauthorized},
		{name: "unknown key", header: "API-Key", key: "NRAK-NOT-A-KEY", wantStatus: http.StatusUnauthorized},
		{name: "empty key", header: "API-Key", key: "", wantStatus: http.StatusUnauthorized},
		{name: "rest key header is not NerdGraph's", header: "X-Api-Key", key: keyOne, wantStatus: http.StatusUnauthorized},
		{name: "canonical header", header: "API-Key", key: keyOne, wantStatus: http.StatusOK},
		{name: "lower-case header", header: "api-key", key: keyOne, wantStatus: http.StatusOK},
		{name: "upper-case header", header: "API-KEY", key: keyMulti, wantStatus: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, h.url, strings.NewReader(`{"query":"`+accountsQuery+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			if tt.header != "" {
				req.Header[tt.header] = []string{tt.key} // raw, to keep the spelling
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.wantStatus, body)
			}
			if tt.wantStatus == http.StatusUnauthorized && string(body) != unauthorized {
				t.Fatalf("body %s, want %s", body, unauthorized)
			}
		})
	}
	if got, want := h.sim.Requests(), int64(len(tests)); got != want {
		t.Errorf("Requests() = %d, want %d (every request counts, 401s included)", got, want)
	}
}

func TestKeyScope(t *testing.T) {
	h := demoHarness(t)
	tests := []struct {
		key  string
		want []int
	}{
		{key: keyOne, want: []int{acctOne}},
		{key: keyTwo, want: []int{acctTwo}},
		{key: keyMulti, want: []int{acctOne, acctTwo}},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			var out struct {
				Actor struct {
					Accounts []struct {
						ID   int
						Name string
					}
					User struct{ Email string }
				}
			}
			h.mustQuery(t, tt.key, `{ actor { accounts { id name } user { email } } }`, nil, &out)
			var got []int
			for _, a := range out.Actor.Accounts {
				got = append(got, a.ID)
				if a.Name == "" {
					t.Errorf("account %d has no name", a.ID)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("accounts %v, want %v", got, tt.want)
			}
			if out.Actor.User.Email == "" {
				t.Error("actor.user.email is empty")
			}
		})
	}
}

func TestAccountByID(t *testing.T) {
	h := demoHarness(t)
	tests := []struct {
		name      string
		key       string
		account   int
		wantName  string
		forbidden bool
	}{
		{name: "own account", key: keyOne, account: acctOne, wantName: "Demo Account One"},
		{name: "other account", key: keyOne, account: acctTwo, forbidden: true},
		{name: "unknown account", key: keyOne, account: 42, forbidden: true},
		{name: "multi key, second account", key: keyMulti, account: acctTwo, wantName: "Demo Account Two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out struct {
				Actor struct {
					Account *struct {
						ID   int
						Name string
					}
				}
			}
			errs := h.query(t, tt.key, `query($id: Int!) { actor { account(id: $id) { id name } } }`, map[string]any{"id": tt.account}, &out)
			if !tt.forbidden {
				if len(errs) > 0 || out.Actor.Account == nil || out.Actor.Account.Name != tt.wantName {
					t.Fatalf("account = %+v, errors %+v; want %q", out.Actor.Account, errs, tt.wantName)
				}
				return
			}
			if out.Actor.Account != nil {
				t.Errorf("account = %+v, want null", out.Actor.Account)
			}
			if len(errs) != 1 || errs[0].Extensions["errorClass"] != "FORBIDDEN" {
				t.Fatalf("errors %+v, want one FORBIDDEN", errs)
			}
			if want := []any{"actor", "account"}; !slices.Equal(errs[0].Path, want) {
				t.Errorf("path %v, want %v", errs[0].Path, want)
			}
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	h := demoHarness(t)
	base := strings.TrimSuffix(h.url, sim.Path)
	tests := []struct {
		name       string
		method     string
		url        string
		body       string
		wantStatus int
	}{
		{name: "GET", method: http.MethodGet, url: h.url, wantStatus: http.StatusMethodNotAllowed},
		{name: "other path", method: http.MethodPost, url: base + "/v2/applications.json", body: "{}", wantStatus: http.StatusNotFound},
		{name: "bad JSON", method: http.MethodPost, url: h.url, body: "{", wantStatus: http.StatusBadRequest},
		{name: "GraphQL syntax error is 200 with errors", method: http.MethodPost, url: h.url, body: `{"query":"{ actor {"}`, wantStatus: http.StatusOK},
		{name: "validation error is 200 with errors", method: http.MethodPost, url: h.url, body: `{"query":"{ actor { nope } }"}`, wantStatus: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, tt.url, strings.NewReader(tt.body))
			req.Header.Set("API-Key", keyOne)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var r gqlResp
			if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
				t.Fatalf("body is not JSON: %v", err)
			}
			if resp.StatusCode != tt.wantStatus || len(r.Errors) == 0 {
				t.Fatalf("status %d errors %+v, want %d with errors", resp.StatusCode, r.Errors, tt.wantStatus)
			}
		})
	}
}

func TestRequestCounters(t *testing.T) {
	h := demoHarness(t)
	for range 3 {
		h.mustQuery(t, keyOne, accountsQuery, nil, nil)
	}
	body, _ := json.Marshal(map[string]any{"query": "query Other { actor { user { id } } }", "operationName": "Other"})
	if status, b := h.postRaw(t, keyOne, body); status != http.StatusOK {
		t.Fatalf("status %d: %s", status, b)
	}
	h.post(t, "", accountsQuery, nil) // 401: counted in Requests only
	if got := h.sim.Requests(); got != 5 {
		t.Errorf("Requests() = %d, want 5", got)
	}
	got := h.sim.RequestsByOperation()
	want := map[string]int64{"": 3, "Other": 1}
	if len(got) != len(want) || got[""] != want[""] || got["Other"] != want["Other"] {
		t.Errorf("RequestsByOperation() = %v, want %v", got, want)
	}
	got["Other"] = 99 // a copy
	if h.sim.RequestsByOperation()["Other"] != 1 {
		t.Error("RequestsByOperation returned the live map")
	}
}

func TestMiddlewareHook(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	mw := func(tag string) func(http.Handler) http.Handler {
		return func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, tag)
				mu.Unlock()
				if r.Header.Get("X-Fault") == "429" {
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
				next.ServeHTTP(w, r)
			})
		}
	}
	h := demoHarness(t, sim.WithMiddleware(mw("outer")), sim.WithMiddleware(mw("inner")))
	h.mustQuery(t, keyOne, accountsQuery, nil, nil)
	mu.Lock()
	if want := []string{"outer", "inner"}; !slices.Equal(seen, want) {
		t.Errorf("middleware order %v, want %v", seen, want)
	}
	mu.Unlock()
	req, _ := http.NewRequest(http.MethodPost, h.url, bytes.NewBufferString(`{"query":"{ actor { user { id } } }"}`))
	req.Header.Set("X-Fault", "429")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("status %d, want 429 from the middleware", resp.StatusCode)
	}
	if h.sim.Requests() != 2 {
		t.Errorf("Requests() = %d, want 2 (faulted requests count)", h.sim.Requests())
	}
}

func TestUnsupportedNeverPanics(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	app := apps(t, d, acctOne)[0]
	tests := []struct {
		name  string
		query string
		vars  map[string]any
	}{
		{name: "mutation", query: `mutation { agentApplicationDelete(accountId: 1000001, applicationName: "x") { success } }`},
		{name: "stitched field", query: `{ actor { account(id: 1000001) { aiIssues { incidents { nextCursor } } } } }`},
		{name: "field with arguments and no resolver", query: `query($g: EntityGuid!) { actor { entity(guid: $g) { alertViolations(startTime: 0, endTime: 1) { label } } } }`, vars: map[string]any{"g": appGUID(acctOne, app.ID)}},
		{name: "deprecated deployments", query: `query($g: EntityGuid!) { actor { entity(guid: $g) { ... on ApmApplicationEntity { deployments { revision } } } } }`, vars: map[string]any{"g": appGUID(acctOne, app.ID)}},
		{name: "search counts", query: `{ actor { entitySearch(query: "domain = 'APM'") { counts(facet: [DOMAIN]) { count } } } }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := h.query(t, keyOne, tt.query, tt.vars, nil)
			if !hasError(errs, "", sim.UnsupportedMessage) {
				t.Fatalf("errors %+v, want %q", errs, sim.UnsupportedMessage)
			}
		})
	}
}

func TestIntrospection(t *testing.T) {
	h := demoHarness(t)
	var out struct {
		Schema struct {
			QueryType struct{ Name string }
		} `json:"__schema"`
		Type struct {
			Fields []struct{ Name string }
		} `json:"__type"`
	}
	h.mustQuery(t, keyOne, `{ __schema { queryType { name } } __type(name: "EntitySearch") { fields { name } } }`, nil, &out)
	if out.Schema.QueryType.Name != "RootQueryType" || len(out.Type.Fields) == 0 {
		t.Errorf("introspection = %+v", out)
	}
}
