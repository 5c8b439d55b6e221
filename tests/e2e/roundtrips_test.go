package e2e

import (
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
)

// Every GET route costs the NerdGraph round trips it declares, read from
// X-V2bridge-Upstream-Calls: one on a warm cache (the key's account resolved, host names
// known from a host list), the declared exceptions named, and zero for a repeat that a
// cache answers. A route added to gateway.Routes without a row here fails the test.
func TestReadRoutesRoundTrips(t *testing.T) {
	e := newEnv(t)
	// Warm-up: the key's account, the application's hosts and instances (their ids and
	// names), the key transactions' configuration.
	hosts := hostsOf(t, e, "/v2/applications/"+metricApp+"/hosts.json")
	instances := hostsOf(t, e, "/v2/applications/"+metricApp+"/instances.json")
	if len(hosts.Hosts) == 0 || len(instances.Hosts) == 0 {
		t.Fatal("the metric application has no hosts or instances")
	}
	if r := e.get(t, "/v2/key_transactions.json", key1); r.status != 200 {
		t.Fatalf("key transactions: %d", r.status)
	}
	app := "/v2/applications/" + metricApp
	host := app + "/hosts/" + strconv.FormatInt(hosts.Hosts[0].ID, 10)
	instance := app + "/instances/" + strconv.FormatInt(instances.Hosts[0].ID, 10)
	const data = "/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z"
	const mobile = "/v2/mobile_applications/601483762"

	tests := []struct {
		route  string
		path   string
		status int
		first  int64 // round trips of the first request
		repeat int64 // of the same request at once
	}{
		{"applications.list", "/v2/applications.json", 200, 1, 1},
		{"applications.show", app + ".json", 200, 1, 0},
		{"applications.metrics", app + "/metrics.json", 200, 1, 0},
		{"applications.metric_data", app + data, 200, 1, 0},
		{"application_hosts.list", app + "/hosts.json", 200, 1, 1},
		{"application_hosts.show", host + ".json", 200, 1, 1},
		{"application_instances.list", app + "/instances.json", 200, 1, 1},
		{"application_instances.show", instance + ".json", 200, 1, 1},
		{"application_hosts.metrics", host + "/metrics.json", 200, 1, 0},
		{"application_hosts.metric_data", host + data, 200, 1, 0},
		{"application_instances.metrics", instance + "/metrics.json", 200, 1, 0},
		{"application_instances.metric_data", instance + data, 200, 1, 0},
		{"deployments.list", app + "/deployments.json", 200, 1, 1},
		// Every match, then one more for the page's loader scripts (declared); the matches are
		// kept for the list TTL, the loader scripts are not.
		{"browser_applications.list", "/v2/browser_applications.json", 200, 2, 1},
		{"mobile_applications.list", "/v2/mobile_applications.json", 200, 1, 1},
		{"mobile_applications.show", mobile + ".json", 200, 1, 1},
		{"mobile_applications.metrics", mobile + "/metrics.json", 200, 1, 0},
		{"mobile_applications.metric_data", mobile + "/metrics/data.json?names[]=Mobile/Crash/All&values[]=call_count&summarize=true", 200, 1, 0},
		{"key_transactions.list", "/v2/key_transactions.json", 200, 1, 1},
		{"key_transactions.show", "/v2/key_transactions/3002.json", 200, 1, 1},
		{"alerts_policies.list", "/v2/alerts_policies.json", 200, 1, 1},
		{"alerts_conditions.list", "/v2/alerts_conditions.json?policy_id=1004", 200, 1, 1},
		{"alerts_nrql_conditions.list", "/v2/alerts_nrql_conditions.json?policy_id=1001", 200, 1, 1},
		// Every NRQL condition of the account is read (a round trip per 200) and its WHERE
		// clause parsed; never cached, so an entity added is listed at once.
		// The demo's conditions name their application by appName equality: the
		// application's name is read to match them.
		{"alerts_entity_conditions.list", "/v2/alerts_entity_conditions/314221522.json?entity_type=Application", 200, 2, 2},
		{"alerts_synthetics_conditions.list", "/v2/alerts_synthetics_conditions.json?policy_id=1001", 200, 1, 1},
		{"alerts_external_service_conditions.unsupported", "/v2/alerts_external_service_conditions.json?policy_id=1001", 501, 0, 0},
		{"alerts_location_failure_conditions.unsupported", "/v2/alerts_location_failure_conditions/policies/1001.json", 501, 0, 0},
		{"alerts_violations.list", "/v2/alerts_violations.json?start_date=2026-11-01T00:00:00Z", 200, 1, 0},
		// Every issue is read once, a round trip per NerdGraph page (the demo has three), then
		// pages and repeats come from the list cache (declared).
		{"alerts_incidents.list", "/v2/alerts_incidents.json", 200, 3, 0},
		// One NRQL per source (incident events, deployments), then the list cache.
		{"alerts_events.list", "/v2/alerts_events.json", 200, 2, 0},
		{"servers.retired", "/v2/servers.json", 410, 0, 0},
		{"labels.retired", "/v2/labels.json", 410, 0, 0},
		{"plugins.retired", "/v2/plugins.json", 410, 0, 0},
		{"components.retired", "/v2/components.json", 410, 0, 0},
		{"alerts_channels.unsupported", "/v2/alerts_channels.json", 501, 0, 0},
		{"alerts_policy_channels.unsupported", "/v2/alerts_policy_channels.json", 501, 0, 0},
		{"users.unsupported", "/v2/users.json", 501, 0, 0},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.route] = true
		t.Run(tt.route, func(t *testing.T) {
			calls := func(r response) int64 {
				n, err := strconv.ParseInt(r.header.Get("X-V2bridge-Upstream-Calls"), 10, 64)
				if err != nil {
					t.Fatalf("no X-V2bridge-Upstream-Calls: %v", r.header)
				}
				return n
			}
			r := e.get(t, tt.path, key1)
			if r.status != tt.status {
				t.Fatalf("%s: status %d, want %d: %.300s", tt.path, r.status, tt.status, r.body)
			}
			if got := calls(r); got != tt.first {
				t.Errorf("%s: %d round trips, want %d", tt.path, got, tt.first)
			}
			if got := calls(e.get(t, tt.path, key1)); got != tt.repeat {
				t.Errorf("%s repeated: %d round trips, want %d", tt.path, got, tt.repeat)
			}
		})
	}
	for _, rt := range gateway.Routes() {
		if slices.Contains(rt.Methods, http.MethodGet) && !covered[rt.Name] {
			t.Errorf("GET route %s has no round-trip row", rt.Name)
		}
	}
}
