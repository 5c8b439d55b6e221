package clientcompat

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/newrelic/newrelic-client-go/v2/pkg/apm"
	"github.com/newrelic/newrelic-client-go/v2/pkg/config"
	nrerrors "github.com/newrelic/newrelic-client-go/v2/pkg/errors"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

func client(t *testing.T, key string) (apm.APM, *harness.Env) {
	t.Helper()
	env := harness.Start(t, gateway.Config{})
	cfg := config.New()
	for _, opt := range []config.ConfigOption{config.ConfigPersonalAPIKey(key), config.ConfigBaseURL(env.Gateway.URL + "/v2"), config.ConfigLogLevel("error")} {
		if err := opt(&cfg); err != nil {
			t.Fatal(err)
		}
	}
	return apm.New(cfg), env
}

const app = 314221522 // a reporting application of account 1000001

func TestApplications(t *testing.T) {
	c, _ := client(t, harness.Key1)
	all, err := c.ListApplications(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 264 { // the client follows rel="next" across both pages
		t.Fatalf("ListApplications = %d apps, want 264", len(all))
	}
	ids := map[int]bool{}
	for _, a := range all {
		if ids[a.ID] {
			t.Fatalf("app %d twice", a.ID)
		}
		ids[a.ID] = true
	}
	// The client sends filters only on the first page; the gateway's Link URLs keep them.
	filtered, err := c.ListApplications(&apm.ListApplicationsParams{Name: "e"})
	if err != nil {
		t.Fatal(err)
	}
	if len(filtered) != 234 {
		t.Fatalf("filter matched %d apps, want the 234 of the demo data (two pages)", len(filtered))
	}
	for _, a := range filtered {
		if !strings.Contains(strings.ToLower(a.Name), "e") {
			t.Fatalf("filtered list holds %q", a.Name)
		}
	}
	got, err := c.GetApplication(app)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != app || got.Name != "100% Uptime Monitor" || got.Language != "php" || !got.Reporting ||
		got.Summary.InstanceCount != 2 || len(got.Links.InstanceIDs) != 2 || got.LastReportedAt == "" {
		t.Fatalf("GetApplication = %+v", got)
	}
	_, err = c.GetApplication(1)
	var nf *nrerrors.NotFound
	if !errors.As(err, &nf) {
		t.Fatalf("GetApplication(unknown) error = %v, want NotFound", err)
	}
}

func TestInstances(t *testing.T) {
	c, _ := client(t, harness.Key1)
	list, err := c.ListApplicationInstances(app, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("instances = %d", len(list))
	}
	one, err := c.GetApplicationInstance(app, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if one.ID != list[0].ID || one.Host != list[0].Host || one.Links.Application != app {
		t.Fatalf("GetApplicationInstance = %+v, list had %+v", one, list[0])
	}
}

func TestKeyTransactions(t *testing.T) {
	c, _ := client(t, harness.Key1)
	list, err := c.ListKeyTransactions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].ID != 3001 || list[0].Links.Application != app || list[0].Summary.ApdexTarget != 0.5 ||
		list[0].Summary.Throughput <= 0 || list[0].TransactionName != "Controller/orders/show" {
		t.Fatalf("ListKeyTransactions = %+v", list)
	}
	filtered, err := c.ListKeyTransactions(&apm.ListKeyTransactionsParams{Name: "users", IDs: []int{3001, 3002}})
	if err != nil {
		t.Fatal(err)
	}
	if len(filtered) != 1 || filtered[0].ID != 3002 {
		t.Fatalf("filtered = %+v", filtered)
	}
	one, err := c.GetKeyTransaction(3003)
	if err != nil {
		t.Fatal(err)
	}
	if one.ID != 3003 || one.Name != list[2].Name || one.Summary != list[2].Summary || one.Links.Application != list[2].Links.Application {
		t.Fatalf("GetKeyTransaction = %+v, list had %+v", one, list[2])
	}
}

func TestMetrics(t *testing.T) {
	c, _ := client(t, harness.Key1)
	names, err := c.GetMetricNames(app, apm.MetricNamesParams{Name: "Apdex"})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 4 || names[0].Name != "Apdex" || !slices.Contains(names[0].Values, "score") {
		t.Fatalf("GetMetricNames = %+v", names)
	}
	from, to := harness.Clock.Add(-35*time.Minute), harness.Clock.Add(-5*time.Minute) // every minute ingested
	data, err := c.GetMetricData(app, apm.MetricDataParams{Names: []string{"HttpDispatcher", "Apdex"},
		Values: []string{"call_count", "score"}, From: &from, To: &to})
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 2 || data[0].Name != "HttpDispatcher" || len(data[0].Timeslices) != 30 {
		t.Fatalf("GetMetricData = %d series", len(data))
	}
	if v := data[0].Timeslices[0].Values.Values; v["call_count"] <= 0 {
		t.Fatalf("call_count = %+v", v)
	}
	// REST served values[] asked of several names only as far as the first name has
	// them (docs-website list-your-app-id-metric-timeslice-data-v2.mdx; translate/metricdata
	// firstNameValues): HttpDispatcher has no score, so Apdex answers none.
	if v := data[1].Timeslices[0].Values.Values; len(v) != 0 || data[1].Name != "Apdex" {
		t.Fatalf("Apdex after HttpDispatcher = %+v, want no values", v)
	}
	data, err = c.GetMetricData(app, apm.MetricDataParams{Names: []string{"Apdex"}, Values: []string{"score"}, From: &from, To: &to})
	if err != nil {
		t.Fatal(err)
	}
	if v := data[0].Timeslices[0].Values.Values; len(data) != 1 || v["score"] <= 0 || v["score"] > 1 {
		t.Fatalf("score = %+v", v)
	}
}

// Methods for retired products surface the gateway's 410 as an error.
func TestRetiredLabels(t *testing.T) {
	c, _ := client(t, harness.Key1)
	if _, err := c.ListLabels(); err == nil || !strings.Contains(err.Error(), "410") && !strings.Contains(err.Error(), "retired") {
		t.Fatalf("ListLabels error = %v", err)
	}
}
