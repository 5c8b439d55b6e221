package restdouble

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/model"
)

// TestDoubleAnswersDemoDataInRESTShapes: the double answers the demo's objects under
// REST v2's keys, refuses a missing or unknown key as REST does, answers REST's 404
// titles, and says 501 for a route it does not serve.
func TestDoubleAnswersDemoDataInRESTShapes(t *testing.T) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 12, 30, 20, 0, time.UTC)
	d := New(data, Options{Now: func() time.Time { return now }})
	for _, tc := range []struct {
		name, key, account, path string
		status                   int
		want                     []string
	}{
		{"no key", "", "", "/v2/applications.json", 401, []string{`"title":"No API key specified"`}},
		{"unknown key", "NRAK-NOPE", "", "/v2/applications.json", 401, []string{`"title":"Invalid API key"`}},
		{"account the key does not reach", "NRAK-DEMO-ACCOUNT-1", "1000002", "/v2/applications.json", 401, nil},
		{"applications", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications.json?filter[ids]=314221522", 200,
			[]string{`"applications":[{`, `"id":314221522`, `"name":"100% Uptime Monitor"`, `"health_status":"unknown"`,
				`"last_reported_at":"2026-05-01T12:28:00+00:00"`, `"application_summary":{`, `"instance_count":2`,
				`"application_instances":[773865519,1663741264]`, `"application.application_hosts":`}},
		{"filter[name] is a case-insensitive substring", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications.json?filter[name]=UPTIME", 200,
			[]string{`"id":314221522`}},
		{"applications page 2", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications.json?page=2", 200, []string{`"applications":[{`}},
		{"applications past the last page", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications.json?page=9", 200, []string{`"applications":[]`}},
		{"application show", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications/314221522.json", 200, []string{`"application":{`, `"links":{`}},
		{"application not found", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications/1.json", 404, []string{`"title":"No Application found with the given ID"`}},
		{"multi-account key picks by header", "NRAK-DEMO-MULTI", "1000002", "/v2/applications.json?filter[ids]=527085889", 200,
			[]string{`"id":527085889`}},
		{"key transactions", "NRAK-DEMO-ACCOUNT-1", "", "/v2/key_transactions/3001.json", 200,
			[]string{`"key_transaction":{`, `"transaction_name":"Controller/orders/show"`, `"application":314221522`, `"health_status":"unknown"`}},
		{"mobile", "NRAK-DEMO-ACCOUNT-1", "", "/v2/mobile_applications/601483763.json", 200,
			[]string{`"health_status":"orange"`, `"crash_count":41`, `"launch_count":2630`}},
		{"policies", "NRAK-DEMO-ACCOUNT-1", "", "/v2/alerts_policies.json?filter[name]=checkout", 200,
			[]string{`{"policies":[{"created_at":null,"id":1002,"incident_preference":"PER_CONDITION","name":"Checkout SLOs","updated_at":null}]}`}},
		{"legacy conditions", "NRAK-DEMO-ACCOUNT-1", "", "/v2/alerts_conditions.json?policy_id=1004", 200,
			[]string{`"id":6301`, `"type":"apm_app_metric"`, `"duration":"5"`, `"operator":"below"`, `"threshold":"0.7"`, `"violation_close_timer":24`}},
		{"NRQL conditions", "NRAK-DEMO-ACCOUNT-1", "", "/v2/alerts_nrql_conditions.json?policy_id=1002", 200,
			[]string{`"id":6104`, `"entity_guid":"MTAwMDAwMXxBSU9QU3xDT05ESVRJT058NjEwNA"`, `"violation_time_limit_seconds":43200`}},
		{"NRQL condition operators as REST wrote them", "NRAK-DEMO-ACCOUNT-1", "", "/v2/alerts_nrql_conditions.json?policy_id=1003", 200,
			[]string{`"id":6108`, `"operator":"equal"`}},
		{"conditions need a policy", "NRAK-DEMO-ACCOUNT-1", "", "/v2/alerts_conditions.json", 422, nil},
		{"hosts", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications/314221522/hosts.json", 200,
			[]string{`"application_hosts":[{`, `"host":"ip-10-0-17-21.ec2.internal"`, `"application_instances":[773865519]`, `"application_host.server"`}},
		{"instance show", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications/314221522/instances/1663741264.json", 200,
			[]string{`"application_instance":{`, `"host":"web-22.prod.example.com"`, `"application":314221522`}},
		{"instance not found", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications/314221522/instances/1.json", 404,
			[]string{`"title":"No Application Instance found with the given ID"`}},
		{"a route the double does not serve", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications/314221522/metrics.json", 501,
			[]string{"does not serve"}},
		{"XML is not served", "NRAK-DEMO-ACCOUNT-1", "", "/v2/applications.xml", 501, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, tc.path, nil)
			if tc.key != "" {
				r.Header.Set("X-Api-Key", tc.key)
			}
			if tc.account != "" {
				r.Header.Set("X-Account-Id", tc.account)
			}
			w := httptest.NewRecorder()
			d.ServeHTTP(w, r)
			body := w.Body.String()
			if w.Code != tc.status || !json.Valid(w.Body.Bytes()) {
				t.Fatalf("status %d (want %d): %.300s", w.Code, tc.status, body)
			}
			if tc.path == "/v2/applications.json?page=2" && !strings.Contains(w.Header().Get("Link"), `/v2/applications.json?page=1>; rel="first"`) {
				t.Errorf("Link %q", w.Header().Get("Link"))
			}
			for _, s := range tc.want {
				if !strings.Contains(body, s) {
					t.Errorf("no %s in %.600s", s, body)
				}
			}
		})
	}
}

// TestDoubleSummariesFollowSummaryFunc: with Summary set, the figures are the
// function's at the clock (REST's units: milliseconds, Apdex with two decimals); a
// nil result keeps the data file's.
func TestDoubleSummariesFollowSummaryFunc(t *testing.T) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name string
		fn   sim.SummaryFunc
		want string
	}{
		{"function", func(int, int64, time.Time) *model.ApmApplicationSummaryData {
			return &model.ApmApplicationSummaryData{WebThroughput: f(120), WebResponseTimeAverage: f(0.25), ErrorRate: f(1.5), ApdexScore: f(0.876)}
		}, `"application_summary":{"apdex_score":0.88,"apdex_target":0.1,"error_rate":1.5,"host_count":2,"instance_count":2,"response_time":250,"throughput":120}`},
		{"data file", func(int, int64, time.Time) *model.ApmApplicationSummaryData { return nil },
			`"application_summary":{"apdex_score":0.82,"apdex_target":0.1,"error_rate":0,"host_count":2,"instance_count":2,"response_time":2530,"throughput":429}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/v2/applications/314221522.json", nil)
			r.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
			w := httptest.NewRecorder()
			New(data, Options{Summary: tc.fn}).ServeHTTP(w, r)
			if !strings.Contains(w.Body.String(), tc.want) {
				t.Errorf("no %s in %.600s", tc.want, w.Body.String())
			}
		})
	}
}
