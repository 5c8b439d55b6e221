package contracts

import (
	"testing"

	"github.com/v2bridge/v2bridge/translate"
)

// TestErrorRateIsAPercentEverywhere pins error_rate's unit across the routes that show
// it. NerdGraph's ApmApplicationSummaryData.errorRate is "the percentage of responses
// to all transactions with an error" (the schema's own description, carried into
// newrelic-client-go pkg/entities/types.go, which tutone generates from NerdGraph
// introspection), and New Relic's golden metric of the same name is
// `(count(apm.service.error.count) / count(apm.service.transaction.duration)) * 100`
// with unit PERCENTAGE (github.com/newrelic/entity-definitions,
// entity-types/apm-application/golden_metrics.yml). So application_summary.error_rate
// passes errorRate through, and the host and instance summaries, computed from
// timeslices, use 100 × errors / calls (REST's formula, docs-website
// src/content/docs/apis/rest-api-v2/application-examples-v2/application-error-rate-example-v2.mdx).
//
// No public recording of apmSummary with values exists (README), so the answers here
// are constructed, not recorded (testdata/constructed/): one application whose
// summary says 2.5 (percent) and whose one host had 25 errors in 1000 calls. A
// translation that scaled either side (×100 or ÷100) makes the two disagree.
func TestErrorRateIsAPercentEverywhere(t *testing.T) {
	const wantPercent = 2.5
	tr, _, ctx, c := setup(t, map[string]recording{
		"AppShow":  {file: "constructed/AppShow.error-rate.json"},
		"AppHosts": {file: "constructed/AppHosts.error-rate.json"},
	})
	app, err := tr.ShowApplication(ctx, c, 42)
	if err != nil {
		t.Fatalf("application: %v", err)
	}
	hosts, _, err := tr.Hosts(ctx, c, 42, false, translate.HostListRequest{})
	if err != nil {
		t.Fatalf("hosts: %v", err)
	}
	if len(hosts.Hosts) != 1 {
		t.Fatalf("%d hosts, want 1", len(hosts.Hosts))
	}
	if app.Application.Summary == nil {
		t.Fatal("no application_summary")
	}
	if got := app.Application.Summary.ErrorRate; got != wantPercent {
		t.Errorf("application_summary.error_rate = %v, want %v (apmSummary.errorRate is a percent)", got, wantPercent)
	}
	if got := hosts.Hosts[0].Summary.ErrorRate; got != wantPercent {
		t.Errorf("host application_summary.error_rate = %v, want %v (100 × 25 errors / 1000 calls)", got, wantPercent)
	}
}
