package gateway

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// Property: any bytes, as JSON, XML or a form under any content type, read the way
// every route reads a request (readRequest) and given to every write-body parser
// (deployment, application update, policy, NRQL condition, browser and mobile
// application create) and the deployment input rules, never panic and either parse or
// fail with a v2 4xx error — never a 5xx, never a non-v2 error.
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
		{"application/json", `{"browser_application":{"name":["x"]}}`},
		{"application/x-www-form-urlencoded", `browser_application[name]=%ff&filter[name]=a`},
		{"application/json", `{"mobile_application":null}`},
		{"application/xml", `<mobile_application><name>m</name></mobile_application>`},
		{"application/x-www-form-urlencoded", `a[=1&%zz`},
	} {
		f.Add(s.ct, s.body)
	}
	g := &Gateway{cfg: Config{MaxBodyBytes: 1 << 20}} // New's default
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, contentType, body string) {
		r := httptest.NewRequest("POST", "/v2/applications/1/deployments.json", strings.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		// An error must be one the gateway answers with a titled 4xx (v2Error is the
		// mapping writeError uses).
		check := func(what string, err error) {
			t.Helper()
			if err == nil {
				return
			}
			if ve, _ := v2Error(err); ve.Status < 400 || ve.Status >= 500 || ve.Title == "" {
				t.Fatalf("%s: %T %v maps to %d %q, not a v2 4xx (content type %q, body %q)", what, err, err, ve.Status, ve.Title, contentType, body)
			}
		}
		rq, err := g.readRequest(r, nil)
		if err != nil {
			check("read", err)
			return
		}
		in, err := restv2.DecodeDeployment(rq.body, rq.http.Header.Get("Content-Type"), rq.params)
		check("deployment", err)
		if err == nil {
			check("deployment rules", in.Validate(now))
		}
		_, err = restv2.DecodeApplicationUpdate(rq.body)
		check("application", err)
		_, err = restv2.DecodePolicy(rq.body)
		check("policy", err)
		_, err = restv2.DecodeNrqlCondition(rq.body, "create")
		check("nrql condition", err)
		_, err = restv2.DecodeBrowserApplication(rq.body, rq.params)
		check("browser application", err)
		_, err = restv2.DecodeMobileApplication(rq.body)
		check("mobile application", err)
	})
}
