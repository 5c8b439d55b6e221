package gateway

import (
	"context"
	"net/http"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// result is what a route handler produces.
type result struct {
	doc    restv2.Document
	status int // 0 = 200
	paging *translate.Paging
	// raw, when set, is sent as is with rawType (legacy v0 XML).
	raw     []byte
	rawType string
}

// Route is one REST v2 route: its name (used in logs, metrics and the route modes of
// migration pilots), methods, path below /v2 without the .json/.xml extension, and
// declared fidelity.
type Route struct {
	Name     string
	Methods  []string
	Path     string
	Fidelity Fidelity
	// Note says what differs from REST v2 (for approximate) or what replaced the
	// route (for unsupported); it is the README's fidelity column.
	Note string
	// Prefix makes Path match itself and everything below it (retired products).
	Prefix bool
	// Legacy is a pre-v2 route: served at the root (not under /v2), .xml only, with
	// the legacy <errors><error> bodies.
	Legacy bool
	// Retired is the status and title of a route NerdGraph has no path for; such a
	// route answers without a key or an upstream call.
	Retired *restv2.Error
	// Operations are the genqlient operations that answer the route (the usage
	// report shows their text as the migration target).
	Operations []string
	handle     func(ctx context.Context, g *Gateway, rq *request) (*result, error)
	// replay: the route's GET answers read from the caches alone may be kept and
	// served again (replay.go). Set only where every read the handler makes, and the
	// account list the pipeline may read, vouches for its cache entry.
	replay bool
}

// Routes is the table of REST v2 routes the gateway serves, in README order.
func Routes() []Route {
	return []Route{
		{
			Name: "applications.list", Methods: []string{http.MethodGet, http.MethodPost},
			Path: "/applications", Fidelity: Approximate,
			Operations: []string{"AppList", "AppInventory", "AppInventoryNext", "AppCursor", "AppSearchPage", "AppNamePage", "BrowserPage"}, handle: handleApplicationsList,
			Note: noteApplicationsList,
		},
		{
			Name: "applications.show", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"AppShow"}, handle: handleApplicationsShow, replay: true,
			Note: noteApplicationsShow,
		},
		{
			Name: "applications.update", Methods: []string{http.MethodPut},
			Path: "/applications/{id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"AppShow", "AppUpdate"}, handle: handleApplicationUpdate,
			Note: noteApplicationsUpdate,
		},
		{
			Name: "applications.delete", Methods: []string{http.MethodDelete},
			Path: "/applications/{id:[0-9]+}", Fidelity: Exact,
			Operations: []string{"AppShow", "AppDelete"}, handle: handleApplicationDelete,
			Note: noteApplicationsDelete,
		},
		{
			Name: "applications.metrics", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/metrics", Fidelity: Approximate,
			Operations: []string{"MetricNames"}, handle: handleMetricNames,
			Note: noteApplicationsMetrics,
		},
		{
			Name: "applications.metric_data", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/metrics/data", Fidelity: Approximate,
			Operations: []string{"MetricData"}, handle: handleMetricData, replay: true,
			Note: noteApplicationsMetricData,
		},
		{
			Name: "application_hosts.list", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/hosts", Fidelity: Approximate,
			Operations: []string{"AppHosts"}, handle: hostsHandler(false),
			Note: noteApplicationHostsList,
		},
		{
			Name: "application_hosts.show", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/hosts/{host_id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"AppHosts"}, handle: hostHandler(false),
			Note: "as application_hosts.list",
		},
		{
			Name: "application_instances.list", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/instances", Fidelity: Approximate,
			Operations: []string{"AppHosts"}, handle: hostsHandler(true),
			Note: noteApplicationInstancesList,
		},
		{
			Name: "application_instances.show", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/instances/{host_id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"AppHosts"}, handle: hostHandler(true),
			Note: "as application_instances.list",
		},
		{
			Name: "application_hosts.metrics", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/hosts/{host_id:[0-9]+}/metrics", Fidelity: Approximate,
			Operations: []string{"MetricNames"}, handle: handleMetricNames,
			Note: "as applications.metrics, scoped with `host = '<name>'`",
		},
		{
			Name: "application_hosts.metric_data", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/hosts/{host_id:[0-9]+}/metrics/data", Fidelity: Approximate,
			Operations: []string{"MetricData"}, handle: handleMetricData,
			Note: noteApplicationHostsMetricData,
		},
		{
			Name: "application_instances.metrics", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/instances/{instance_id:[0-9]+}/metrics", Fidelity: Approximate,
			Operations: []string{"AppHosts", "MetricNames"}, handle: handleMetricNames,
			Note: "as applications.metrics, scoped with `realAgentId`; an id not among the application's instances is REST's 404",
		},
		{
			Name: "application_instances.metric_data", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/instances/{instance_id:[0-9]+}/metrics/data", Fidelity: Approximate,
			Operations: []string{"AppHosts", "MetricData"}, handle: handleMetricData, replay: true,
			Note: noteApplicationInstancesMetricData,
		},
		{
			Name: "deployments.list", Methods: []string{http.MethodGet},
			Path: "/applications/{id:[0-9]+}/deployments", Fidelity: Approximate,
			Operations: []string{"Deployments"}, handle: handleDeploymentList,
			Note: noteDeploymentsList,
		},
		{
			Name: "deployments.create", Methods: []string{http.MethodPost},
			Path: "/applications/{id:[0-9]+}/deployments", Fidelity: Approximate,
			Operations: []string{"DeploymentCreateEvent"}, handle: handleDeploymentCreate,
			Note: noteDeploymentsCreate,
		},
		{
			Name: "deployments.delete", Methods: []string{http.MethodDelete},
			Path: "/applications/{id:[0-9]+}/deployments/{deployment_id:[0-9]+}", Fidelity: Unsupported,
			Retired: restv2.NotImplemented("Deleting deployments is not supported: New Relic change " +
				"tracking events are immutable and NerdGraph has no delete for them. Record a " +
				"new deployment instead, or route this call to the REST API with pass-through " +
				"until July 31, 2027"),
			Note: "change-tracking events are immutable: 501 naming the replacement",
		},
		{
			Name: "deployments.v0", Methods: []string{http.MethodPost},
			Path: "/deployments", Fidelity: Approximate, Legacy: true,
			Operations: []string{"DeploymentCreateEvent"}, handle: handleDeploymentV0,
			Note: noteDeploymentsV0,
		},
		{
			Name: "browser_applications.list", Methods: []string{http.MethodGet},
			Path: "/browser_applications", Fidelity: Approximate,
			Operations: []string{"BrowserSearch", "BrowserDetails"}, handle: handleBrowserList,
			Note: noteBrowserApplicationsList,
		},
		{
			Name: "browser_applications.create", Methods: []string{http.MethodPost},
			Path: "/browser_applications", Fidelity: Approximate,
			Operations: []string{"BrowserCreate"}, handle: handleBrowserCreate,
			Note: noteBrowserApplicationsCreate,
		},
		{
			Name: "mobile_applications.list", Methods: []string{http.MethodGet},
			Path: "/mobile_applications", Fidelity: Approximate,
			Operations: []string{"MobileSearch"}, handle: handleMobileList,
			Note: noteMobileApplicationsList,
		},
		{
			Name: "mobile_applications.show", Methods: []string{http.MethodGet},
			Path: "/mobile_applications/{id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"MobileShow"}, handle: handleMobileShow,
			Note: "as mobile_applications.list",
		},
		{
			Name: "mobile_applications.create", Methods: []string{http.MethodPost},
			Path: "/mobile_applications", Fidelity: Approximate,
			Operations: []string{"MobileCreate"}, handle: handleMobileCreate,
			Note: noteMobileApplicationsCreate,
		},
		{
			Name: "mobile_applications.metrics", Methods: []string{http.MethodGet},
			Path: "/mobile_applications/{id:[0-9]+}/metrics", Fidelity: Approximate,
			Operations: []string{"MetricNames"}, handle: handleMetricNames,
			Note: "as applications.metrics, scoped with `entity.guid`",
		},
		{
			Name: "mobile_applications.metric_data", Methods: []string{http.MethodGet},
			Path: "/mobile_applications/{id:[0-9]+}/metrics/data", Fidelity: Approximate,
			Operations: []string{"MetricData"}, handle: handleMetricData, replay: true,
			Note: noteMobileApplicationsMetricData,
		},
		{
			Name: "key_transactions.list", Methods: []string{http.MethodGet},
			Path: "/key_transactions", Fidelity: Approximate,
			Operations: []string{"KeyTransactionSearch", "KeyTransactionDetails", "NrqlQuery"},
			handle:     handleKeyTransactionList,
			Note:       noteKeyTransactionsList,
		},
		{
			Name: "key_transactions.show", Methods: []string{http.MethodGet},
			Path: "/key_transactions/{id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"KeyTransactionShow", "NrqlQuery"}, handle: handleKeyTransactionShow,
			Note: "as key_transactions.list; 1 round trip when the list is cached, else 2",
		},
		{
			Name: "alerts_policies.list", Methods: []string{http.MethodGet},
			Path: "/alerts_policies", Fidelity: Approximate,
			Operations: []string{"Policies"}, handle: handlePolicyList,
			Note: noteAlertsPoliciesList,
		},
		{
			Name: "alerts_policies.create", Methods: []string{http.MethodPost},
			Path: "/alerts_policies", Fidelity: Approximate,
			Operations: []string{"PolicyCreate"}, handle: handlePolicyCreate,
			Note: "alertsPolicyCreate, 201; as alerts_policies.list",
		},
		{
			Name: "alerts_policies.update", Methods: []string{http.MethodPut},
			Path: "/alerts_policies/{id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"PolicyUpdate"}, handle: handlePolicyUpdate,
			Note: "alertsPolicyUpdate; as alerts_policies.list",
		},
		{
			Name: "alerts_policies.delete", Methods: []string{http.MethodDelete},
			Path: "/alerts_policies/{id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"Policy", "PolicyDelete"}, handle: handlePolicyDelete,
			Note: "one read (for the answer) and alertsPolicyDelete",
		},
		{
			Name: "alerts_conditions.list", Methods: []string{http.MethodGet},
			Path: "/alerts_conditions", Fidelity: Approximate,
			Operations: []string{"AsNrqlConditions"}, handle: handleConditionList,
			Note: noteAlertsConditionsList,
		},
		{
			Name: "alerts_nrql_conditions.list", Methods: []string{http.MethodGet},
			Path: "/alerts_nrql_conditions", Fidelity: Approximate,
			Operations: []string{"NrqlConditions"}, handle: handleNrqlConditionList,
			Note: noteAlertsNrqlConditionsList,
		},
		{
			Name: "alerts_nrql_conditions.create", Methods: []string{http.MethodPost},
			Path: "/alerts_nrql_conditions/policies/{policy_id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"NrqlConditionStaticCreate", "NrqlConditionBaselineCreate"},
			handle:     handleNrqlConditionCreate,
			Note:       noteAlertsNrqlConditionsCreate,
		},
		{
			Name: "alerts_nrql_conditions.update", Methods: []string{http.MethodPut},
			Path: "/alerts_nrql_conditions/{id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"NrqlCondition", "NrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate"},
			handle:     handleNrqlConditionUpdate,
			Note:       noteAlertsNrqlConditionsUpdate,
		},
		{
			Name: "alerts_nrql_conditions.delete", Methods: []string{http.MethodDelete},
			Path: "/alerts_nrql_conditions/{id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"NrqlCondition", "ConditionDelete"}, handle: handleNrqlConditionDelete,
			Note: "one read (for the answer) and alertsConditionDelete",
		},
		notImplemented("alerts_conditions.write", "/alerts_conditions/", []string{http.MethodPost, http.MethodPut, http.MethodDelete},
			"NerdGraph has no mutation for legacy APM/browser/mobile metric conditions. Replace "+
				"the condition with an NRQL condition (NerdGraph "+
				"alertsNrqlConditionStaticCreate, or POST "+
				"/v2/alerts_nrql_conditions/policies/{policy_id}) whose WHERE clause names the "+
				"entity, or route this call to the REST API, which keeps this namespace "+
				"(retained_alerts: passthrough)",
			"NerdGraph's condition writes are NRQL ones (schema/; whether alertsConditionDelete deletes a "+
				"legacy metric condition is unpublished); New Relic keeps the namespace after 2027-07-31 ("+
				eolNotice+", Not impacted)"),
		{
			Name: "alerts_entity_conditions.list", Methods: []string{http.MethodGet},
			Path: "/alerts_entity_conditions/{entity_id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"NrqlConditions"}, handle: handleEntityConditionList,
			Note: noteAlertsEntityConditionsList,
		},
		{
			Name: "alerts_entity_conditions.add", Methods: []string{http.MethodPut},
			Path: "/alerts_entity_conditions/{entity_id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"NrqlCondition", "AsNrqlConditions", "NrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate"},
			handle:     handleEntityConditionEdit(true),
			Note:       noteAlertsEntityConditionsAdd,
		},
		{
			Name: "alerts_entity_conditions.remove", Methods: []string{http.MethodDelete},
			Path: "/alerts_entity_conditions/{entity_id:[0-9]+}", Fidelity: Approximate,
			Operations: []string{"NrqlCondition", "AsNrqlConditions", "NrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate"},
			handle:     handleEntityConditionEdit(false),
			Note:       noteAlertsEntityConditionsRemove,
		},
		{
			Name: "alerts_synthetics_conditions.list", Methods: []string{http.MethodGet},
			Path: "/alerts_synthetics_conditions", Fidelity: Approximate,
			Operations: []string{"AsNrqlConditions"}, handle: handleSyntheticsConditionList,
			Note: noteAlertsSyntheticsConditionsList,
		},
		notImplemented("alerts_synthetics_conditions", "/alerts_synthetics_conditions/", []string{http.MethodPost, http.MethodPut, http.MethodDelete},
			"Synthetics alert conditions are retained on the REST API (retained_alerts: "+
				"passthrough) and their writes are not translated: NerdGraph writes them as NRQL "+
				"conditions on SyntheticCheck (alertsNrqlConditionStaticCreate)",
			"NerdGraph has no synthetics condition mutation (schema/: the condition writes are NRQL ones); "+
				"New Relic keeps the namespace after 2027-07-31 ("+eolNotice+", Not impacted)"),
		notImplemented("alerts_external_service_conditions", "/alerts_external_service_conditions", nil,
			"External service alert conditions are retained on the REST API (retained_alerts: "+
				"passthrough) and not translated: NerdGraph has no external-service condition; "+
				"write an NRQL condition on the external call metrics instead "+
				"(alertsNrqlConditionStaticCreate)",
			"NerdGraph has no external service condition type (schema/); New Relic keeps the namespace after "+
				"2027-07-31 ("+eolNotice+", Not impacted)"),
		notImplemented("alerts_location_failure_conditions", "/alerts_location_failure_conditions", nil,
			"Multi-location synthetics conditions are retained on the REST API (retained_alerts: "+
				"passthrough) and not translated: NerdGraph writes them as NRQL conditions on "+
				"SyntheticCheck (alertsNrqlConditionStaticCreate)",
			"NerdGraph has no multi-location condition type (schema/); New Relic keeps the namespace after "+
				"2027-07-31 ("+eolNotice+", Not impacted)"),
		{
			Name: "alerts_violations.list", Methods: []string{http.MethodGet},
			Path: "/alerts_violations", Fidelity: Approximate,
			Operations: []string{"NrqlQuery"}, handle: handleViolations,
			Note: noteAlertsViolationsList,
		},
		{
			Name: "alerts_incidents.list", Methods: []string{http.MethodGet},
			Path: "/alerts_incidents", Fidelity: Approximate,
			Operations: []string{"Incidents", "Policies"}, handle: handleIncidents,
			Note: noteAlertsIncidentsList,
		},
		{
			Name: "alerts_incidents.acknowledge", Methods: []string{http.MethodPut},
			Path: "/alerts_incidents/{id:[0-9]+}/acknowledge", Fidelity: Approximate,
			Operations: []string{"Incidents", "IssueAck"}, handle: incidentActionHandler(false),
			Note: noteAlertsIncidentsAcknowledge,
		},
		{
			Name: "alerts_incidents.close", Methods: []string{http.MethodPut},
			Path: "/alerts_incidents/{id:[0-9]+}/close", Fidelity: Approximate,
			Operations: []string{"Incidents", "IssueResolve"}, handle: incidentActionHandler(true),
			Note: "NerdGraph aiIssuesResolveIssue. As alerts_incidents.acknowledge; `closed_at` is the time of " +
				"the close (an incident already closed is answered as it is, with no mutation)",
		},
		{
			Name: "alerts_events.list", Methods: []string{http.MethodGet},
			Path: "/alerts_events", Fidelity: Approximate,
			Operations: []string{"NrqlQuery"}, handle: handleAlertEvents,
			Note: noteAlertsEventsList,
		},
		retired("servers", "/servers", "The Servers product was retired; use Infrastructure hosts "+
			"(NerdGraph entitySearch with domain = 'INFRA' AND type = 'HOST')",
			"no public retirement notice found; REST v2's published clients and examples have no servers calls "+
				"(newrelic-client-go v2, docs-website src/content/docs/apis/rest-api-v2/)"),
		retired("labels", "/labels", "Labels were retired on March 31, 2020; use entity tags "+
			"(NerdGraph taggingAddTagsToEntity / taggingDeleteTagFromEntity)",
			"docs-website src/content/docs/apis/rest-api-v2/labels-examples-v2/create-labels-apps-v2.mdx: "+
				"\"End Of Life at 31 March 2020\""),
		retired("plugins", "/plugins", "The Plugins product was decommissioned; use New Relic integrations "+
			"and NerdGraph entitySearch", pluginsEOL),
		retired("components", "/components", "Plugin components were decommissioned with the "+
			"Plugins product; use New Relic integrations and NerdGraph entitySearch", pluginsEOL),
		notImplemented("alerts_channels", "/alerts_channels", nil,
			"Alert channels are not translated. NerdGraph replaces a channel with a destination, a "+
				"notification channel and workflows (aiNotifications, aiWorkflows), with no object that "+
				"holds REST's channel and its policies",
			"REST serves alerts_channels until 2027-07-31 and names Workflows and Destinations as the "+
				"replacement ("+eolNotice+")"),
		notImplemented("alerts_policy_channels", "/alerts_policy_channels", nil,
			"Policy-channel links are not translated. NerdGraph links policies to notifications "+
				"through workflows (aiWorkflows), with no channel id to link",
			"as alerts_channels ("+eolNotice+")"),
		notImplemented("users", "/users", nil,
			"Users are not translated. This endpoint lists users of the original user model, which "+
				"NerdGraph does not serve; NerdGraph user management (actor.organization.userManagement) lists the users "+
				"of the New Relic One user model",
			"docs-website src/content/docs/apis/rest-api-v2/account-examples-v2/listing-users-your-account.mdx"),
	}
}

// Sources cited by several unsupported routes' notes.
const (
	eolNotice  = "newrelic/docs-website src/content/eol/2026/07/eol-07-31-26-rest-api-v2.md"
	pluginsEOL = "newrelic/terraform-provider-newrelic website/docs/d/plugin.html.markdown: " +
		"\"New Relic Plugins reached end of life Wednesday June 16, 2021\""
)

// notImplemented is a route NerdGraph has no path for: 501 with a title naming the
// replacement (or pass-through), for the given methods (nil: every method) below path;
// its note adds the source (the missing NerdGraph capability, New Relic's notice).
func notImplemented(name, path string, methods []string, title, source string) Route {
	if methods == nil {
		methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}
	}
	return Route{
		Name: name + ".unsupported", Methods: methods, Path: path, Prefix: true,
		Fidelity: Unsupported, Note: title + ". Source: " + source, Retired: restv2.NotImplemented(title),
	}
}

// retired is a route of a product New Relic retired: 410 Gone with a title that names
// the replacement, for every method and every path below it; its note adds the source
// of the retirement.
func retired(name, path, title, source string) Route {
	return Route{
		Name: name + ".retired", Methods: []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete},
		Path: path, Prefix: true, Fidelity: Unsupported, Note: title + ". Source: " + source,
		Retired: restv2.Gone(title),
	}
}

// Fidelity says how closely a route's answer matches the real REST v2 API. It is sent
// as X-V2bridge-Fidelity and listed in the README.
type Fidelity string

// The fidelity levels.
const (
	// Exact: the answer differs from REST v2 only in values NerdGraph reports
	// differently over time.
	Exact Fidelity = "exact"
	// Approximate: some fields are derived, omitted or synthesised; Note says which.
	Approximate Fidelity = "approximate"
	// Unsupported: NerdGraph has no path; the route answers a v2 error naming the
	// replacement.
	Unsupported Fidelity = "unsupported"
)
