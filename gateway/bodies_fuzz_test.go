package gateway

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Property: any bytes, as JSON, XML or a form under any content type, given to every
// write-body parser (deployment, application update, policy, NRQL condition) and the
// deployment input rules, never panic and either parse or fail with a v2 4xx error —
// never a 5xx, never a non-v2 error.
func FuzzWriteBodies(f *testing.F) {
	for _, s := range []struct{ ct, body string }{
		{"application/json", `{"deployment":{"revision":"abc","user":"ü","timestamp":"2026-11-20T11:00:00Z"}}`},
		{"application/xml", `<deployment><revision>r1</revision><changelog>c</changelog></deployment>`},
		{"application/x-www-form-urlencoded", `deployment[revision]=1&deployment[user]=x%00`},
		{"application/json", `{"application":{"name":"x","settings":{"app_apdex_threshold":-1}}}`},
		{"application/xml", `<application><settings><app_apdex_threshold>NaN</app_apdex_threshold></settings></application>`},
		{"application/json", `{"policy":{"name":"","incident_preference":7}}`},
		{"application/json", `{"nrql_condition":{"terms":[{"duration":true,"threshold":{}}],"nrql":{"since_value":1e400}}}`},
		{"", `{'deployment':1}`},
		{"text/plain", "<<<>>>"},
		{"application/json", `{"deployment":{"revision":"` + strings.Repeat("𝄞", 40) + `"}}`},
	} {
		f.Add(s.ct, s.body)
	}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, contentType, body string) {
		r := httptest.NewRequest("POST", "/v2/applications/1/deployments.json", strings.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		params, err := v2.ParseParams("", body)
		if err != nil {
			params, _ = v2.ParseParams("", "")
		}
		rq := &request{http: r, format: "json", params: params, body: []byte(body)}
		check := func(what string, err error) {
			t.Helper()
			if err == nil {
				return
			}
			var ve *v2.Error
			if !errors.As(err, &ve) || ve.Status < 400 || ve.Status >= 500 || ve.Title == "" {
				t.Fatalf("%s: %T %v is not a v2 4xx error (content type %q, body %q)", what, err, err, contentType, body)
			}
		}
		in, err := parseDeployment(rq)
		check("deployment", err)
		if err == nil {
			check("deployment rules", in.Validate(now))
		}
		_, err = parseApplicationUpdate(rq)
		check("application", err)
		_, err = parsePolicy(rq)
		check("policy", err)
		_, err = parseNrqlCondition(rq.body, "create")
		check("nrql condition", err)
	})
}
