package clientcompat

import (
	"errors"
	"testing"

	"github.com/newrelic/newrelic-client-go/v2/pkg/alerts"
	"github.com/newrelic/newrelic-client-go/v2/pkg/config"
	nrerrors "github.com/newrelic/newrelic-client-go/v2/pkg/errors"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

func alertsClient(t *testing.T) alerts.Alerts {
	t.Helper()
	env := harness.Start(t, gateway.Config{})
	cfg := config.New()
	for _, opt := range []config.ConfigOption{config.ConfigPersonalAPIKey(harness.Key1), config.ConfigBaseURL(env.Gateway.URL + "/v2"), config.ConfigLogLevel("error")} {
		if err := opt(&cfg); err != nil {
			t.Fatal(err)
		}
	}
	return alerts.New(cfg)
}

// Policy create → list shows it → update changes it → delete removes it.
func TestPolicies(t *testing.T) {
	c := alertsClient(t)
	all, err := c.ListPolicies(nil)
	if err != nil || len(all) != 5 {
		t.Fatalf("ListPolicies = %d, %v", len(all), err)
	}
	exact, err := c.ListPolicies(&alerts.ListPoliciesParams{Name: "Production apps"})
	if err != nil || len(exact) != 1 || exact[0].ID != 1001 || exact[0].IncidentPreference != "PER_POLICY" {
		t.Fatalf("exact name filter = %+v, %v (the differently cased policy must not match)", exact, err)
	}
	created, err := c.CreatePolicy(alerts.Policy{Name: "On-call", IncidentPreference: alerts.IncidentPreferenceTypes.PerCondition})
	if err != nil || created.ID == 0 || created.Name != "On-call" || created.IncidentPreference != "PER_CONDITION" {
		t.Fatalf("CreatePolicy = %+v, %v", created, err)
	}
	listed, _ := c.ListPolicies(&alerts.ListPoliciesParams{Name: "On-call"})
	if len(listed) != 1 || listed[0].ID != created.ID {
		t.Fatalf("created policy not listed: %+v", listed)
	}
	created.Name = "On-call (EU)"
	updated, err := c.UpdatePolicy(*created)
	if err != nil || updated.Name != "On-call (EU)" || updated.IncidentPreference != "PER_CONDITION" {
		t.Fatalf("UpdatePolicy = %+v, %v", updated, err)
	}
	deleted, err := c.DeletePolicy(created.ID)
	if err != nil || deleted.ID != created.ID {
		t.Fatalf("DeletePolicy = %+v, %v", deleted, err)
	}
	if after, _ := c.ListPolicies(nil); len(after) != 5 {
		t.Fatalf("%d policies after delete", len(after))
	}
	_, err = c.DeletePolicy(999999)
	var nf *nrerrors.NotFound
	if !errors.As(err, &nf) {
		t.Fatalf("deleting an unknown policy: %v", err)
	}
}

// Incidents decode with their policy and violation links; only_open and
// exclude_violations work.
func TestIncidents(t *testing.T) {
	c := alertsClient(t)
	all, err := c.ListIncidents(false, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 || len(all) > 260 {
		t.Fatalf("ListIncidents = %d", len(all))
	}
	for _, in := range all[:5] {
		if in.ID == 0 || in.OpenedAt == nil || in.Links.PolicyID == 0 || len(in.Links.Violations) != 1 || in.IncidentPreference == "" {
			t.Fatalf("incident %+v", in)
		}
	}
	open, err := c.ListIncidents(true, true)
	if err != nil || len(open) == 0 || len(open) >= len(all) {
		t.Fatalf("only open: %d of %d, %v", len(open), len(all), err)
	}
	for _, in := range open {
		if in.ClosedAt != nil || len(in.Links.Violations) != 0 {
			t.Fatalf("open incident %+v", in)
		}
	}
}

// NRQL conditions: create → list → update → delete through client-go's REST methods,
// whose terms decode duration and threshold from strings.
func TestNrqlConditions(t *testing.T) {
	c := alertsClient(t)
	seeded, err := c.ListNrqlConditions(1001)
	if err != nil || len(seeded) == 0 {
		t.Fatalf("ListNrqlConditions = %d, %v", len(seeded), err)
	}
	cond := alerts.NrqlCondition{
		Name: "Slow checkout", Enabled: true, Type: "static", ViolationCloseTimer: 3600, RunbookURL: "https://rb.example.com",
		Nrql:  alerts.NrqlQuery{Query: "SELECT average(duration) FROM Transaction", SinceValue: "3"},
		Terms: []alerts.ConditionTerm{{Duration: 5, Operator: "above", Priority: "critical", Threshold: 1.5, TimeFunction: "all"}},
	}
	created, err := c.CreateNrqlCondition(1002, cond)
	if err != nil || created.ID == 0 || created.Name != cond.Name || len(created.Terms) != 1 || created.Terms[0] != cond.Terms[0] ||
		created.Nrql != cond.Nrql || created.ViolationCloseTimer != 3600 {
		t.Fatalf("CreateNrqlCondition = %+v, %v", created, err)
	}
	got, err := c.GetNrqlCondition(1002, created.ID)
	if err != nil || got.Name != cond.Name {
		t.Fatalf("GetNrqlCondition = %+v, %v", got, err)
	}
	created.Terms[0].Threshold = 2
	updated, err := c.UpdateNrqlCondition(*created)
	if err != nil || updated.Terms[0].Threshold != 2 {
		t.Fatalf("UpdateNrqlCondition = %+v, %v", updated, err)
	}
	deleted, err := c.DeleteNrqlCondition(created.ID)
	if err != nil || deleted.ID != created.ID {
		t.Fatalf("DeleteNrqlCondition = %+v, %v", deleted, err)
	}
	if _, err := c.GetNrqlCondition(1002, created.ID); err == nil {
		t.Fatal("deleted condition still found")
	}
}

// Legacy conditions decode from their NRQL form (terms as strings).
func TestConditions(t *testing.T) {
	c := alertsClient(t)
	list, err := c.ListConditions(1001)
	if err != nil || len(list) == 0 {
		t.Fatalf("ListConditions = %+v, %v", list, err)
	}
	for _, cond := range list {
		if cond.ID == 0 || cond.Type == "" || len(cond.Terms) == 0 || cond.Terms[0].Duration == 0 {
			t.Errorf("condition %+v", cond)
		}
	}
}
