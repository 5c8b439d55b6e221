package migrate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
)

// TestPassthroughPaths pins the retained alerts namespaces (no Sunset header:
// gateway.IsRetainedPath), the /v2 prefix (pathPrefixFor) and path unescaping
// (mustUnescape) of the pass-through.
func TestPassthroughPaths(t *testing.T) {
	for p, want := range map[string]bool{
		"/v2/alerts_policies.json":                          true,
		"/v2/alerts_policies":                               true,
		"/v2/alerts_conditions/12.json":                     true,
		"/accounts/1/v2/alerts_nrql_conditions.json":        true,
		"/v2/alerts_location_failure_conditions/policies/1": true,
		"/v2/alerts_policiesX.json":                         false,
		"/v2/applications.json":                             false,
		"/alerts_policies.json":                             false,
		"/v2/alerts_location_failure_conditions/1.json":     false,
	} {
		if got := gateway.IsRetainedPath(p); got != want {
			t.Errorf("gateway.IsRetainedPath(%q) = %v, want %v", p, got, want)
		}
	}
	if pathPrefixFor("/v2/applications.json") != "/v2" || pathPrefixFor("/accounts/1/applications.json") != "" {
		t.Error("pathPrefixFor")
	}
	if got := mustUnescape("/a%2Fb"); got != "/a/b" {
		t.Errorf("mustUnescape = %q", got)
	}
	if got := mustUnescape("/a%zz"); got != "/a%zz" {
		t.Errorf("mustUnescape(bad) = %q", got)
	}
}

// TestPassthroughRewrite pins what the pass-through sends to REST v2 and what it
// adds to the answer (passthrough.go Rewrite and ModifyResponse): the gateway's own
// X-Account-ID selector and headers REST does not need are dropped, the caller's key is kept, the
// account prefix is removed from the path, the query is kept; the answer carries the
// mode and, outside the retained alerts namespaces, Sunset and Deprecation.
func TestPassthroughRewrite(t *testing.T) {
	type seen struct {
		path, query, key, acct, custom string
	}
	got := make(chan seen, 4)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.URL.Path, r.URL.RawQuery, r.Header.Get("Api-Key"), r.Header.Get("X-Account-ID"), r.Header.Get("X-Custom")}
		w.Header().Set("Link", `<https://upstream/v2/x.json?page=2>; rel="next"`)
		_, _ = w.Write([]byte(`{}`))
	}))
	defer upstream.Close()
	base, _ := url.Parse(upstream.URL + "/v2")
	h := NewPassthrough(base)
	tests := []struct {
		in, wantPath string
		retained     bool
	}{
		{"/v2/applications.json?filter%5Bname%5D=a", "/v2/applications.json", false},
		{"/accounts/42/v2/applications/7.json", "/v2/applications/7.json", false},
		{"/v2/alerts_policies.json", "/v2/alerts_policies.json", true},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodGet, tt.in, nil)
		req.Header.Set("Api-Key", "NRAK-X")
		req.Header.Set("X-Account-ID", "42")
		req.Header.Set("X-Custom", "kept")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		s := <-got
		if s.path != tt.wantPath || s.key != "NRAK-X" || s.acct != "" || s.custom != "" {
			t.Errorf("%s: upstream saw %+v; want path %s, the key, no X-Account-ID, no X-Custom", tt.in, s, tt.wantPath)
		}
		if strings.Contains(tt.in, "?") && s.query != "filter%5Bname%5D=a" {
			t.Errorf("%s: query %q not kept", tt.in, s.query)
		}
		if m := rec.Header().Get("X-V2bridge-Mode"); m != "passthrough" {
			t.Errorf("%s: X-V2bridge-Mode = %q", tt.in, m)
		}
		if sun := rec.Header().Get("Sunset") != ""; sun == tt.retained {
			t.Errorf("%s: Sunset present = %v, want %v", tt.in, sun, !tt.retained)
		}
		if dep := rec.Header().Get("Deprecation"); !tt.retained && dep != "@"+strconv.FormatInt(gateway.Sunset().Unix(), 10) {
			t.Errorf("%s: Deprecation = %q", tt.in, dep)
		}
	}
	// No answer from REST v2: a REST-shaped 502, never a 500.
	// The server aborts every request (no answer), and keeps its port: a closed port
	// could be taken by another test's server.
	dead := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
	defer dead.Close()
	deadURL, _ := url.Parse(dead.URL + "/v2")
	rec := httptest.NewRecorder()
	NewPassthrough(deadURL).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil))
	if rec.Code != http.StatusBadGateway || !strings.Contains(rec.Body.String(), `"error"`) {
		t.Errorf("dead upstream: %d %s", rec.Code, rec.Body)
	}
}

// TestPassthroughLinkRewrite: REST v2's Link URLs point at the gateway as the caller
// reached it (through the gateway: its public URL and the /accounts/{id} prefix), and
// are left alone when the public base is unknown (outside a gateway).
func TestPassthroughLinkRewrite(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<http://`+r.Host+`/v2/applications.json?page=2>; rel="next"`)
		_, _ = io.WriteString(w, `{}`)
	}))
	defer upstream.Close()
	base, _ := url.Parse(upstream.URL + "/v2")
	gc := gateway.Config{PublicURL: "https://gw.example", RESTUpstream: base.String(),
		Modes: map[string]gateway.Mode{"applications.list": gateway.ModePassthrough}}
	New(Config{RESTUpstream: base.String()}, nil).Wire(&gc)
	tests := []struct {
		name, path string
		h          http.Handler
		want       string
	}{
		{"through the gateway", "/accounts/7/v2/applications.json", gateway.New(gc, nil, nil).Handler(),
			`<https://gw.example/accounts/7/v2/applications.json?page=2>; rel="next"`},
		{"outside a gateway", "/v2/applications.json", NewPassthrough(base),
			`<` + upstream.URL + `/v2/applications.json?page=2>; rel="next"`},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodGet, tt.path, nil)
		req.Header.Set("X-Api-Key", "NRAK-X")
		rec := httptest.NewRecorder()
		tt.h.ServeHTTP(rec, req)
		if got := rec.Header().Get("Link"); got != tt.want {
			t.Errorf("%s: Link %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The pass-through forwards only what REST needs: the caller's one key in the header it
// came in, the content and answer headers, the User-Agent and the caller's trace
// context; never a cookie, Authorization or another credential, nor the gateway's own
// selectors or anything else the caller sent.
func TestPassthroughForwardsOnlyWhatRESTNeeds(t *testing.T) {
	got := make(chan http.Header, 1)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Clone()
		_, _ = w.Write([]byte(`{}`))
	}))
	defer upstream.Close()
	base, _ := url.Parse(upstream.URL + "/v2")
	h := NewPassthrough(base)
	tests := []struct {
		name     string
		keys     map[string][]string
		wantName string
	}{
		{"X-Api-Key", map[string][]string{"X-Api-Key": {"NRAK-A"}}, "X-Api-Key"},
		{"Api-Key", map[string][]string{"Api-Key": {"NRAK-A"}}, "Api-Key"},
		{"the same key twice", map[string][]string{"X-Api-Key": {"NRAK-A"}, "Api-Key": {"NRAK-A"}}, "X-Api-Key"},
		{"two keys", map[string][]string{"X-Api-Key": {"NRAK-A"}, "Api-Key": {"NRAK-B"}}, ""},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodPost, "/v2/alerts_policies.json", strings.NewReader(`{"policy":{}}`))
		for k, v := range tt.keys {
			req.Header[k] = v
		}
		for k, v := range map[string]string{
			"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "client/1",
			"Traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "Tracestate": "nr=1",
			"Cookie": "session=s", "Authorization": "Bearer admin", "Proxy-Authorization": "Basic eA==",
			"X-Account-ID": "42", "X-Forwarded-For": "203.0.113.1", "X-Custom": "x", "X-Query-Key": "NRIQ-1",
		} {
			req.Header.Set(k, v)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		seen := <-got
		var names []string
		for k := range seen {
			if k != "Content-Length" && k != "Accept-Encoding" { // set by the transport
				names = append(names, k)
			}
		}
		slices.Sort(names)
		want := []string{"Accept", "Content-Type", "Traceparent", "Tracestate", "User-Agent", "Via"} // Via: the gateway itself (loopguard.go)
		if tt.wantName != "" {
			want = append(want, tt.wantName)
			slices.Sort(want)
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s: upstream saw headers %v, want %v", tt.name, names, want)
		}
		if v := seen.Values("Via"); !slices.Equal(v, []string{viaValue}) {
			t.Errorf("%s: upstream saw Via %q, want the gateway's alone", tt.name, v)
		}
		if tt.wantName != "" && seen.Get(tt.wantName) != "NRAK-A" {
			t.Errorf("%s: upstream saw key %q in %s, want NRAK-A", tt.name, seen.Get(tt.wantName), tt.wantName)
		}
	}
}
