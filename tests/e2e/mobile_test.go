package e2e

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/tests/harness"
)

type mobileJSON struct {
	ID               int64
	Name             string
	HealthStatus     string `json:"health_status"`
	Reporting        bool
	ApplicationToken string `json:"application_token"`
	MobileSummary    *struct {
		LaunchCount     int64   `json:"launch_count"`
		Throughput      float64 `json:"throughput"`
		ResponseTime    float64 `json:"response_time"`
		CallsPerSession float64 `json:"calls_per_session"`
		FailedCallRate  float64 `json:"failed_call_rate"`
	} `json:"mobile_summary"`
	CrashSummary *struct {
		CrashCount int64   `json:"crash_count"`
		CrashRate  float64 `json:"crash_rate"`
	} `json:"crash_summary"`
}

func TestMobileApplications(t *testing.T) {
	e := newEnv(t)
	var list struct {
		MobileApplications []mobileJSON `json:"mobile_applications"`
	}
	r := e.get(t, "/v2/mobile_applications.json", key1)
	if err := json.Unmarshal(r.body, &list); err != nil || len(list.MobileApplications) != 3 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var show struct {
		MobileApplication mobileJSON `json:"mobile_application"`
	}
	r = e.get(t, "/v2/mobile_applications/601483762.json", key1)
	if err := json.Unmarshal(r.body, &show); err != nil || r.header.Get("X-V2bridge-Upstream-Calls") != "1" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	m := show.MobileApplication
	if m.Name != "Shop iOS" || m.MobileSummary == nil || m.MobileSummary.LaunchCount != 1840 ||
		m.CrashSummary == nil || m.CrashSummary.CrashCount != 12 {
		t.Fatalf("show %+v", m)
	}
	// configs/demo-data.yaml: 1504.0 requests a minute, 0.412 s, 45120 requests in 1840
	// sessions, a failure rate of 0.4; shown as REST wrote them (translate buildMobile):
	// seconds, three significant digits, the rate as it is.
	if s := *m.MobileSummary; s.Throughput != harness.Figure(1504) || s.ResponseTime != 0.412 ||
		s.CallsPerSession != harness.Figure(45120.0/1840) || s.FailedCallRate != 0.4 {
		t.Fatalf("mobile_summary %+v, want 1500, 0.412, 24.5, 0.4", s)
	}
	golden(t, "mobile_application_show.json", r.body)
	if r := e.get(t, "/v2/mobile_applications/601483800.json", key1); r.status != 404 {
		t.Fatalf("another account's mobile app: %d", r.status)
	}

	// Metric data scoped to the mobile application.
	var md metricDataBody
	r = e.get(t, "/v2/mobile_applications/601483762/metrics/data.json?names[]=Mobile/Crash/All&values[]=call_count&summarize=true", key1)
	if err := json.Unmarshal(r.body, &md); err != nil || len(md.MetricData.Found) != 1 {
		t.Fatalf("mobile metric data: %d %s", r.status, r.body)
	}
	r = e.get(t, "/v2/mobile_applications/601483762/metrics.json", key1)
	if !strings.Contains(string(r.body), "Session/Start") {
		t.Fatalf("mobile metric names: %s", r.body)
	}

	// Create, then list and show.
	r = e.do(t, http.MethodPost, "/v2/mobile_applications.json", key1, strings.NewReader(`{"mobile_application":{"name":"Kiosk"}}`),
		"Content-Type", "application/json")
	var created struct {
		MobileApplication mobileJSON `json:"mobile_application"`
	}
	if err := json.Unmarshal(r.body, &created); err != nil || r.status != 201 || created.MobileApplication.ID == 0 ||
		created.MobileApplication.ApplicationToken == "" {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	id := strconv.FormatInt(created.MobileApplication.ID, 10)
	if r := e.get(t, "/v2/mobile_applications/"+id+".json", key1); r.status != 200 || !strings.Contains(string(r.body), `"Kiosk"`) {
		t.Fatalf("show created: %d %s", r.status, r.body)
	}
	_ = json.Unmarshal(e.get(t, "/v2/mobile_applications.json", key1).body, &list)
	if len(list.MobileApplications) != 4 {
		t.Fatalf("list after create: %d", len(list.MobileApplications))
	}
}
