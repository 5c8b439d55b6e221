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
