package gateway

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// result is what a route handler produces.
type result struct {
	doc    v2.Document
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
	Retired *v2.Error
	// Operations are the genqlient operations that answer the route (the usage
	// report shows their text as the migration target).
	Operations []string
	handle     func(ctx context.Context, g *Gateway, rq *request) (*result, error)
}

// Routes is the table of REST v2 routes the gateway serves, in README order.
func Routes() []Route {
	return []Route{
		{
			Name: "applications.list", Operations: []string{"AppList", "AppInventory", "AppNamePage"}, Methods: []string{http.MethodGet, http.MethodPost}, Path: "/applications",
			Fidelity: Approximate,
			Note: "summaries are NerdGraph's rolling values, shown as REST showed them (three significant digits, Apdex scores to two decimals); `concurrent_instance_count` and " +
				"`links.alert_policy` are omitted, `end_user_summary.apdex_score` is null; `settings.end_user_apdex_threshold` is 7 without browser monitoring, as REST showed it; host ids are stable surrogates; `enable_real_user_monitoring` means an " +
				"injected browser app exists; `links` and `last_reported_at` come from an NRQL inventory of the last hour (the hosts and instances lists' membership) (when the page's NRQL fails, read again for the page's applications alone; when that fails too, omitted with `X-V2bridge-Degraded: inventory: nrql query failed`; a failed browser application search is declared as `browser applications: entity search failed`; such answers are never cached); the inventory is one row per application (its hosts and instances as NRQL `uniques()` lists); an account-wide inventory that fills its LIMIT of 1000 applications is read again for the page's applications (1 round trip; a filtered list's matches, 1 per 5000; an application with 10,000 hosts or instances or more is served from the first 10,000 NRQL returns, with `X-V2bridge-Degraded`); `filter[name]`/`filter[language]`/`filter[host]` read every match (1 round trip per 200: entity search's name LIKE is documented only as a fuzzy token match, not shown to return every application REST's case-insensitive substring match returns; evidence in bench/README.md); with `name_filter: like` (opt-in, after `v2bridge verify`'s `filter[name]` probes find nothing missing on the account) NerdGraph's name LIKE narrows the search and REST's match is applied to what it returns (2 round trips on any account), declared as `X-V2bridge-Degraded: filter[name]: entity search name LIKE`; on an account known to be large (its account-wide inventory found full at 1000 applications, or more than 1000 applications counted) `filter[name]`/`filter[language]` without `filter[host]` read only the name and language of every application, keep the matches for `cache.list_ttl` and read a page's applications by id with their inventory in 1 round trip (each later page 1 more); once an account's inventory is known to pass 1000 applications a page costs 2 round trips (the page's inventory by id); `filter[ids]` reads only those ids' inventory; a page reached without the one before it costs a round trip per 200 applications before it (entity search pages by cursor only)",
			handle: handleApplicationsList,
		},
		{
			Name: "applications.show", Operations: []string{"AppShow"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}",
			Fidelity: Approximate,
			Note:     "as applications.list (a failed inventory or browser search is declared, and the answer not cached); answered from the caller's entity cache for `cache.entity_ttl` (30 s; an application write through the same replica — or any replica of a fleet sharing `store.url` — retires the entries of every key of the account), so summaries may be that much older",
			handle:   handleApplicationsShow,
		},
		{
			Name: "applications.update", Operations: []string{"AppShow", "AppUpdate"}, Methods: []string{http.MethodPut},
			Path: "/applications/{id:[0-9]+}", Fidelity: Approximate,
			Note: "one read and one mutation document with only the changed fields (alias, Apdex, the browser app's " +
				"Apdex and loader; RUM switched on with a Lite agent); an `end_user_apdex_threshold` sent with " +
				"`enable_real_user_monitoring: true` to an application without browser monitoring (the docs' alias example) is set " +
				"on the browser application the enable creates: one more read and update, or 503 with Retry-After while NerdGraph " +
				"does not show it yet (the enable applied; the same PUT again sets the threshold); the threshold a GET shows without browser monitoring (7) sent back unchanged is accepted; `use_server_side_config` is read-only as in REST; " +
				"the answer is the read with the changes applied; idempotent by construction, so a retry after a " +
				"502/504 \"may have been recorded\" sends only what still differs",
			handle: handleApplicationUpdate,
		},
		{
			Name: "applications.delete", Operations: []string{"AppShow", "AppDelete"}, Methods: []string{http.MethodDelete},
			Path: "/applications/{id:[0-9]+}", Fidelity: Exact,
			Note: "409 while the application reports, as REST; never forced; a retry after a delete whose outcome was " +
				"unknown (502/504) that finds the application gone answers 200 with it (`write_attempt_window`, per replica, or fleet-wide with `store.url`)",
			handle: handleApplicationDelete,
		},
		{
			Name: "applications.metrics", Operations: []string{"MetricNames"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/metrics",
			Fidelity: Approximate,
			Note: "names reported in the last day only (REST listed every name ever reported); `values` per name " +
				"come from a classifier of metric families; 1000 a page with `page=` (no `cursor=`); at most 10000 names " +
				"(NRQL `uniques()`'s limit: a list that reaches it says so in `X-V2bridge-Degraded`)",
			handle: handleMetricNames,
		},
		{
			Name: "applications.metric_data", Operations: []string{"MetricData"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/metrics/data",
			Fidelity: Approximate,
			Note: "values computed from NRQL over the unscoped timeslice rows (`scope IS NULL`: scoped copies of segment " +
				"metrics are left out) with New Relic's published formulas (migrate-to-nrql), except average_network_time, " +
				"× 1000 of the published formula (REST gives it in ms); as published, network_time_percentage is a fraction " +
				"(no × 100, unlike fe_time_percentage) and total_used_mb the slice's sum (summarized: over every minute); " +
				"shown as REST showed them: three significant digits, counts exact, Apdex scores to two decimals (`raw=true` as computed); metrics without data in the range are `metrics_not_found`; " +
				"`raw=true` value names are undocumented upstream (count, total_call_time, total_exclusive_time, " +
				"min_call_time, max_call_time, sum_of_squares)",
			handle: handleMetricData,
		},
		{
			Name: "application_hosts.list", Operations: []string{"AppHosts"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/hosts",
			Fidelity: Approximate,
			Note: "hosts with timeslice data in the last hour (the specification lists hosts and instances that reported in approximately the last hour; " +
				"the same membership as the application's links); summaries over the last 10 minutes only (REST's host and " +
				"instance summary window: zeros for a host silent that long); ids are stable surrogates (31-bit, from account, " +
				"application and host name), not REST's ids; summaries computed from HttpDispatcher/OtherTransaction/Errors/Apdex " +
				"timeslices, shown as REST showed them (three significant digits, Apdex scores to two decimals); health_status is the application's; `end_user_summary` omitted, `links.server` null; at most 5000 " +
				"hosts or instances (NRQL's facet limit: an application with more says so in `X-V2bridge-Degraded`)",
			handle: hostsHandler(false),
		},
		{
			Name: "application_hosts.show", Operations: []string{"AppHosts"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/hosts/{host_id:[0-9]+}",
			Fidelity: Approximate, Note: "as application_hosts.list", handle: hostHandler(false),
		},
		{
			Name: "application_instances.list", Operations: []string{"AppHosts"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/instances",
			Fidelity: Approximate,
			Note: "instance ids are the agents' `realAgentId`; `end_user_summary` omitted, `port` null; otherwise as " +
				"application_hosts.list",
			handle: hostsHandler(true),
		},
		{
			Name: "application_instances.show", Operations: []string{"AppHosts"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/instances/{host_id:[0-9]+}",
			Fidelity: Approximate, Note: "as application_instances.list", handle: hostHandler(true),
		},
		{
			Name: "application_hosts.metrics", Operations: []string{"MetricNames"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/hosts/{host_id:[0-9]+}/metrics",
			Fidelity: Approximate, Note: "as applications.metrics, scoped with `host = '<name>'`", handle: handleMetricNames,
		},
		{
			Name: "application_hosts.metric_data", Operations: []string{"MetricData"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/hosts/{host_id:[0-9]+}/metrics/data",
			Fidelity: Approximate, Note: "as applications.metric_data, scoped with `host = '<name>'` (a cold host id costs one extra round trip)",
			handle: handleMetricData,
		},
		{
			Name: "application_instances.metrics", Operations: []string{"MetricNames"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/instances/{instance_id:[0-9]+}/metrics",
			Fidelity: Approximate, Note: "as applications.metrics, scoped with `realAgentId`", handle: handleMetricNames,
		},
		{
			Name: "application_instances.metric_data", Operations: []string{"MetricData"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/instances/{instance_id:[0-9]+}/metrics/data",
			Fidelity: Approximate, Note: "as applications.metric_data, scoped with `realAgentId = '<id>'` (a string, as New Relic's migration page quotes it)", handle: handleMetricData,
		},
		{
			Name: "deployments.list", Operations: []string{"Deployments"}, Methods: []string{http.MethodGet}, Path: "/applications/{id:[0-9]+}/deployments",
			Fidelity: Approximate,
			Note: "NRQL over ChangeTrackingEvent and Deployment of the last 90 days (`version` of either event type is " +
				"the revision), newest first, read past NRQL's 5000-row cap (one more round trip per 5000 rows; beyond " +
				"100,000, or 5000 in one millisecond, the answer carries `X-V2bridge-Degraded`); deployments this replica (or, with `store.url`, " +
				"any replica of the fleet) recorded for the caller in the last 10 minutes are merged in until NRDB has ingested them (at most 1000 per application " +
				"and replica, oldest dropped first: a list that could miss a dropped one says so in `X-V2bridge-Degraded`); ids are stable " +
				"surrogates of the change-tracking ids; timestamps in UTC",
			handle: handleDeploymentList,
		},
		{
			Name: "deployments.create", Operations: []string{"DeploymentCreateEvent"}, Methods: []string{http.MethodPost}, Path: "/applications/{id:[0-9]+}/deployments",
			Fidelity: Approximate,
			Note: "recorded with changeTrackingCreateEvent (Deployment/Basic; changeTrackingCreateDeployment with " +
				"`use_create_deployment`); REST's input rules checked before sending; a timestamp must be later than the " +
				"newest deployment in NRQL or recorded by this replica (with `store.url`: by any replica) (NRDB ingests with a " +
				"delay), checked and written under a per-application lock in the replica (with `store.url`: fleet-wide, so two " +
				"replicas cannot both accept the same timestamp); never retried; id is a surrogate; " +
				"identical POSTs that overlap record one deployment (REST recorded each); after a 502/504 \"may have been " +
				"recorded\" an identical retry within `write_attempt_window` is looked up first and answered 201 with the " +
				"recorded deployment, or 503 with Retry-After while NRDB may not have ingested it (for 2 minutes; then it is " +
				"sent again); optional `Idempotency-Key` (not REST's) replays the 201 for the window, 422 when reused with another " +
				"body; settled attempts are remembered per replica, or fleet-wide with `store.url` (two identical POSTs reaching " +
				"two replicas at the same moment are two writes)",
			handle: handleDeploymentCreate,
		},
		{
			Name: "deployments.delete", Methods: []string{http.MethodDelete}, Path: "/applications/{id:[0-9]+}/deployments/{deployment_id:[0-9]+}",
			Fidelity: Unsupported,
			Note:     "change-tracking events are immutable: 501 naming the replacement",
			Retired: &v2.Error{Status: http.StatusNotImplemented, Title: "Deleting deployments is not supported: New Relic change tracking " +
				"events are immutable and NerdGraph has no delete for them. Record a new deployment instead, or route this call " +
				"to the REST API with pass-through until July 31, 2027"},
		},
		{
			Name: "deployments.v0", Operations: []string{"DeploymentCreateEvent"}, Methods: []string{http.MethodPost}, Path: "/deployments", Legacy: true,
			Fidelity: Approximate,
			Note: "legacy `POST /deployments.xml` (form `deployment[app_name]` or `deployment[application_id]`, id or name; " +
				"prefixed or not; `x-api-key` or a mapped `x-license-key`); recorded as deployments.create; the typed v0 " +
				"XML answer lacks the `avg-*` snapshot statistics; a missing revision becomes the UTC receive time; retries " +
				"and `Idempotency-Key` as deployments.create",
			handle: handleDeploymentV0,
		},
		{
			Name: "browser_applications.list", Operations: []string{"BrowserSearch", "BrowserDetails"}, Methods: []string{http.MethodGet},
			Path: "/browser_applications", Fidelity: Approximate,
			Note: "every match is read (1 round trip per 200) plus one for the page's loader scripts; ids of APM-injected " +
				"agents are the APM application's id (`servingApmApplicationId`), others the browser application's; " +
				"`loader_script` is the loader each application is configured with (REST returned only the Lite one)",
			handle: handleBrowserList,
		},
		{
			Name: "browser_applications.create", Operations: []string{"BrowserCreate"}, Methods: []string{http.MethodPost},
			Path: "/browser_applications", Fidelity: Approximate,
			Note: "agentApplicationCreateBrowser with a Lite loader (configurable), 201; the key is read from the loader " +
				"script; never retried",
			handle: handleBrowserCreate,
		},
		{
			Name: "mobile_applications.list", Operations: []string{"MobileSearch"}, Methods: []string{http.MethodGet},
			Path: "/mobile_applications", Fidelity: Approximate,
			Note: "from `mobileSummary`, NerdGraph's rolling values (REST's summary covered the last 30 minutes): " +
				"`active_users`, `interaction_time` and `unresolved_crash_count` have no source and are null; " +
				"throughput = HTTP requests a minute; `response_time` in seconds (NerdGraph's, and REST's in the one recorded answer); " +
				"throughput, response time and calls per session shown as REST showed them (three significant digits), the rates unrounded; " +
				"`supports_crash_data` always true",
			handle: handleMobileList,
		},
		{
			Name: "mobile_applications.show", Operations: []string{"MobileShow"}, Methods: []string{http.MethodGet},
			Path: "/mobile_applications/{id:[0-9]+}", Fidelity: Approximate, Note: "as mobile_applications.list",
			handle: handleMobileShow,
		},
		{
			Name: "mobile_applications.create", Operations: []string{"MobileCreate"}, Methods: []string{http.MethodPost},
			Path: "/mobile_applications", Fidelity: Approximate,
			Note: "agentApplicationCreateMobile; answered in the show shape plus `application_token` (REST's create " +
				"shape is undocumented); never retried",
			handle: handleMobileCreate,
		},
		{
			Name: "mobile_applications.metrics", Operations: []string{"MetricNames"}, Methods: []string{http.MethodGet},
			Path: "/mobile_applications/{id:[0-9]+}/metrics", Fidelity: Approximate,
			Note: "as applications.metrics, scoped with `entity.guid`", handle: handleMetricNames,
		},
		{
			Name: "mobile_applications.metric_data", Operations: []string{"MetricData"}, Methods: []string{http.MethodGet},
			Path: "/mobile_applications/{id:[0-9]+}/metrics/data", Fidelity: Approximate,
			Note: "as applications.metric_data, scoped with `entity.guid` (New Relic documents timeslice NRQL and its " +
				"attributes for APM only; this scoping of mobile timeslices is undocumented; mobile application version ids are not supported)",
			handle: handleMetricData,
		},
		{
			Name: "key_transactions.list", Operations: []string{"KeyTransactionSearch", "KeyTransactionDetails", "NrqlQuery"},
			Methods: []string{http.MethodGet}, Path: "/key_transactions", Fidelity: Approximate,
			Note: "KeyTransactionEntity (configuration cached for the list TTL) and one NRQL over the transaction's timeslices " +
				"for the ten-minute `application_summary` (three significant digits, Apdex scores to two decimals, as REST showed them); `end_user_summary` is null (no per-transaction browser source); " +
				"`transaction_name` is `metricName` without `WebTransaction/`; sorted by id; a page whose applications share " +
				"metric names beyond NRQL's 5000 facets is read per half of its applications (a round trip each)",
			handle: handleKeyTransactionList,
		},
		{
			Name: "key_transactions.show", Operations: []string{"KeyTransactionShow", "NrqlQuery"}, Methods: []string{http.MethodGet},
			Path: "/key_transactions/{id:[0-9]+}", Fidelity: Approximate,
			Note:   "as key_transactions.list; 1 round trip when the list is cached, else 2",
			handle: handleKeyTransactionShow,
		},
		{
			Name: "alerts_policies.list", Operations: []string{"Policies"}, Methods: []string{http.MethodGet},
			Path: "/alerts_policies", Fidelity: Approximate,
			Note: "policiesSearch; `created_at`/`updated_at` are not exposed by NerdGraph and null; New Relic keeps " +
				"this REST namespace, so `passthrough` is an option",
			handle: handlePolicyList,
		},
		{
			Name: "alerts_policies.create", Operations: []string{"PolicyCreate"}, Methods: []string{http.MethodPost},
			Path: "/alerts_policies", Fidelity: Approximate, Note: "alertsPolicyCreate, 201; as alerts_policies.list",
			handle: handlePolicyCreate,
		},
		{
			Name: "alerts_policies.update", Operations: []string{"PolicyUpdate"}, Methods: []string{http.MethodPut},
			Path: "/alerts_policies/{id:[0-9]+}", Fidelity: Approximate, Note: "alertsPolicyUpdate; as alerts_policies.list",
			handle: handlePolicyUpdate,
		},
		{
			Name: "alerts_policies.delete", Operations: []string{"Policy", "PolicyDelete"}, Methods: []string{http.MethodDelete},
			Path: "/alerts_policies/{id:[0-9]+}", Fidelity: Approximate, Note: "one read (for the answer) and alertsPolicyDelete",
			handle: handlePolicyDelete,
		},
		{
			Name: "alerts_conditions.list", Operations: []string{"AsNrqlConditions"}, Methods: []string{http.MethodGet},
			Path: "/alerts_conditions", Fidelity: Approximate,
			Note: "asNrqlConditionsSearch (APM, browser, mobile and servers conditions in their NRQL form): `id`, `name`, " +
				"`enabled`, `runbook_url` (null when unset), `terms` and `violation_close_timer` are kept; `entities`, `metric` and `condition_scope` " +
				"cannot be recovered and are null, `user_defined` and `gc_metric` omitted; every APM condition is `apm_app_metric`: " +
				"`sourceProduct` is NerdGraph's only origin field and says APM for key-transaction (`apm_kt_metric`) and JVM " +
				"(`apm_jvm_metric`) conditions too, so they cannot be told apart",
			handle: handleConditionList,
		},
		{
			Name: "alerts_nrql_conditions.list", Operations: []string{"NrqlConditions"}, Methods: []string{http.MethodGet},
			Path: "/alerts_nrql_conditions", Fidelity: Approximate,
			Note: "nrqlConditionsSearch by policy; static and baseline conditions; terms as strings; `since_value` is the " +
				"CADENCE aggregation delay in windows, null otherwise; `runbook_url` null when unset; `value_function` is `single_value` (NerdGraph evaluates the query's single value); the signal's `slide_by`, `aggregation_method` (as the docs write it: " +
				"`EVENT_FLOW`), `aggregation_delay` and `aggregation_timer` are NerdGraph's, written when set (REST's answer for " +
				"them is unpublished; the create body's types are used); `expected_groups` and `ignore_overlap` " +
				"have no NerdGraph field and are omitted",
			handle: handleNrqlConditionList,
		},
		{
			Name: "alerts_nrql_conditions.create", Operations: []string{"NrqlConditionStaticCreate", "NrqlConditionBaselineCreate"},
			Methods: []string{http.MethodPost}, Path: "/alerts_nrql_conditions/policies/{policy_id:[0-9]+}", Fidelity: Approximate,
			Note: "alertsNrqlConditionStaticCreate or alertsNrqlConditionBaselineCreate by `type`, 201; REST's input rules " +
				"checked first, the signal's `slide_by`, `aggregation_method`, `aggregation_delay` and `aggregation_timer` " +
				"included (sent as NerdGraph's signal fields); `value_function: sum` and outlier conditions are refused with 422; " +
				"never retried",
			handle: handleNrqlConditionCreate,
		},
		{
			Name: "alerts_nrql_conditions.update", Operations: []string{"NrqlCondition", "NrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate"},
			Methods: []string{http.MethodPut}, Path: "/alerts_nrql_conditions/{id:[0-9]+}", Fidelity: Approximate,
			Note: "the update of the fields sent, by the body's `type` (one round trip; client-go always sends it), else after a " +
				"read of the condition; NerdGraph refuses a type change",
			handle: handleNrqlConditionUpdate,
		},
		{
			Name: "alerts_nrql_conditions.delete", Operations: []string{"NrqlCondition", "ConditionDelete"},
			Methods: []string{http.MethodDelete}, Path: "/alerts_nrql_conditions/{id:[0-9]+}", Fidelity: Approximate,
			Note: "one read (for the answer) and alertsConditionDelete", handle: handleNrqlConditionDelete,
		},
		notImplemented("alerts_conditions.write", "/alerts_conditions/", []string{http.MethodPost, http.MethodPut, http.MethodDelete},
			"NerdGraph has no mutation for legacy APM/browser/mobile metric conditions. Replace the condition with an NRQL "+
				"condition (NerdGraph alertsNrqlConditionStaticCreate, or POST /v2/alerts_nrql_conditions/policies/{policy_id}) "+
				"whose WHERE clause names the entity, or route this call to the REST API, which keeps this namespace (retained_alerts: passthrough)"),
		{
			Name: "alerts_entity_conditions.list", Operations: []string{"NrqlConditions"}, Methods: []string{http.MethodGet},
			Path: "/alerts_entity_conditions/{entity_id:[0-9]+}", Fidelity: Approximate,
			Note: "retained by New Relic (passed through with `retained_alerts: passthrough`); translated: the account's NRQL " +
				"conditions whose WHERE clause lists the entity (`appId IN`, `appName IN`, `entity.guid IN`, read by an NRQL " +
				"parser), in the nrql_condition fields under `conditions`; legacy metric conditions cannot be listed; " +
				"`entity_type` `KeyTransaction`, `Server` and `Plugin` (types REST listed) answer 501 naming the replacement: " +
				"their conditions are not translated",
			handle: handleEntityConditionList,
		},
		{
			Name: "alerts_entity_conditions.add", Operations: []string{"NrqlCondition", "AsNrqlConditions", "NrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate"},
			Methods: []string{http.MethodPut}, Path: "/alerts_entity_conditions/{entity_id:[0-9]+}", Fidelity: Approximate,
			Note: "as alerts_entity_conditions.list; the entity is appended to the NRQL condition's entity list and the query " +
				"updated (alertsNrqlCondition*Update); 409 when the WHERE clause has no such list; legacy metric conditions: 501",
			handle: handleEntityConditionEdit(true),
		},
		{
			Name: "alerts_entity_conditions.remove", Operations: []string{"NrqlCondition", "AsNrqlConditions", "NrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate"},
			Methods: []string{http.MethodDelete}, Path: "/alerts_entity_conditions/{entity_id:[0-9]+}", Fidelity: Approximate,
			Note:   "as alerts_entity_conditions.add, removing the entity; 409 when it is the list's only entity",
			handle: handleEntityConditionEdit(false),
		},
		{
			Name: "alerts_synthetics_conditions.list", Operations: []string{"AsNrqlConditions"}, Methods: []string{http.MethodGet},
			Path: "/alerts_synthetics_conditions", Fidelity: Approximate,
			Note: "retained by New Relic (passed through with `retained_alerts: passthrough`); translated: asNrqlConditionsSearch " +
				"with sourceProduct SYNTHETICS (`id`, `name`, `runbook_url`, `enabled`); `monitor_id` has no NerdGraph field there and is omitted",
			handle: handleSyntheticsConditionList,
		},
		notImplemented("alerts_synthetics_conditions", "/alerts_synthetics_conditions/", []string{http.MethodPost, http.MethodPut, http.MethodDelete},
			"Synthetics alert conditions are retained on the REST API (retained_alerts: passthrough) and their writes are not "+
				"translated: NerdGraph writes them as NRQL conditions on SyntheticCheck (alertsNrqlConditionStaticCreate)"),
		notImplemented("alerts_external_service_conditions", "/alerts_external_service_conditions", nil,
			"External service alert conditions are retained on the REST API (retained_alerts: passthrough) and not "+
				"translated: NerdGraph has no external-service condition; write an NRQL condition on the external call "+
				"metrics instead (alertsNrqlConditionStaticCreate)"),
		notImplemented("alerts_location_failure_conditions", "/alerts_location_failure_conditions", nil,
			"Multi-location synthetics conditions are retained on the REST API (retained_alerts: passthrough) and not "+
				"translated: NerdGraph writes them as NRQL conditions on SyntheticCheck (alertsNrqlConditionStaticCreate)"),
		{
			Name: "alerts_violations.list", Operations: []string{"NrqlQuery"}, Methods: []string{http.MethodGet},
			Path: "/alerts_violations", Fidelity: Approximate,
			Note: "NRQL over NrAiIncident (New Relic's named replacement), last 30 days without `start_date`, newest first, " +
				"read once per key and `start_date` for `cache.list_ttl` (the pages a client follows come from one read), " +
				"no rel=\"last\" as in REST; `label` is the incident title; `entity.group_id` and `links.incident_id` have no " +
				"source and are omitted; a non-integer `incidentId` gets a stable surrogate id, the one alerts_incidents gives " +
				"the same id string (whether NrAiIncident's incidentId equals the id in NerdGraph issues' incidentIds is " +
				"unverified: no published recording shows both); more than 5000 incidents are read 5000 a round trip, newest " +
				"first (incidents whose last events share one millisecond beyond 5000 are served from the newest with " +
				"`X-V2bridge-Degraded`)",
			handle: handleViolations,
		},
		{
			Name: "alerts_incidents.list", Operations: []string{"Incidents", "Policies"}, Methods: []string{http.MethodGet},
			Path: "/alerts_incidents", Fidelity: Approximate,
			Note: "NerdGraph issues of the last 30 days (REST's incidents were renamed issues), read once a round trip per " +
				"NerdGraph page of issues and kept per key and filter for `cache.list_ttl` (later pages and repeats cost none): ids are surrogates of the " +
				"issue ids, `links.violations` are the issue's incident ids (published aiIssues answers show them as UUIDs, " +
				"given stable surrogate ids; that they are NrAiIncident's incidentId, hence alerts_violations' ids, is " +
				"unverified), " +
				"`links.policy_id` the first of its policies; correlated issues spanning policies cannot be expressed; " +
				"`incident_preference` from every page of the account's policies (a round trip per further 100)",
			handle: handleIncidents,
		},
		retired("servers", "/servers", "The Servers product was retired; use Infrastructure hosts "+
			"(NerdGraph entitySearch with domain = 'INFRA' AND type = 'HOST')"),
		retired("labels", "/labels", "Labels were retired on March 31, 2020; use entity tags "+
			"(NerdGraph taggingAddTagsToEntity / taggingDeleteTagFromEntity)"),
		retired("plugins", "/plugins", "The Plugins product was decommissioned; use New Relic integrations "+
			"and NerdGraph entitySearch"),
		retired("components", "/components", "Plugin components were decommissioned with the Plugins product; "+
			"use New Relic integrations and NerdGraph entitySearch"),
		retired("alerts_channels", "/alerts_channels", "Alert notification channels were replaced by destinations "+
			"and workflows (NerdGraph aiNotifications and aiWorkflows)"),
		retired("alerts_policy_channels", "/alerts_policy_channels", "Policy-channel links were replaced by "+
			"workflows (NerdGraph aiWorkflows)"),
		retired("alerts_events", "/alerts_events", "Alert events were retired; query NrAiIncident and NrAiIssue "+
			"events with NRQL (NerdGraph actor.account.nrql)"),
		retired("users", "/users", "The users endpoint was retired with the original user model; use NerdGraph "+
			"user management (actor.organization.userManagement)"),
	}
}

// notImplemented is a route NerdGraph has no path for: 501 with a title naming the
// replacement (or pass-through), for the given methods (nil: every method) below path.
func notImplemented(name, path string, methods []string, title string) Route {
	if methods == nil {
		methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}
	}
	return Route{
		Name: name + ".unsupported", Methods: methods, Path: path, Prefix: true,
		Fidelity: Unsupported, Note: title, Retired: &v2.Error{Status: http.StatusNotImplemented, Title: title},
	}
}

// retired is a route of a product New Relic retired: 410 Gone with a title that names
// the replacement, for every method and every path below it.
func retired(name, path, title string) Route {
	return Route{
		Name: name + ".retired", Methods: []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete},
		Path: path, Prefix: true, Fidelity: Unsupported, Note: title,
		Retired: &v2.Error{Status: http.StatusGone, Title: title},
	}
}

// routes builds the mux: every route under /v2 and under /accounts/{accountId}/v2,
// with the .json or .xml extension; anything else gets a v2-shaped 404 or 405.
func (g *Gateway) routes() http.Handler { return g.routesOf(Routes()) }

// routesOf builds the mux of the given route table.
func (g *Gateway) routesOf(table []Route) http.Handler {
	m := mux.NewRouter()
	m.UseEncodedPath()
	idx := routeIndex{full: m, bySegment: map[string]*mux.Router{}, byShape: map[string]*mux.Router{}}
	shapes := map[string][]string{} // a segment's route shapes
	unshaped := map[string]bool{}   // segments with a path a shape cannot stand for
	for _, rt := range table {
		seg := firstSegment(rt.Path)
		sh, ok := templateShape(rt.Path)
		switch {
		case !ok:
			unshaped[seg] = true
		case !rt.Prefix && !slices.Contains(shapes[seg], sh):
			shapes[seg] = append(shapes[seg], sh)
		}
	}
	for seg := range unshaped {
		delete(shapes, seg)
	}
	for _, rt := range table {
		h := g.handle(rt)
		switch g.modeOf(rt) {
		case ModePassthrough:
			h = g.passthrough(rt)
		case ModeCompare:
			if g.cfg.Compare != nil {
				h = g.cfg.Compare(rt, h, g.passthrough(rt))
			}
		}
		// A route goes to the full router, its segment's, and its shape's; a prefix
		// route to every shape router of its segment (it may match any of them), in
		// the table's order everywhere.
		routers := []*mux.Router{m, idx.segment(rt.Path)}
		if rt.Prefix {
			for _, sh := range shapes[firstSegment(rt.Path)] {
				routers = append(routers, idx.shape(sh))
			}
		} else if sh, _ := templateShape(rt.Path); !unshaped[firstSegment(rt.Path)] {
			routers = append(routers, idx.shape(sh))
		}
		for _, r := range routers {
			for _, prefix := range []string{"/v2", "/accounts/{accountId:[0-9]+}/v2"} {
				if rt.Legacy {
					r.Handle(strings.TrimSuffix(prefix, "/v2")+rt.Path+".{format:xml}", h).Methods(rt.Methods...)
					continue
				}
				if rt.Prefix {
					r.PathPrefix(prefix + rt.Path).Handler(h).Methods(rt.Methods...)
					continue
				}
				r.Handle(prefix+rt.Path+".{format:json|xml}", h).Methods(rt.Methods...)
			}
		}
	}
	unmatched := g.passthrough(Route{Name: "unmatched", Fidelity: Unsupported})
	m.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (g.cfg.UnmatchedPassthrough || g.passRetained(r.URL.Path)) && strings.Contains(r.URL.Path, "/v2/") {
			unmatched.ServeHTTP(w, r)
			return
		}
		if g.serveUnsupportedREST(w, r) { // edges.go: real REST v2 paths not translated → 501
			return
		}
		g.writeError(w, r, formatOf(r), &v2.Error{Status: http.StatusNotFound, Title: titleRouteNotFound})
	})
	m.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allowHeader(m, r)) // edges.go
		g.writeError(w, r, formatOf(r), &v2.Error{Status: http.StatusMethodNotAllowed, Title: "Method " + r.Method + " is not allowed on this route"})
	})
	return idx
}

// routeIndex sends a request to a gorilla/mux router holding only the routes of its
// path's first segment after /v2/ (or /accounts/{id}/v2/, or the legacy root), so a
// route late in the table is not found after every regular expression before it: the
// full router tried ~120 of them in order (BenchmarkRouting: the last route cost 4.6 µs
// more than the first, 9.5 µs under /accounts/{id}). Whatever a segment's router does
// not match (an unknown path, a method a path does not take, a path its segment does
// not name exactly) goes to the full router, so every answer is the one the full
// router gives (TestRouteIndexMatchesFullRouter, FuzzRouteIndex).
//
// Within a segment, a router per path shape (the path with every number written {}
// and without its extension: "applications/{}/metrics/data") holds only the routes of
// that shape, so a request's regular expressions are those of one or two routes: every
// path variable is a number ([0-9]+) and no literal segment is one, so a route of
// another shape cannot match the path (the segment's prefix routes, which can, are in
// each of its shape routers). A segment with a route for which that does not hold gets
// no shape routers (templateShape; TestRouteIndexUnshapedSegment).
type routeIndex struct {
	full      *mux.Router
	bySegment map[string]*mux.Router
	byShape   map[string]*mux.Router
}

// newIndexRouter is a router whose misses go to the full router.
func newIndexRouter(full *mux.Router) *mux.Router {
	r := mux.NewRouter()
	r.UseEncodedPath()
	r.NotFoundHandler = full
	r.MethodNotAllowedHandler = full
	return r
}

// shape is the router of a path shape, made on first use.
func (x routeIndex) shape(sh string) *mux.Router {
	r, ok := x.byShape[sh]
	if !ok {
		r = newIndexRouter(x.full)
		x.byShape[sh] = r
	}
	return r
}

// templateShape is a route path's shape: "/applications/{id:[0-9]+}/hosts" →
// "applications/{}/hosts". ok is false when a shape cannot stand for the path: a
// variable that may be other than a number, or a literal segment that is one (a
// request's shape could then name another route's); such a segment gets no shape
// routers, its requests its segment's router.
func templateShape(p string) (shape string, ok bool) {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, sg := range segs {
		switch {
		case strings.HasPrefix(sg, "{"):
			if !strings.HasSuffix(sg, ":[0-9]+}") {
				return "", false
			}
			segs[i] = "{}"
		case allDigits(sg) || strings.ContainsAny(sg, "{}"):
			return "", false
		}
	}
	return strings.Join(segs, "/"), true
}

// maxShape bounds the shapes looked up (the longest route's is 47 bytes).
const maxShape = 96

// requestShape writes the shape of p (the path below /v2/, or below the root for a
// legacy route) into buf: each segment of digits only becomes {}, and the last
// segment's .json or .xml is dropped. ok is false for a path without one of those
// extensions or too long for buf; such paths use the segment's router.
func requestShape(buf *[maxShape]byte, p string) (shape []byte, ok bool) {
	switch {
	case strings.HasSuffix(p, ".json"):
		p = p[:len(p)-len(".json")]
	case strings.HasSuffix(p, ".xml"):
		p = p[:len(p)-len(".xml")]
	default:
		return nil, false
	}
	out := buf[:0]
	for first := true; p != ""; first = false {
		seg := p
		if i := strings.IndexByte(p, '/'); i >= 0 {
			seg, p = p[:i], p[i+1:]
			if p == "" {
				return nil, false // a trailing slash: no route's shape
			}
		} else {
			p = ""
		}
		if !first {
			out = append(out, '/')
		}
		if allDigits(seg) {
			seg = "{}"
		}
		if len(out)+len(seg) > maxShape {
			return nil, false
		}
		out = append(out, seg...)
	}
	return out, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// segment is the router of path's first segment, made on first use.
func (x routeIndex) segment(path string) *mux.Router {
	seg := firstSegment(path)
	r, ok := x.bySegment[seg]
	if !ok {
		r = newIndexRouter(x.full)
		x.bySegment[seg] = r
	}
	return r
}

// ServeHTTP matches r on its segment's router and calls the route's handler with r
// itself: the path variables go into the request's state (routeVars), so neither of
// the two request copies gorilla/mux's Router.ServeHTTP makes to carry them (and the
// matched route) in the context is made (BenchmarkGatewayApplicationShowCached: 2
// copies and 2 context values a request). Everything else takes gorilla/mux's own
// path unchanged: a request without a state, a path gorilla would clean (its redirect),
// and what the segment does not match (the full router's answer, as its NotFound and
// MethodNotAllowed handlers would give it).
func (x routeIndex) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sub := x.pick(r)
	st := stateFrom(r.Context())
	if sub == x.full || st == nil || !cleanEscapedPath(r.URL) {
		sub.ServeHTTP(w, r)
		return
	}
	m := &st.match // in the state: one allocation a request fewer
	if !sub.Match(r, m) || m.MatchErr != nil || m.Handler == nil {
		x.full.ServeHTTP(w, r)
		return
	}
	st.vars = m.Vars
	m.Handler.ServeHTTP(w, r)
}

// cleanEscapedPath reports whether gorilla/mux would serve u's escaped path as it is
// (a router with UseEncodedPath redirects to its cleaned form otherwise): rooted, and
// path.Clean leaves it alone but for a kept trailing slash.
func cleanEscapedPath(u *url.URL) bool {
	p := u.EscapedPath()
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// routeVars are r's route path variables: from the request's state when routeIndex
// matched the route, else from gorilla/mux's context.
func routeVars(r *http.Request) map[string]string {
	if st := stateFrom(r.Context()); st != nil && st.vars != nil {
		return st.vars
	}
	return mux.Vars(r)
}

// pick is the router of r's first segment, or the full router.
func (x routeIndex) pick(r *http.Request) *mux.Router {
	p := r.URL.Path
	if rest, ok := strings.CutPrefix(p, "/accounts/"); ok {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			p = rest[i:]
		}
	}
	if rest, ok := strings.CutPrefix(p, "/v2/"); ok {
		p = rest
	} else {
		p = strings.TrimPrefix(p, "/")
	}
	var buf [maxShape]byte
	if sh, ok := requestShape(&buf, strings.TrimPrefix(p, "/")); ok {
		if sub, ok := x.byShape[string(sh)]; ok {
			return sub
		}
	}
	if sub, ok := x.bySegment[firstSegment(p)]; ok {
		return sub
	}
	return x.full
}

// firstSegment is p (without its leading '/') up to its first '/' or '.'.
func firstSegment(p string) string {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexAny(p, "/."); i >= 0 {
		return p[:i]
	}
	return p
}

// handle runs the common pipeline around a route handler: key, body, parameters,
// account, deadline, then render.
func (g *Gateway) handle(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		st := stateFrom(ctx)
		if st != nil {
			st.route, st.fidelity = rt.Name, rt.Fidelity
		}
		slotsOf(st).set(w.Header(), "X-V2bridge-Fidelity", string(rt.Fidelity))
		format := formatOf(r)
		fail := func(err error) { g.writeError(w, r, format, err) }
		if rt.Legacy {
			fail = func(err error) { g.writeV0Error(w, r, err) }
		}
		if rt.Retired != nil {
			fail(rt.Retired)
			return
		}
		key := apiKey(r.Header)
		if key == "" && rt.Legacy {
			key = strings.TrimSpace(r.Header.Get("X-License-Key"))
		}
		if key == "" {
			fail(&v2.Error{Status: http.StatusUnauthorized, Title: "No API key specified"})
			return
		}
		rq, err := g.readRequest(r, st)
		if err != nil {
			fail(err)
			return
		}
		if st != nil {
			// Every NerdGraph call of the request ends by its deadline; the graphql
			// client arms it, so an answer from a cache costs no timer.
			st.calls.SetDeadline(st.start.Add(g.cfg.RequestTimeout))
		} else {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, g.cfg.RequestTimeout)
			defer cancel()
		}
		keyHash, keySum := st.keyHashes(key) // admission.go
		defer g.settle(r, st, keyHash)       // authguard.go: usage rows only for accepted keys
		if !g.admit(w, fail, r, keyHash, g.tr.KeyAccepted(keyHash)) {
			return
		}
		if g.limit != nil {
			ok, remaining, reset := g.limit.allowFleet(ctx, keyHash)
			g.limit.headers(w.Header(), remaining, reset)
			if !ok {
				g.cfg.Metrics.rateLimited.Inc()
				secs := int(time.Until(reset).Seconds()) + 1
				w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
				w.Header().Set("X-RateLimit-Docs", rateLimitDocs)
				g.writeDoc(w, r, format, http.StatusTooManyRequests, v2.EmptyDocument{})
				return
			}
		}
		upstreamKey := key
		var acct int64
		var source string
		if mk, ok := g.cfg.Keys.lookup(keyHash); ok {
			upstreamKey = mk.UserKey
			if mk.AccountID != 0 {
				acct, source = mk.AccountID, "map"
			}
		} else if g.cfg.RejectUnmappedLegacyKeys && !isUserKey(key) {
			fail(&v2.Error{Status: http.StatusUnauthorized, Title: "Invalid API key"})
			return
		}
		if upstreamKey == key {
			ctx = ng.WithAPIKeySum(ctx, key, keySum) // hashed once, above
		} else {
			ctx = ng.WithAPIKey(ctx, upstreamKey)
		}
		ctx = translate.WithKeyHash(ctx, keyHash) // NerdGraph's verdict on the key gates its cached answers
		if acct == 0 || rq.vars["accountId"] != "" || rq.http.Header.Get("X-Account-Id") != "" ||
			rq.http.Header.Get("Newrelic-Account-Id") != "" { // both headers resolveAccount reads
			acct, source, err = g.resolveAccount(ctx, rq, keyHash)
			if err != nil {
				fail(err)
				return
			}
		}
		rq.caller = translate.Caller{KeyHash: keyHash, AccountID: acct}
		rq.mobile = strings.HasPrefix(rt.Name, "mobile_applications.")
		if st != nil {
			// The access log names every caller whose account was resolved; the usage
			// report and per-caller series wait for NerdGraph's acceptance (settle).
			st.caller, st.account, st.accountSource = keyHash[:8], acct, source
		}
		res, err := rt.handle(ctx, g, rq)
		if err != nil {
			fail(err)
			return
		}
		if res.raw != nil {
			g.writeRaw(w, r, res.status, res.rawType, res.raw)
			return
		}
		if res.paging != nil {
			if link := g.linkHeader(r, rq.params, *res.paging); link != "" {
				w.Header().Set("Link", link)
			}
		}
		status := res.status
		if status == 0 {
			status = http.StatusOK
		}
		g.writeDoc(w, r, format, status, res.doc)
	})
}

// upstreamHeaders reports the NerdGraph calls made for the request.
func upstreamHeaders(w http.ResponseWriter, st *reqState) {
	if st == nil {
		return
	}
	h := w.Header()
	st.hdr.set(h, "X-V2bridge-Upstream-Calls", itoa(st.calls.Count()))
	var buf [64]byte // on the stack: only the header's string is allocated
	b := append(buf[:0], "total;dur="...)
	b = appendMS(b, time.Since(st.start))
	b = append(b, ", upstream;dur="...)
	b = appendMS(b, st.calls.Elapsed())
	st.hdr.set(h, "Server-Timing", string(b))
	if capped := st.caps.String(); capped != "" {
		st.hdr.set(h, "X-V2bridge-Degraded", capped)
	}
}
