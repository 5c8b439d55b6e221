package translate

import (
	"context"
	"fmt"
	"slices"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// violation_close_timer in whole hours, only from 3600 s; the product and policy
// filters; the synthetics list's filter.
func TestLegacyConditionLists(t *testing.T) {
	conds := []map[string]any{asCond(1, "APM", 3599.0), asCond(2, "BROWSER", 3600.0), asCond(3, "MOBILE", 7199.0),
		asCond(4, "NRQL", 7200.0), asCond(5, "SYNTHETICS", 86400.0), asCond(6, "APM", nil)}
	conds = append(conds, asCond(7, "APM", 86400.0))
	conds[6]["policyId"] = "10"
	tr := New(condPages(conds), Options{})
	l, p, err := tr.ListConditions(context.Background(), Caller{AccountID: 1}, 9, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, c := range l.Conditions {
		got += fmt.Sprintf("%d:%s:%d ", c.ID, c.Type, c.ViolationCloseTimer)
	}
	if want := "1:apm_app_metric:0 2:browser_metric:1 3:mobile_metric:1 6:apm_app_metric:0 "; got != want || p != (Paging{Page: 1, Last: 1}) {
		t.Fatalf("conditions %s, want %s (%+v)", got, want, p)
	}
	if c := l.Conditions[0]; c.Enabled || c.Name != "a1" || fmt.Sprint(c.Terms) != fmt.Sprint([]restv2.Term{{Duration: "10", Operator: "below", Priority: "warning", Threshold: "1", TimeFunction: "all"}}) {
		t.Errorf("condition 1: %+v", c)
	}
	s, _, err := tr.ListSyntheticsConditions(context.Background(), Caller{AccountID: 1}, 9, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Conditions) != 1 || s.Conditions[0].ID != 5 || s.Conditions[0].Name != "a5" {
		t.Errorf("synthetics %+v", s.Conditions)
	}
	for _, prod := range legacyProducts() {
		if legacyType(prod) == "" {
			t.Errorf("listed product %s has no REST type", prod)
		}
	}
	if legacyType("NRQL") != "" || legacyType("SYNTHETICS") != "" {
		t.Error("NRQL or synthetics conditions listed as legacy")
	}
}

// TestLegacyTypeBySourceProduct walks every AlertsAsNrqlSourceProduct of the generated
// enum: each has a decided REST type (or none), REST's types appear once each except
// the two APM types NerdGraph cannot tell apart, and the criteria ask exactly for the
// products that have one.
func TestLegacyTypeBySourceProduct(t *testing.T) {
	want := map[ng.AlertsAsNrqlSourceProduct]string{
		ng.AlertsAsNrqlSourceProductApm:            "apm_app_metric",
		ng.AlertsAsNrqlSourceProductBrowser:        "browser_metric",
		ng.AlertsAsNrqlSourceProductMobile:         "mobile_metric",
		ng.AlertsAsNrqlSourceProductServers:        "servers_metric",
		ng.AlertsAsNrqlSourceProductNrql:           "",
		ng.AlertsAsNrqlSourceProductInfrastructure: "",
		ng.AlertsAsNrqlSourceProductSynthetics:     "",
	}
	if len(legacySources) != len(ng.AllAlertsAsNrqlSourceProduct) {
		t.Errorf("%d rows for %d source products", len(legacySources), len(ng.AllAlertsAsNrqlSourceProduct))
	}
	var asked []ng.AlertsAsNrqlSourceProduct
	for _, p := range ng.AllAlertsAsNrqlSourceProduct {
		w, ok := want[p]
		if !ok {
			t.Errorf("source product %s has no decided REST type", p)
			continue
		}
		if got := legacyType(p); got != w {
			t.Errorf("legacyType(%s) = %q, want %q", p, got, w)
		}
		if w != "" {
			asked = append(asked, p)
		}
	}
	got := legacyProducts()
	if len(got) != len(asked) {
		t.Fatalf("criteria ask for %v, want %v", got, asked)
	}
	for _, p := range asked {
		found := false
		for _, g := range got {
			found = found || g == p
		}
		if !found {
			t.Errorf("criteria omit %s", p)
		}
	}
	if legacyType("SOMETHING_NEW") != "" {
		t.Error("an unknown source product must not be listed")
	}
}

// A legacy condition's entities are the application ids its NRQL form names by appId,
// in a list or by equality; other names, or none, leave them null.
func TestLegacyConditionEntitiesFromItsQuery(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"SELECT average(apm.service.apdex) FROM Metric WHERE appId IN (924224343, 314221522)", []string{"924224343", "314221522"}},
		{"SELECT average(duration) FROM PageView WHERE appId = 814441364", []string{"814441364"}},
		{"SELECT count(*) FROM Transaction WHERE appName = 'checkout'", nil},
		{"SELECT max(diskUsedPercent) FROM StorageSample", nil},
		{"not nrql", nil},
	}
	for _, tt := range tests {
		if got := appIDsNamed(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.query, got, tt.want)
		}
	}
}
