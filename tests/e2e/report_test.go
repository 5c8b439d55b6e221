package e2e

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"golang.org/x/net/html"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

func TestUsageReport(t *testing.T) {
	state := filepath.Join(t.TempDir(), "report.json")
	mc := migrate.Config{ReportToken: "s3cret", ReportStateFile: state}
	h := harness.StartWith(t, harness.Options{Migrate: mc})
	e := &env{sim: h.Sim, gw: h.Gateway}
	// A scripted session: two callers, five routes.
	calls := []struct{ key, path, ua string }{
		{key1, "/v2/applications.json", "curl/8.0"},
		{key1, "/v2/applications.json", "curl/8.0"},
		{key1, "/v2/applications/314221522.json", "curl/8.0"},
		{key1, "/v2/applications/314221522/metrics.json", "curl/8.0"},
		{key2, "/v2/applications.json", "python-requests/2.31"},
		{key2, "/v2/applications/1.json", "python-requests/2.31"},
		{key2, "/v2/applications/314221522/hosts.json", "python-requests/2.31"},
		{key1, "/v2/applications/314221522/deployments.json", "curl/8.0"},
	}
	for _, c := range calls {
		e.get(t, c.path, c.key, "User-Agent", c.ua)
	}
	get := func(path string) response {
		return e.get(t, path, "", "Authorization", "Bearer s3cret")
	}
	if r := e.get(t, "/v2bridge/report.json", "", "Authorization", "Bearer wrong"); r.status != 401 {
		t.Fatalf("wrong token: %d", r.status)
	}
	var rep struct {
		Usage    []migrate.Usage
		DaysLeft int `json:"days_left"`
	}
	r := get("/v2bridge/report.json")
	if err := json.Unmarshal(r.body, &rep); err != nil {
		t.Fatal(err)
	}
	c1, c2 := translate.HashKey(key1)[:8], translate.HashKey(key2)[:8]
	want := map[string]int64{
		c1 + "|curl|applications.list": 2, c1 + "|curl|applications.show": 1, c1 + "|curl|applications.metrics": 1,
		c1 + "|curl|deployments.list": 1, c2 + "|python-requests|applications.list": 1,
		c2 + "|python-requests|applications.show": 1, c2 + "|python-requests|application_hosts.list": 1,
	}
	got := map[string]int64{}
	routes := map[string]bool{}
	for _, u := range rep.Usage {
		got[u.Caller+"|"+u.Agent+"|"+u.Route] = u.Count
		routes[u.Route] = true
		if u.Route == "applications.show" && u.Caller == c2 && u.Errors != 1 {
			t.Errorf("the 404 was not counted as an error: %+v", u)
		}
	}
	if len(got) != len(want) || len(routes) != 5 {
		t.Fatalf("report %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s = %d, want %d", k, got[k], n)
		}
	}
	if rep.DaysLeft <= 0 {
		t.Errorf("days_left = %d", rep.DaysLeft)
	}
	// CSV agrees with JSON.
	rows, err := csv.NewReader(strings.NewReader(string(get("/v2bridge/report.csv").body))).ReadAll()
	if err != nil || len(rows) != len(rep.Usage)+1 {
		t.Fatalf("csv: %d rows, %v", len(rows), err)
	}
	for i, u := range rep.Usage {
		row := rows[i+1]
		if row[0] != u.Caller || row[1] != u.Agent || row[2] != u.Route || row[5] != strconv.FormatInt(u.Count, 10) ||
			row[6] != strconv.FormatInt(u.Errors, 10) {
			t.Fatalf("csv row %v differs from json %+v", row, u)
		}
	}
	// The HTML parses, has the chart and the NerdGraph operations.
	page := string(get("/v2bridge/report").body)
	if _, err := html.Parse(strings.NewReader(page)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<svg", "query AppShow", "query AppList", "curl https://api.newrelic.com/graphql", "days left"} {
		if !strings.Contains(page, s) {
			t.Errorf("report page lacks %q", s)
		}
	}
	if strings.Contains(page, key1) || strings.Contains(page, key2) {
		t.Fatal("a key reached the report")
	}

	// The counts survive a restart with the state file (saved on shutdown).
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Pilot.RunReportState(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	h2 := harness.StartWith(t, harness.Options{Migrate: mc})
	e2 := &env{sim: h2.Sim, gw: h2.Gateway}
	var rep2 struct{ Usage []migrate.Usage }
	if err := json.Unmarshal(e2.get(t, "/v2bridge/report.json", "", "Authorization", "Bearer s3cret").body, &rep2); err != nil {
		t.Fatal(err)
	}
	if len(rep2.Usage) != len(rep.Usage) {
		t.Fatalf("after a restart the report has %d rows, want %d", len(rep2.Usage), len(rep.Usage))
	}
	for i := range rep.Usage {
		if rep2.Usage[i].Count != rep.Usage[i].Count || rep2.Usage[i].Route != rep.Usage[i].Route {
			t.Fatalf("row %d: %+v vs %+v", i, rep2.Usage[i], rep.Usage[i])
		}
	}
	// The same counters are exported to Prometheus for fleet-wide totals.
	metrics := string(e.get(t, "/metrics", "").body)
	if !strings.Contains(metrics, `v2bridge_v2_calls_total{caller="`+c1+`",fidelity="approximate",mode="translate",route="applications.list"} 2`) {
		t.Fatalf("/metrics lacks the per-caller series")
	}
}

// With two gateway replicas and a Prometheus answering from their scraped /metrics, the
// report shows the summed totals and says so.
func TestUsageReportFleetTotals(t *testing.T) {
	a := harness.Start(t, gateway.Config{})
	b := harness.Start(t, gateway.Config{})
	ea, eb := &env{sim: a.Sim, gw: a.Gateway}, &env{sim: b.Sim, gw: b.Gateway}
	ea.get(t, "/v2/applications.json", key1)
	ea.get(t, "/v2/applications.json", key1)
	eb.get(t, "/v2/applications.json", key1)
	prom := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Sum the series of both scrapes, as Prometheus would.
		sums := map[string]float64{}
		labels := map[string]map[string]string{}
		for _, e := range []*env{ea, eb} {
			parser := expfmt.NewTextParser(model.LegacyValidation)
			fams, err := parser.TextToMetricFamilies(strings.NewReader(string(e.get(t, "/metrics", "").body)))
			if err != nil {
				t.Error(err)
				return
			}
			for _, m := range fams["v2bridge_v2_calls_total"].GetMetric() {
				l := map[string]string{}
				for _, p := range m.GetLabel() {
					l[p.GetName()] = p.GetValue()
				}
				k := l["route"] + "|" + l["caller"] + "|" + l["mode"] + "|" + l["fidelity"]
				sums[k] += m.GetCounter().GetValue()
				labels[k] = l
			}
		}
		type res struct {
			Metric map[string]string `json:"metric"`
			Value  []any             `json:"value"`
		}
		var result []res
		for k, v := range sums {
			result = append(result, res{Metric: labels[k], Value: []any{1.7e9, strconv.FormatFloat(v, 'f', -1, 64)}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "success", "data": map[string]any{"resultType": "vector", "result": result}})
	}))
	defer prom.Close()
	c := harness.StartWith(t, harness.Options{Migrate: migrate.Config{ReportToken: "t", ReportPrometheusURL: prom.URL}})
	ec := &env{sim: c.Sim, gw: c.Gateway}
	var rep struct {
		Source string
		Usage  []migrate.Usage
	}
	if err := json.Unmarshal(ec.get(t, "/v2bridge/report.json", "", "Authorization", "Bearer t").body, &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Source, "Prometheus") || len(rep.Usage) != 1 || rep.Usage[0].Count != 3 || rep.Usage[0].Route != "applications.list" {
		t.Fatalf("fleet report %+v", rep)
	}
	if page := string(ec.get(t, "/v2bridge/report", "", "Authorization", "Bearer t").body); !strings.Contains(page, "Source: Prometheus at") {
		t.Fatal("the page does not say which source it shows")
	}
}
