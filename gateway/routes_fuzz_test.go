package gateway

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate"
)

// Property: any method, path and query through the real router and middleware never
// panics; an answer made without a NerdGraph call is never a 5xx; every 4xx and 5xx
// body is a v2 error ({"error":{"title":...}} or <error><title>); the caller's key
// never appears in a body or a header. NerdGraph answers every call NOT_FOUND.
func FuzzRoutes(f *testing.F) {
	var calls atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":null,"errors":[{"message":"Not Found","extensions":{"errorClass":"NOT_FOUND"}}]}`)
	}))
	f.Cleanup(up.Close)
	client := ng.NewClient(up.URL+"/graphql", ng.Options{MaxAttempts: 1})
	h := New(Config{RateLimitPerMinute: -1}, translate.New(client, translate.Options{}), nil).Handler()
	const key = "NRAK-FUZZKEYFUZZKEYFUZZKEY1"

	for _, s := range []struct{ method, path, query string }{
		{"GET", "/v2/applications.json", "filter[name]=x&page=2"},
		{"GET", "/v2/applications/1/metrics/data.xml", "names[]=a&values[]=b&from=x"},
		{"PUT", "/accounts/1000001/v2/alerts_nrql_conditions/1.json", ""},
		{"DELETE", "/v2/servers/12.json", ""},
		{"POST", "/deployments.xml", "deployment[app_name]=x"},
		{"GET", "/v2/applications/%2e%2e/hosts.json", ""},
		{"GET", "/v2//key_transactions/99999999999999999999.json", ""},
		{"PATCH", "/v2/alerts_policies.json", "page=-1"},
		{"GET", "/v2/alerts_conditions.json", "policy_id=" + key},
	} {
		f.Add(s.method, s.path, s.query)
	}
	f.Fuzz(func(t *testing.T, method, path, query string) {
		if method == "" || strings.ContainsAny(method, " \t\r\n()<>@,;:\\\"/[]?={}") {
			method = "GET"
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path // net/http refuses a request target without it
		}
		u := &url.URL{Path: path, RawQuery: query}
		req := &http.Request{Method: method, URL: u, RequestURI: u.RequestURI(), Header: http.Header{}, Host: "gw.test",
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Body: http.NoBody, RemoteAddr: "127.0.0.1:1"}
		req = req.WithContext(t.Context())
		req.Header.Set("X-Api-Key", key)
		before := calls.Load()
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { defer close(done); h.ServeHTTP(rec, req) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			buf := make([]byte, 1<<20)
			t.Fatalf("%s %q ?%q did not answer within 3 s:\n%s", method, path, query, buf[:runtime.Stack(buf, true)])
		}
		upstream := calls.Load() - before
		body := rec.Body.String()
		if rec.Code >= 500 && upstream == 0 {
			t.Fatalf("%s %q ?%q: %d without any NerdGraph call: %s", method, path, query, rec.Code, body)
		}
		// A redirect echoes the caller's own URL back to the caller (Location and body).
		echo := rec.Code >= 300 && rec.Code < 400 && strings.Contains(u.String(), key)
		if strings.Contains(body, key) && !echo {
			t.Fatalf("%s %q: the key is in the body: %s", method, path, body)
		}
		for name, vs := range rec.Header() {
			if name == "Location" && strings.Contains(u.String(), key) {
				continue
			}
			for _, v := range vs {
				if strings.Contains(v, key) {
					t.Fatalf("%s %q: the key is in header %s", method, path, name)
				}
			}
		}
		if rec.Code < 400 || rec.Code == http.StatusTooManyRequests || method == http.MethodHead {
			return
		}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/xml") {
			// v2's <error><title>, or the legacy v0 deployments' <errors><error>.
			if !strings.Contains(body, "<error>") || !strings.Contains(body, "<title>") && !strings.Contains(body, "<errors>") {
				t.Fatalf("%s %q: %d without a v2 XML error: %s", method, path, rec.Code, body)
			}
			return
		}
		var e struct {
			Error *struct {
				Title string `json:"title"`
			} `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == nil || e.Error.Title == "" {
			t.Fatalf("%s %q: %d without a v2 error body: %q", method, path, rec.Code, body)
		}
	})
}
