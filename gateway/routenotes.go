package gateway

// The notes of the routes whose difference from REST v2 takes more than a line: each is
// its route's Note in the table of routes.go, and the fidelity column of the README and
// docs/fidelity.md.

// noteApplicationsList is applications.list's Note.
const noteApplicationsList = "summaries are NerdGraph's rolling values, shown as REST showed them " +
	"(three significant digits, Apdex scores to two decimals); `concurrent_instance_count` and " +
	"`links.alert_policy` are omitted, `end_user_summary.apdex_score` is null; " +
	"`settings.end_user_apdex_threshold` is 7 without browser monitoring, as REST showed it; host ids are stable " +
	"surrogates; `enable_real_user_monitoring` means an injected browser app exists; `links` and " +
	"`last_reported_at` come from an NRQL inventory of the last hour (the hosts and instances lists' " +
	"membership) (when the page's NRQL fails, read again for the page's applications alone; when " +
	"that fails too, omitted with `X-V2bridge-Degraded: inventory: nrql query failed`; a failed " +
	"browser application search is declared as `browser applications: entity search failed`; such " +
	"answers are never cached); the inventory is one row per application (its hosts and instances as " +
	"NRQL `uniques()` lists); an account-wide inventory that fills its LIMIT of 1000 applications is " +
	"read again for the page's applications (1 round trip; a filtered list's matches, 1 per 5000; an " +
	"application with 10,000 hosts or instances or more is served from the first 10,000 NRQL " +
	"returns, with `X-V2bridge-Degraded`); `filter[name]` is REST's case-insensitive substring " +
	"match, applied by the gateway to the account's names (entity search's name LIKE is not shown " +
	"to return every such match; evidence in docs/performance.md); with `name_filter: like` " +
	"(opt-in, after `v2bridge verify`'s `filter[name]` probes find nothing missing on the account) " +
	"NerdGraph's name LIKE narrows the search first, declared as `X-V2bridge-Degraded: " +
	"filter[name]: entity search name LIKE`; on an account of more than 1000 applications " +
	"`filter[name]`/`filter[language]` without `filter[host]` match in a name index per key and " +
	"account, read again in the background past `cache.name_index_refresh` (5 minutes) and served " +
	"up to `cache.name_index_max_stale` (1 hour) old: an application renamed or deleted since is " +
	"left out (each page is read by id and matched again), one created since is found by its exact " +
	"name unless the index holds that name already, and by a fragment of its name only once the " +
	"index is read again; an account of more than `cache.name_index_max_apps` (200,000) " +
	"applications keeps no index; a page past the search's last page is answered empty; round " +
	"trips by page and filter are in docs/performance.md"

// noteApplicationsShow is applications.show's Note.
const noteApplicationsShow = "as applications.list (a failed inventory or browser search is " +
	"declared, and the answer not cached); answered from the caller's entity cache for " +
	"`cache.entity_ttl` (30 s; an application write through the same replica — or any replica of a " +
	"fleet sharing `store.url` — retires the entries of every key of the account), so summaries may " +
	"be that much older"

// noteApplicationsUpdate is applications.update's Note.
const noteApplicationsUpdate = "one read and one mutation document with only the changed fields " +
	"(alias, Apdex, the browser app's Apdex and loader; RUM switched on with a Lite agent); an " +
	"`end_user_apdex_threshold` sent with `enable_real_user_monitoring: true` to an application " +
	"without browser monitoring (the docs' alias example) is set on the browser application the " +
	"enable creates: one more read and update, or 503 with Retry-After while NerdGraph does not show " +
	"it yet (the enable applied; the same PUT again sets the threshold); the threshold a GET shows " +
	"without browser monitoring (7) sent back unchanged is accepted; `use_server_side_config` is " +
	"read-only as in REST; the answer is the read with the changes applied; idempotent by " +
	"construction, so a retry after a 502/504 \"may have been recorded\" sends only what still differs"

// noteApplicationsDelete is applications.delete's Note.
const noteApplicationsDelete = "409 while the application reports, as REST; never forced; a retry " +
	"after a delete whose outcome was unknown (502/504) that finds the application gone answers 200 " +
	"with it (`write_attempt_window`, per replica, or fleet-wide with `store.url`)"

// noteApplicationsMetrics is applications.metrics's Note.
const noteApplicationsMetrics = "names reported in the last day only (REST listed every name ever " +
	"reported); `values` per name come from a classifier of metric families; 1000 a page with " +
	"`page=` (no `cursor=`); at most 10000 names (NRQL `uniques()`'s limit: a list that reaches it " +
	"says so in `X-V2bridge-Degraded`)"

// noteApplicationsMetricData is applications.metric_data's Note.
const noteApplicationsMetricData = "values computed from NRQL over the unscoped timeslice rows " +
	"(`scope IS NULL`: scoped copies of segment metrics are left out) with New Relic's published " +
	"formulas (migrate-to-nrql), except average_network_time, × 1000 of the published formula (REST " +
	"gives it in ms); as published, network_time_percentage is a fraction (no × 100, unlike " +
	"fe_time_percentage) and total_used_mb the slice's sum (summarized: over every minute); shown as " +
	"REST showed them: three significant digits, counts exact, Apdex scores to two decimals " +
	"(`raw=true` as computed); a name without data in the range is found with zero values when the " +
	"names route lists it (its last day), else `metrics_not_found` (REST: names ever reported); a " +
	"given range's slices end at `to` or at the newest minute taken as ingested (3 minutes back, 2 " +
	"summarized), inside the range (summarized over three hours: its whole hours, as REST's " +
	"recordings); `raw=true` " +
	"value names are undocumented upstream (count, total_call_time, total_exclusive_time, " +
	"min_call_time, max_call_time, sum_of_squares)"

// noteApplicationHostsList is application_hosts.list's Note.
const noteApplicationHostsList = "hosts with timeslice data in the last hour (the specification " +
	"lists hosts and instances that reported in approximately the last hour; the same membership as " +
	"the application's links); summaries over the last 10 minutes only (REST's host and instance " +
	"summary window: zeros for a host silent that long); ids are stable surrogates (31-bit, from " +
	"account, application and host name), not REST's ids; summaries computed from " +
	"HttpDispatcher/OtherTransaction/Errors/Apdex timeslices, shown as REST showed them (three " +
	"significant digits, Apdex scores to two decimals); health_status is the application's; " +
	"`end_user_summary` omitted, `links.server` null; at most 5000 hosts or instances (NRQL's facet " +
	"limit: an application with more says so in `X-V2bridge-Degraded`)"

// noteApplicationInstancesList is application_instances.list's Note.
const noteApplicationInstancesList = "instance ids are the agents' `realAgentId`; `end_user_summary` " +
	"omitted, `port` null; otherwise as application_hosts.list"

// noteApplicationHostsMetricData is application_hosts.metric_data's Note.
const noteApplicationHostsMetricData = "as applications.metric_data, scoped with `host = '<name>'` " +
	"(a cold host id costs one extra round trip)"

// noteApplicationInstancesMetricData is application_instances.metric_data's Note.
const noteApplicationInstancesMetricData = "as applications.metric_data, scoped with `realAgentId = " +
	"'<id>'` (a string, as New Relic's migration page quotes it)"

// noteDeploymentsList is deployments.list's Note.
const noteDeploymentsList = "NRQL over ChangeTrackingEvent and Deployment of the last 90 days " +
	"(`version` of either event type is the revision), newest first, read past NRQL's 5000-row cap " +
	"(one more round trip per 5000 rows; beyond 100,000, or 5000 in one millisecond, the answer " +
	"carries `X-V2bridge-Degraded`); deployments this replica (or, with `store.url`, any replica of " +
	"the fleet) recorded for the caller in the last 10 minutes are merged in until NRDB has ingested " +
	"them (at most 1000 per application and replica, oldest dropped first: a list that could miss a " +
	"dropped one says so in `X-V2bridge-Degraded`); ids are stable surrogates of the change-tracking " +
	"ids; timestamps in UTC"

// noteDeploymentsCreate is deployments.create's Note.
const noteDeploymentsCreate = "recorded with changeTrackingCreateEvent (Deployment/Basic; " +
	"changeTrackingCreateDeployment with `use_create_deployment`); REST's input rules checked before " +
	"sending; a timestamp must be later than the newest deployment in NRQL or recorded by this " +
	"replica (with `store.url`: by any replica) (NRDB ingests with a delay), checked and written " +
	"under a per-application lock in the replica (with `store.url`: fleet-wide, so two replicas " +
	"cannot both accept the same timestamp); never retried; id is a surrogate; identical POSTs that " +
	"overlap record one deployment (REST recorded each); after a 502/504 \"may have been recorded\" an " +
	"identical retry within `write_attempt_window` is looked up first and answered 201 with the " +
	"recorded deployment, or 503 with Retry-After while NRDB may not have ingested it (for 2 " +
	"minutes; then it is sent again); optional `Idempotency-Key` (not REST's) replays the 201 for " +
	"the window, 422 when reused with another body; settled attempts are remembered per replica, or " +
	"fleet-wide with `store.url` (two identical POSTs reaching two replicas at the same moment are " +
	"two writes; while the store is down, a retry through another replica, `Idempotency-Key` or " +
	"not, records a second deployment: NerdGraph takes no client id to deduplicate by)"

// noteDeploymentsV0 is deployments.v0's Note.
const noteDeploymentsV0 = "legacy `POST /deployments.xml` (form `deployment[app_name]` or " +
	"`deployment[application_id]`, id or name; prefixed or not; `x-api-key` or a mapped " +
	"`x-license-key`); recorded as deployments.create; the typed v0 XML answer lacks the `avg-*` " +
	"snapshot statistics; a missing revision becomes the UTC receive time; retries and " +
	"`Idempotency-Key` as deployments.create"

// noteBrowserApplicationsList is browser_applications.list's Note.
const noteBrowserApplicationsList = "every match is read (1 round trip per 200) plus one for the " +
	"page's loader scripts; ids of APM-injected agents are the APM application's id " +
	"(`servingApmApplicationId`), others the browser application's; `loader_script` is the loader " +
	"each application is configured with (REST returned only the Lite one)"

// noteBrowserApplicationsCreate is browser_applications.create's Note.
const noteBrowserApplicationsCreate = "agentApplicationCreateBrowser with a Lite loader " +
	"(configurable), 201; the key is read from the loader script; never retried"

// noteMobileApplicationsList is mobile_applications.list's Note.
const noteMobileApplicationsList = "from `mobileSummary`, NerdGraph's rolling values (REST's summary " +
	"covered the last 30 minutes): `active_users`, `interaction_time` and `unresolved_crash_count` " +
	"have no source and are null; throughput = HTTP requests a minute; `response_time` in seconds " +
	"(NerdGraph's, and REST's in the one recorded answer); throughput, response time and calls per " +
	"session shown as REST showed them (three significant digits), the rates unrounded; " +
	"`supports_crash_data` always true"

// noteMobileApplicationsCreate is mobile_applications.create's Note.
const noteMobileApplicationsCreate = "agentApplicationCreateMobile; answered in the show shape plus " +
	"`application_token` (REST's create shape is undocumented); never retried"

// noteMobileApplicationsMetricData is mobile_applications.metric_data's Note.
const noteMobileApplicationsMetricData = "as applications.metric_data, scoped with `entity.guid` " +
	"(New Relic documents timeslice NRQL and its attributes for APM only; this scoping of mobile " +
	"timeslices is undocumented; mobile application version ids are not supported)"

// noteKeyTransactionsList is key_transactions.list's Note.
const noteKeyTransactionsList = "KeyTransactionEntity (configuration cached for the list TTL) and " +
	"one NRQL over the transaction's timeslices for the ten-minute `application_summary` (three " +
	"significant digits, Apdex scores to two decimals, as REST showed them); `end_user_summary` is " +
	"null (no per-transaction browser source); `transaction_name` is `metricName` without " +
	"`WebTransaction/`; sorted by id; a page whose applications share metric names beyond NRQL's " +
	"5000 facets is read per half of its applications (a round trip each)"

// noteAlertsPoliciesList is alerts_policies.list's Note.
const noteAlertsPoliciesList = "policiesSearch; `created_at`/`updated_at` are not exposed by " +
	"NerdGraph and null; New Relic keeps this REST namespace, so `passthrough` is an option"

// noteAlertsConditionsList is alerts_conditions.list's Note.
const noteAlertsConditionsList = "asNrqlConditionsSearch (APM, browser, mobile and servers " +
	"conditions in their NRQL form): `id`, `name`, `enabled`, `runbook_url` (null when unset), `terms` and " +
	"`violation_close_timer` are kept; `entities` are the application ids the NRQL form names by " +
	"`appId` (an IN list or an equality; else null); `metric` and `condition_scope` cannot be " +
	"recovered and are null, `user_defined` and `gc_metric` omitted; every APM condition is `apm_app_metric`: " +
	"`sourceProduct` is NerdGraph's only origin field and says APM for key-transaction " +
	"(`apm_kt_metric`) and JVM (`apm_jvm_metric`) conditions too, so they cannot be told apart"

// noteAlertsNrqlConditionsList is alerts_nrql_conditions.list's Note.
const noteAlertsNrqlConditionsList = "nrqlConditionsSearch by policy; static and baseline " +
	"conditions; terms as strings; `since_value` is the CADENCE aggregation delay in windows, null " +
	"otherwise; `runbook_url` null when unset; `value_function` is `single_value` (NerdGraph " +
	"evaluates the query's single value); the " +
	"signal's `slide_by`, `aggregation_method` (as the docs write it: `EVENT_FLOW`), " +
	"`aggregation_delay` and `aggregation_timer` are NerdGraph's, written when set (REST's answer " +
	"for them is unpublished; the create body's types are used); `expected_groups` " +
	"and `ignore_overlap` have no NerdGraph field and are omitted"

// noteAlertsNrqlConditionsCreate is alerts_nrql_conditions.create's Note.
const noteAlertsNrqlConditionsCreate = "alertsNrqlConditionStaticCreate or " +
	"alertsNrqlConditionBaselineCreate by `type`, 201; REST's input rules checked first, the " +
	"signal's `slide_by`, `aggregation_method`, `aggregation_delay` and `aggregation_timer` included " +
	"(sent as NerdGraph's signal fields); `value_function: sum` and outlier conditions are refused " +
	"with 422; never retried"

// noteAlertsNrqlConditionsUpdate is alerts_nrql_conditions.update's Note.
const noteAlertsNrqlConditionsUpdate = "the update of the fields sent, by the body's `type` (one " +
	"round trip; client-go always sends it), else after a read of the condition; NerdGraph refuses a " +
	"type change"

// noteAlertsEntityConditionsList is alerts_entity_conditions.list's Note.
const noteAlertsEntityConditionsList = "retained by New Relic (passed through with `retained_alerts: " +
	"passthrough`); translated: the account's NRQL conditions whose WHERE clause lists the entity " +
	"(`appId IN`, `appName IN`, `entity.guid IN`, read by an NRQL parser), in the nrql_condition " +
	"fields under `conditions`; legacy metric conditions cannot be listed; `entity_type` " +
	"`KeyTransaction`, `Server` and `Plugin` (types REST listed) answer 501 naming the replacement: " +
	"their conditions are not translated"

// noteAlertsEntityConditionsAdd is alerts_entity_conditions.add's Note.
const noteAlertsEntityConditionsAdd = "as alerts_entity_conditions.list; the entity is appended to " +
	"the NRQL condition's entity list and the query updated (alertsNrqlCondition*Update); 409 when " +
	"the WHERE clause has no such list; legacy metric conditions: 501"

// noteAlertsEntityConditionsRemove is alerts_entity_conditions.remove's Note.
const noteAlertsEntityConditionsRemove = "as alerts_entity_conditions.add, removing the entity; " +
	"409 when it is the list's only entity"

// noteAlertsSyntheticsConditionsList is alerts_synthetics_conditions.list's Note.
const noteAlertsSyntheticsConditionsList = "retained by New Relic (passed through with " +
	"`retained_alerts: passthrough`); translated: asNrqlConditionsSearch with sourceProduct " +
	"SYNTHETICS (`id`, `name`, `runbook_url`, `enabled`); `monitor_id` has no NerdGraph field there " +
	"and is omitted"

// noteAlertsViolationsList is alerts_violations.list's Note.
const noteAlertsViolationsList = "NRQL over NrAiIncident (New Relic's named replacement), last 30 " +
	"days without `start_date`, newest first, read once per key and `start_date` for " +
	"`cache.list_ttl` (the pages a client follows come from one read), no rel=\"last\" as in REST; " +
	"`label` is the incident title; `entity.group_id` and `links.incident_id` have no source and are " +
	"omitted; a non-integer `incidentId` gets a stable surrogate id, the one alerts_incidents gives " +
	"the same id string (whether NrAiIncident's incidentId equals the id in NerdGraph issues' " +
	"incidentIds is unverified: no published recording shows both); more than 5000 incidents are " +
	"read 5000 a round trip, newest first (incidents whose last events share one millisecond beyond " +
	"5000 are served from the newest with `X-V2bridge-Degraded`)"

// noteAlertsIncidentsList is alerts_incidents.list's Note.
const noteAlertsIncidentsList = "NerdGraph issues of the last 30 days (REST's incidents were renamed " +
	"issues), read once a round trip per NerdGraph page of issues and kept per key and filter for " +
	"`cache.list_ttl` (later pages and repeats cost none): ids are surrogates of the issue ids, " +
	"`links.violations` are the issue's incident ids (published aiIssues answers show them as UUIDs, " +
	"given stable surrogate ids; that they are NrAiIncident's incidentId, hence alerts_violations' " +
	"ids, is unverified), `links.policy_id` the first of its policies; correlated issues spanning " +
	"policies cannot be expressed; `incident_preference` from every page of the account's policies " +
	"(a round trip per further 100)"

// noteAlertsEventsList is alerts_events.list's Note.
const noteAlertsEventsList = "NRQL over NrAiIncident opens and closes (`VIOLATION_OPEN`, " +
	"`VIOLATION_CLOSE`: the incident's title, priority and product) and change-tracking " +
	"deployments (`DEPLOYMENT`: the description, else the version) of the last 30 days, the " +
	"replacements New Relic's end-of-life notice names for this endpoint (live until 2027-07-31); " +
	"newest first in `recent_events`, 200 a page with Link headers; read once per key for " +
	"`cache.list_ttl`, 5000 rows a round trip per source (beyond 100,000, `X-V2bridge-Degraded`); " +
	"ids are stable surrogates; `product`/`entity_type` are REST's names from the entity GUID, " +
	"`entity_group_id` is the entity id; REST's `NOTIFICATION` and `INSTRUMENTATION` events have no " +
	"NerdGraph source and are not listed; `incident_id` has no source and is omitted " +
	"(`filter[incident_id]` matches nothing)"

// noteAlertsIncidentsAcknowledge is alerts_incidents.acknowledge's Note.
const noteAlertsIncidentsAcknowledge = "NerdGraph aiIssuesAckIssue. REST's incidents were renamed issues: " +
	"it acts on the issue whose surrogate id alerts_incidents gave, found among the issues of the last 30 " +
	"days, a round trip per NerdGraph page of issues until met, then one mutation; 404 for an id not " +
	"among them; the answer is the incident as alerts_incidents shows it; the caller's incident lists " +
	"are read again afterwards (other keys' within `cache.list_ttl`)"
