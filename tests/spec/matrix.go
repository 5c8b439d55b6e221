package spec

// Test packages, as named in rows.
const (
	e2e     = "tests/e2e:"
	shapes  = "tests/shapes:"
	docreq  = "tests/docrequests:"
	compat  = "tests/clientcompat:"
	own     = "tests/spec:"
	gw      = "gateway:"
	ngql    = "graphql:"
	trans   = "translate:"
	mig     = "migrate:"
	stt     = "state:"
	schemas = "schema:"
)

// Sections of the specification, in its order.
const (
	secAddr     = "Addresses and conventions"
	secService  = "What the service does"
	secRes      = "Resources and their fields"
	secApp      = "Resources: Application"
	secHost     = "Resources: Application host"
	secInst     = "Resources: Application instance"
	secKT       = "Resources: Key transaction"
	secBrowser  = "Resources: Browser application"
	secDeploy   = "Resources: Deployment"
	secPolicy   = "Resources: Alert policy"
	secCond     = "Resources: Alert condition"
	secMetric   = "Resources: Metric listing and metric data objects"
	secDerived  = "Resources: Derived values"
	secResOpen  = "Resources: open points"
	secStates   = "States and transitions"
	secEP       = "Endpoints"
	secEPApp    = "Endpoints: applications and their hosts, instances, metrics"
	secEPMet    = "Endpoints: metric data request parameters"
	secEPKT     = "Endpoints: key transactions"
	secEPBrw    = "Endpoints: browser applications"
	secEPDep    = "Endpoints: deployments"
	secEPAlerts = "Endpoints: alerts"
	secEPMobile = "Endpoints: mobile applications"
	secPaging   = "Endpoints: pagination"
	secEPOpen   = "Endpoints: open points"
	secAuth     = "Authentication"
	secEvents   = "Events"
	secErrors   = "Errors"
	secLimits   = "Limits"
	secVersions = "Versioning"
)

// matrix builds the rows in order.
type matrix struct {
	section string
	rows    []Row
}

func (m *matrix) in(section string) { m.section = section }

func (m *matrix) tested(id, statement string, ev []Evidence, note string, tests ...string) {
	m.rows = append(m.rows, Row{ID: id, Section: m.section, Statement: statement, Status: Tested, Tests: tests, Evidence: ev, Note: note})
}

func (m *matrix) approx(id, statement, route, note string) {
	m.rows = append(m.rows, Row{ID: id, Section: m.section, Statement: statement, Status: Approximate, Route: route, Note: note})
}

func (m *matrix) na(id, statement, reason string) {
	m.rows = append(m.rows, Row{ID: id, Section: m.section, Statement: statement, Status: NotApplicable, Note: reason})
}

func ev(e ...Evidence) []Evidence { return e }

// Matrix is the traceability matrix: every statement of the specification
// ("Application Performance Monitoring REST API v2: Service Specification"), in the specification's order.
func Matrix() []Row {
	var m matrix

	m.in(secAddr)
	m.tested("GEN-01", "`{base_url}` is the base address of US accounts, `{eu_base_url}` of EU accounts",
		ev("published: NerdGraph endpoints api.newrelic.com and api.eu.newrelic.com"),
		"the gateway is itself the base address; `--upstream us|eu` picks the NerdGraph of the data center",
		ngql+"TestResolveEndpoint")
	m.na("GEN-02", "placeholders in angle brackets stand for values; 'not shown' marks facts left open",
		"a convention of the document; the open points are rows of their own below")

	m.in(secService)
	m.tested("SVC-01", "a REST API (v2) that returns data, pushes data, configures and deletes items",
		ev(Sim), "read, record, update and delete each through their routes",
		e2e+"TestApplicationsShowAndGolden", e2e+"TestDeploymentCreateAndList", e2e+"TestApplicationUpdate", e2e+"TestApplicationDelete")
	m.tested("SVC-02", "main areas: applications, hosts, instances, metric names and timeslice data, key transactions, browser applications, deployments, alert policies and conditions",
		ev(Sim, Client), "",
		e2e+"TestApplicationsShowAndGolden", e2e+"TestHostsAndInstances", e2e+"TestMetricNames", e2e+"TestMetricDataGolden",
		e2e+"TestKeyTransactions", e2e+"TestBrowserApplications", e2e+"TestDeploymentCreateAndList", compat+"TestPolicies", compat+"TestConditions")
	m.approx("SVC-03", "main areas: entity-to-condition assignments", "alerts_entity_conditions.add",
		"retained by New Relic (passed through with retained_alerts: passthrough); translated for NRQL conditions whose WHERE clause lists entities, 501 naming the replacement for legacy metric conditions")
	m.tested("SVC-04", "mobile applications, incidents and violations are also reachable", ev(Sim, Client), "",
		e2e+"TestMobileApplications", compat+"TestIncidents", e2e+"TestViolationsPaging")
	m.tested("SVC-05", "every response is JSON when the path ends in .json and XML when it ends in .xml", ev(Sim, Examples), "",
		own+"TestSpecFormatBySuffix", shapes+"TestXMLMirrorsJSON")
	m.na("SVC-06", "availability: the feature is not available in every region",
		"a property of New Relic's service; the gateway serves wherever it runs, against the US or EU NerdGraph (GEN-01)")
	m.tested("SVC-07", "summary data is a rolling average whose window is not controlled by a time range in the request",
		ev(Sim), "", own+"TestSpecSummaryIgnoresRequestRange")
	m.approx("SVC-08", "applications' summaries: rolling three- to four-minute average", "applications.list",
		"summaries are NerdGraph's own rolling apmSummary values; their window is NerdGraph's, not recomputed")
	m.tested("SVC-09", "key transactions' summaries: rolling ten-minute average", ev(Sim),
		"the summary equals the transaction's timeslices over the last ten minutes", e2e+"TestKeyTransactions")
	m.na("SVC-10", "summary values do not match timeslice values for the same period",
		"a caution to clients, not a behaviour to reproduce: the gateway's summaries come from the same timeslices, so they agree over their own window (tests/e2e TestApplicationSummaryAgreesWithMetricData)")
	m.tested("SVC-11", "lists of hosts and instances cover those that reported in approximately the last hour", ev(Sim),
		"membership window one hour (translate.InventoryWindow), shared with the application's links; summaries stay over 10 minutes (translate.HostSummaryWindow)",
		e2e+"TestHostsListThoseReportedInTheLastHour")
	m.tested("SVC-12", "the graph API (POST {base_url}/graphql, EU too) takes the same user key in the Api-Key header and a JSON body with a query string",
		ev("published: NerdGraph's endpoint and header"), "every upstream call of the gateway is such a request", ngql+"TestMakeRequest", ngql+"TestResolveEndpoint")
	m.na("SVC-13", "all REST v2 endpoints, the alerts endpoints and the legacy deployments v0 API end on July 31, 2027",
		"a date of New Relic's service; answering REST v2 after it is the gateway's purpose")
	m.tested("SVC-14", "deployments are to be recorded with the change tracking mutation changeTrackingCreateEvent",
		ev("published: the NerdGraph schema (schema/)"), "POST deployments sends the DeploymentCreateEvent operation (changeTrackingCreateEvent), validated against the full schema",
		own+"TestSpecDeploymentMutations", e2e+"TestDeploymentInputRules", schemas+"TestOperationsValidateAgainstFullSchema")
	m.tested("SVC-15", "the graph operations named as replacements (entitySearch, entity, agentApplicationSettingsUpdate, agentApplicationDelete, agentApplicationCreateMobile, agentApplicationCreateBrowser, agentApplicationEnableApmBrowser) answer the REST routes",
		ev(Sim, "published: the NerdGraph schema (schema/)"), "agentApplicationEnableApmBrowser switches RUM on in an application update",
		e2e+"TestApplicationsListPaging", e2e+"TestApplicationsShowAndGolden", e2e+"TestApplicationUpdate", e2e+"TestApplicationDelete",
		e2e+"TestMobileApplications", e2e+"TestBrowserApplications", schemas+"TestOperationsValidateAgainstFullSchema")
	m.tested("SVC-16", "the graph API uses entity GUIDs instead of numeric ids, cursor-based pagination and a query language for metric data",
		ev("published: New Relic's entity GUID format"), "the gateway derives GUIDs from ids, turns cursors into REST pages and metric requests into NRQL",
		trans+"TestGUIDExamples", e2e+"TestApplicationsListPaging", trans+"TestMetricNRQLQuoting")

	m.in(secRes)
	m.tested("RES-ID-01", "identifiers (application, host, instance, key transaction, browser application) are integers",
		ev(Examples), "ids are checked to be JSON integers", shapes+"TestShapes")

	m.in(secApp)
	for _, f := range []struct{ id, s string }{
		{"RES-APP-01", "id: integer"}, {"RES-APP-02", "name: string"}, {"RES-APP-03", "language: string (agent language)"},
	} {
		m.tested(f.id, f.s, ev(Examples, Client), "", shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", compat+"TestApplications")
	}
	m.tested("RES-APP-04", "health_status: string", ev(Examples, Sim), "", shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", own+"TestSpecHealthStatusAndReporting")
	m.tested("RES-APP-05", "reporting: boolean", ev(Examples, Sim), "", shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", own+"TestSpecHealthStatusAndReporting")
	m.tested("RES-APP-06", "last_reported_at: ISO 8601 timestamp with offset", ev(Examples, Sim), "",
		shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", e2e+"TestHostsListThoseReportedInTheLastHour", e2e+"TestApplicationFieldsByReporting")
	m.tested("RES-APP-07", "application_summary: response_time, throughput, error_rate, apdex_target, apdex_score (numbers)",
		ev(Examples, Sim), "", shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", e2e+"TestApplicationSummaryAgreesWithMetricData")
	m.tested("RES-APP-08", "end_user_summary: response_time, throughput, apdex_target (numbers)", ev(Examples, Sim), "",
		shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", e2e+"TestBrowserEnrichmentListAgreesWithShow")
	m.approx("RES-APP-09", "end_user_summary.apdex_score (number)", "applications.list",
		"omitted: NerdGraph's apmBrowserSummary has no Apdex score (declared in tests/shapes too)")
	m.tested("RES-APP-10", "settings: app_apdex_threshold, end_user_apdex_threshold (numbers), enable_real_user_monitoring, use_server_side_config (booleans)",
		ev(Examples, Sim), "", shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", e2e+"TestApplicationUpdate")
	m.tested("RES-APP-11", "links.application_instances and links.application_hosts: arrays of integers", ev(Examples, Sim),
		"the same members as the hosts and instances lists", shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", e2e+"TestHostsAndInstances", e2e+"TestHostsListThoseReportedInTheLastHour")
	m.approx("RES-APP-12", "links.alert_policy: integer", "applications.list",
		"omitted: the legacy single alert policy of an application has no NerdGraph equivalent")
	m.tested("RES-APP-13", "the list response is an object with key applications (array of Application)", ev(Examples, Client), "",
		shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", e2e+"TestApplicationsListPaging", compat+"TestApplications")
	m.tested("RES-APP-14", "the single-item response uses the same object shape", ev(Examples, Sim),
		"under the key application", shapes+"TestShapes/applications_list.json", shapes+"TestShapes/application_show.json", e2e+"TestApplicationsShowAndGolden", e2e+"TestBrowserEnrichmentListAgreesWithShow")

	m.in(secHost)
	m.tested("RES-HOST-01", "response wrapper key application_hosts (array)", ev(Examples, Sim), "", shapes+"TestShapes/application_hosts_list.json", e2e+"TestHostsAndInstances")
	m.tested("RES-HOST-02", "id: integer (host id)", ev(Examples), "", shapes+"TestShapes/application_hosts_list.json")
	m.tested("RES-HOST-03", "application_name, host, language, health_status: strings", ev(Examples, Sim), "",
		shapes+"TestShapes/application_hosts_list.json", e2e+"TestHostsAndInstances")
	m.tested("RES-HOST-04", "application_summary: object", ev(Examples, Sim), "over the last 10 minutes",
		shapes+"TestShapes/application_hosts_list.json", e2e+"TestHostsAndInstances", e2e+"TestHostsListThoseReportedInTheLastHour")
	m.tested("RES-HOST-05", "links.application: integer; links.application_instances: array of integer", ev(Examples, Sim), "",
		shapes+"TestShapes/application_hosts_list.json", e2e+"TestHostsAndInstances")
	m.approx("RES-HOST-06", "a host id is unique and is not the id of a physical server; one server may carry several hosts",
		"application_hosts.list", "ids are stable surrogates of account, application and host name (unique per application host, never a server id), not REST's own ids")

	m.in(secInst)
	m.tested("RES-INST-01", "response wrapper key application_instances (array)", ev(Sim, Client), "",
		e2e+"TestHostsAndInstances", compat+"TestInstances")
	m.tested("RES-INST-02", "id: integer (instance id); application_name, host, language, health_status: strings; application_summary: object",
		ev(Examples, Client), "", shapes+"TestShapes/application_instance_show.json", compat+"TestInstances")
	m.tested("RES-INST-03", "links.application and links.application_host: integers", ev(Examples, Sim), "",
		shapes+"TestShapes/application_instance_show.json", e2e+"TestHostsAndInstances")
	for _, a := range []struct{ id, agent, is string }{
		{"RES-INST-04", "Go", "the Go program on the host reporting to the application name"},
		{"RES-INST-05", "Java", "a Java virtual machine"},
		{"RES-INST-06", ".NET", "the AppDomain (.NET Framework agent)"},
		{"RES-INST-07", "Node.js", "a worker process"},
		{"RES-INST-08", "PHP", "the daemon agent"},
		{"RES-INST-09", "Ruby", "an individual worker process"},
		{"RES-INST-10", "Python", "the master and worker processes"},
	} {
		m.na(a.id, "for the "+a.agent+" agent an instance is "+a.is,
			"the agent decides what it reports as one instance; the gateway lists each reporting agent instance (realAgentId) as NerdGraph has it, whatever the language")
	}

	m.in(secKT)
	m.tested("RES-KT-01", "single-item response: object with key_transaction and links", ev(Examples, Sim), "",
		shapes+"TestShapes/key_transaction_show.json", e2e+"TestKeyTransactions")
	m.tested("RES-KT-02", "key_transaction.id: integer; name and transaction_name: strings", ev(Examples, Client), "",
		shapes+"TestShapes/key_transaction_show.json", compat+"TestKeyTransactions")
	m.tested("RES-KT-03", "key_transaction.application_summary: response_time, throughput, error_rate, apdex_target, apdex_score",
		ev(Examples, Sim), "", shapes+"TestShapes/key_transaction_show.json", e2e+"TestKeyTransactions")
	m.tested("RES-KT-04", "key_transaction.links.application: integer", ev(Sim, Client), "the parent application is found by that id",
		e2e+"TestKeyTransactions", compat+"TestKeyTransactions")
	m.tested("RES-KT-05", "links: key key_transaction.application whose value is /v2/applications/{application_id}", ev(Sim), "",
		e2e+"TestKeyTransactions")
	m.tested("RES-KT-06", "only summary data exists for a key transaction; timeslice data comes through its parent transaction",
		ev(Sim), "the parent's WebTransaction/<name> metric data agrees with the summary; no key transaction metric route exists",
		e2e+"TestKeyTransactions")

	m.in(secBrowser)
	m.tested("RES-BRW-01", "id: integer; name: string", ev(Examples, Sim), "", shapes+"TestShapes/browser_applications_list.json", shapes+"TestShapes/browser_application_create.json", e2e+"TestBrowserApplications")
	m.tested("RES-BRW-02", "browser_monitoring_key: string", ev(Examples, Sim),
		"read from the loader's configuration, as NerdGraph gives it", shapes+"TestShapes/browser_applications_list.json", shapes+"TestShapes/browser_application_create.json", e2e+"TestBrowserApplications")
	m.na("RES-BRW-03", "the browser_monitoring_key is linked to, but different from, the account license key, identifies the reporting account and cannot be used to derive the license key",
		"a property of New Relic's keys; the gateway passes on the key NerdGraph's loader configuration holds and never reads a license key")
	m.tested("RES-BRW-04", "loader_script: string (the loader script)", ev(Examples, Sim), "", shapes+"TestShapes/browser_applications_list.json", shapes+"TestShapes/browser_application_create.json", e2e+"TestBrowserApplications")
	m.na("RES-BRW-05", "the loader script is JSON-encoded, about 10 kilobytes, configured with the license key and application id",
		"properties of New Relic's loader: the gateway passes on the script NerdGraph returns, unaltered")
	m.na("RES-BRW-06", "the loader script is inserted in-line in the page head, before the first script tag",
		"an instruction to the page author; the gateway returns the script text")
	m.tested("RES-BRW-07", "apps created through this API support basic page load timing only; only the lite loader script is returned",
		ev(Sim), "created with a Lite loader (agentApplicationCreateBrowser)", e2e+"TestBrowserApplications")
	m.approx("RES-BRW-08", "only the lite loader script is returned (lists)", "browser_applications.list",
		"a list returns each application's loader as NerdGraph has it: an application configured with the SPA or Pro loader gets that script")

	m.in(secDeploy)
	m.tested("RES-DEP-01", "id: integer; timestamp: string; links.application: integer", ev(Examples, Sim), "",
		shapes+"TestShapes/deployments_list.json", e2e+"TestDeploymentCreateAndList")
	m.tested("RES-DEP-02", "revision: string, required on creation, at most 127 characters", ev(Sim), "",
		e2e+"TestDeploymentInputRules/revision_127", e2e+"TestDeploymentInputRules/revision_128", e2e+"TestDeploymentInputRules/revision_missing")
	m.tested("RES-DEP-03", "changelog: string or absent, at most 65535 characters", ev(Sim), "",
		own+"TestSpecDeploymentTextLimits", e2e+"TestDeploymentInputRules/changelog_65536")
	m.tested("RES-DEP-04", "description: string or null, at most 65535 characters", ev(Sim), "",
		own+"TestSpecDeploymentTextLimits", e2e+"TestDeploymentCreateAndList")
	m.tested("RES-DEP-05", "user: string, at most 31 characters", ev(Sim), "", e2e+"TestDeploymentInputRules/user_31", e2e+"TestDeploymentInputRules/user_32")
	m.tested("RES-DEP-06", "timestamp: ISO 8601", ev(Sim, Examples), "written with +00:00", e2e+"TestDeploymentCreateAndList", shapes+"TestShapes/deployments_list.json")
	m.tested("RES-DEP-07", "list response: deployments (array) and links with deployment.agent → /v2/applications/{application_id}",
		ev(Examples, Sim), "", own+"TestSpecDeploymentListEnvelopeAndHeaders", shapes+"TestShapes/deployments_list.json")
	m.tested("RES-DEP-08", "response headers include Cache-Control (max-age 0, private, must-revalidate) and Content-Type: application/json",
		ev(Sim), "", own+"TestSpecDeploymentListEnvelopeAndHeaders")
	m.tested("RES-DEP-09", "response headers include ETag", ev(Sim, Examples),
		"a strong tag (\"<hex>\", a digest of the bytes sent) on every 200, and a 304 to a GET naming it in If-None-Match, as REST's Rails answers",
		own+"TestSpecDeploymentListETag")
	m.tested("RES-DEP-10", "recording a deployment creates a deployment marker on application charts (not for browser applications)",
		ev(Sim), "the marker is the change-tracking event recorded on the APM application entity and listed back; a browser application's id is a 404",
		e2e+"TestDeploymentCreateAndList", compat+"TestDeployments", own+"TestSpecNoDeploymentOnBrowserApplication")

	m.in(secPolicy)
	m.tested("RES-POL-01", "id: integer; name: string", ev(Client), "", compat+"TestPolicies")
	m.tested("RES-POL-02", "incident_preference: string (value PER_POLICY appears)", ev(Client), "", compat+"TestPolicies")
	m.approx("RES-POL-03", "created_at and updated_at: integers, epoch milliseconds", "alerts_policies.list",
		"omitted: NerdGraph does not expose a policy's creation and update times")
	m.tested("RES-POL-04", "list response key: policies", ev(Client), "", compat+"TestPolicies")

	m.in(secCond)
	m.tested("RES-CND-01", "list response key: conditions", ev(Examples, Client), "", shapes+"TestShapes/alerts_conditions.json", compat+"TestConditions")
	m.tested("RES-CND-02", "id: integer; type: string (apm_app_metric appears); name: string; enabled: boolean", ev(Examples, Client), "",
		shapes+"TestShapes/alerts_conditions.json", compat+"TestConditions")
	m.approx("RES-CND-03", "entities: array of strings (entity ids currently included)", "alerts_conditions.list",
		"omitted: a condition's entities are not recoverable from its NRQL form")
	m.approx("RES-CND-04", "metric: string", "alerts_conditions.list", "omitted: not recoverable from the NRQL form")
	m.tested("RES-CND-05", "terms: duration, operator (above appears), priority (critical appears), threshold, time_function (all appears), all strings",
		ev(Examples, Client), "", shapes+"TestShapes/alerts_conditions.json", compat+"TestConditions")
	m.approx("RES-CND-06", "an entity is any monitoring target; entity ids come from the corresponding lists", "alerts_entity_conditions.list",
		"Application ids (appId), entity GUIDs and names in an NRQL condition's WHERE lists; KeyTransaction, Server and Plugin entity types answer 501 (EP-ALR-03)")

	m.in(secMetric)
	m.tested("RES-MET-01", "metric name listing: {metrics: [{name: string, values: [string]}]}", ev(Examples, Sim), "",
		shapes+"TestShapes/metric_names.json", e2e+"TestMetricNames")
	m.tested("RES-MET-02", "metric data: {metric_data: {from, to, metrics: [{name, timeslices: [{from, to, values}]}], metrics_found, metrics_not_found}}",
		ev(Examples, Sim), "", shapes+"TestShapes/metric_data.json", shapes+"TestShapes/metric_data_not_found.json", e2e+"TestMetricDataGolden")
	m.tested("RES-MET-03", "timestamps are ISO 8601 in UTC even when the request used another offset", ev(Sim), "",
		own+"TestSpecMetricDataOutputIsUTC", e2e+"TestMetricDataGolden")
	m.tested("RES-MET-04", "with summarize the series holds one timeslice spanning the range", ev(Sim, "published: REST's recorded answers (newrelic/docs-website src/content/docs/apis/rest-api-v2/application-examples-v2/list-your-app-id-metric-timeslice-data-v2.mdx)"),
		"the slice's to is the last minute + 59 s, as REST's recorded answers show", own+"TestSpecMetricDataSummarize")
	m.tested("RES-MET-05", "metric value names seen (average_response_time … total_used_mb; Apdex: score, s, t, f, count, value, threshold, threshold_min)",
		ev(Sim, Published), "each is served for a metric it belongs to, computed as New Relic's published NRQL for it over unscoped timeslices",
		own+"TestSpecValueNamesSeen", e2e+"TestMetricValuesFollowPublishedNRQL")
	m.tested("RES-MET-06", "metric names seen: Apdex, EndUser/Apdex (EndUserApdex), HttpDispatcher, OtherTransaction/all, Errors/all, WebTransactionTotalTime, Database/allWeb, Datastore/<DBTYPE>/allWeb, ActiveRecord/all, Memcache/allWeb, External/allWeb, WebFrontend/QueueTime, EndUser, EndUser/RB, Memory/Physical, CPU/User Time",
		ev(Sim), "names are data: each is found when the application reports it, else listed in metrics_not_found", own+"TestSpecMetricNamesSeen")
	m.tested("RES-MET-07", "a space in a metric name is written + in a query string (CPU/User+Time)", ev(Sim, Documented), "",
		own+"TestSpecNamedMetricsAndValues", e2e+"TestMetricDataGolden")
	m.tested("RES-MET-08", "request values: HttpDispatcher and OtherTransaction/all with requests_per_minute; Memory/Physical with used_mb_by_host (one host) or total_used_mb (whole app); CPU/User+Time with percent",
		ev(Sim), "", own+"TestSpecNamedMetricsAndValues")
	m.tested("RES-MET-09", "units: average_network_time, average_fe_response_time, average_dom_content_load_time, average_queue_time in ms; total_app_time in s; application response time in ms",
		ev(Sim, Published), "", own+"TestSpecMetricUnits", e2e+"TestApplicationSummaryAgreesWithMetricData", e2e+"TestMetricValuesFollowPublishedNRQL")

	m.in(secDerived)
	m.tested("RES-DER-01", "application error rate = 100 * Errors/all:error_count / (HttpDispatcher:call_count + OtherTransaction/all:call_count)",
		ev(Formula), "", e2e+"TestMetricDerivedValues", e2e+"TestApplicationSummaryAgreesWithMetricData")
	m.tested("RES-DER-02", "response time = HttpDispatcher:average_call_time + queue call_count * its average_response_time / HttpDispatcher:call_count",
		ev(Formula), "", e2e+"TestMetricDerivedValues")
	m.approx("RES-DER-03", "queuing time zero in the period → the queue metric is zero; never reported → the metric does not exist",
		"applications.metric_data", "a queue metric with data is served (zeros included) and one never reported is in metrics_not_found, as stated; one that reported before but not in the range is also in metrics_not_found, where REST answered zeros")
	m.tested("RES-DER-04", "datastore time = Datastore/<DBTYPE>/allWeb average_response_time * call_count / HttpDispatcher:call_count (Database, ActiveRecord/all, Memcache, External/allWeb alike)",
		ev(Formula), "asserted for Datastore/MySQL/allWeb; the other names are served with the same values", e2e+"TestMetricDerivedValues")
	m.na("RES-DER-05", "application total time = WebTransactionTotalTime − datastore − database − Ruby database − web external − memcache; terms without data dropped; HttpDispatcher when WebTransactionTotalTime is absent",
		"computed by the client; the gateway serves its inputs (RES-MET-06, RES-DER-04)")
	m.tested("RES-DER-06", "page rendering time = EndUser:average_fe_response_time − EndUser/RB:average_dom_content_load_time", ev(Formula), "",
		e2e+"TestMetricDerivedValues")
	m.tested("RES-DER-07", "web application time = EndUser:total_app_time / EndUser:call_count", ev(Formula), "", e2e+"TestMetricDerivedValues")
	m.na("RES-DER-08", "Datastore/<DBTYPE> replaces Database in newer agents; Ruby agents up to 3.10.0.279 supply ActiveRecord values, 3.11.0 and later Datastore values",
		"agent behaviour: the gateway serves whichever names the agent reported")

	m.in(secResOpen)
	m.tested("RES-OPEN-01", "list wrapper key of key transactions: not shown", ev(Examples, Client),
		"choice: key_transactions, as REST's published example and newrelic-client-go read it",
		shapes+"TestShapes/key_transactions_list.json", e2e+"TestKeyTransactions", compat+"TestKeyTransactions")
	m.tested("RES-OPEN-02", "allowed values of incident_preference beyond PER_POLICY: not shown", ev(Client),
		"choice: PER_POLICY, PER_CONDITION and PER_CONDITION_AND_TARGET (NerdGraph's AlertsIncidentPreference without CUSTOM, which REST could not set)",
		compat+"TestPolicies")
	m.tested("RES-OPEN-03", "fields of incident and violation records: not shown", ev(Client, Sim),
		"choice: REST's fields as newrelic-client-go decodes them (incidents: id, opened_at, closed_at, incident_preference, links.policy_id, links.violations; violations: id, duration, entity, links.policy_id and the rest of REST's violation)",
		compat+"TestIncidents", e2e+"TestViolationsPaging")
	m.tested("RES-OPEN-04", "fields of mobile application records: not shown", ev(Examples, Sim),
		"choice: REST's mobile_application as a recorded answer shows it (ambitioninc/newrelic-api's test, tests/testdata/restv2/mobile_application_show.json), figures as REST wrote them; fields without a NerdGraph source are declared",
		shapes+"TestShapes/mobile_application_show.json", e2e+"TestMobileApplications")
	m.approx("RES-OPEN-05", "condition types other than apm_app_metric and their field sets: not shown", "alerts_conditions.list",
		"choice: every APM, browser, mobile and servers condition is answered in its NRQL form with its REST type, because NerdGraph exposes them only in that form; NRQL conditions under alerts_nrql_conditions")

	m.in(secStates)
	m.tested("ST-01", "health_status of applications, hosts and instances is a string; green and gray appear", ev(Sim, Examples), "",
		own+"TestSpecHealthStatusAndReporting", e2e+"TestApplicationFieldsByReporting",
		shapes+"TestShapes/application_hosts_list.json", shapes+"TestShapes/application_instance_show.json")
	m.tested("ST-02", "reporting on an application is a boolean", ev(Sim), "", own+"TestSpecHealthStatusAndReporting")
	m.tested("ST-03", "full value set of health_status: not shown", ev(Sim),
		"choice: green, orange, red from the entity's alert severity, gray when not reporting, unknown without alert coverage (newrelic/docs-website src/content/docs/apis/rest-api-v2/application-examples-v2/application-reporting-health-status-v2.mdx); hosts and instances carry their application's",
		own+"TestSpecHealthStatusAndReporting")
	m.na("ST-04", "transitions: not shown",
		"the gateway keeps no state: health_status and reporting are read from NerdGraph at each request")

	m.in(secEP)
	m.tested("EP-01", "all paths are under {base_url} (or {eu_base_url})", ev(Sim), "served under the gateway's address at /v2",
		gw+"TestRouteTablePaths")
	m.tested("EP-02", "the suffix .json may be replaced by .xml", ev(Sim), "", gw+"TestRouteTablePaths", shapes+"TestXMLMirrorsJSON", own+"TestSpecFormatBySuffix")
	m.tested("EP-03", "query parameters of GET requests may be sent in the query string", ev(Documented),
		"also as a form body, as the docs' curl -d examples send them", docreq+"TestDocumentedRequestShapes")

	m.in(secEPApp)
	m.tested("EP-APP-01", "GET /v2/applications.json: filter[name] (simple string match, spaces as +), filter[ids] (comma-separated), filter[id], page → applications",
		ev(Sim, Documented), "filter[id] adds to filter[ids]",
		own+"TestSpecApplicationFilters", docreq+"TestDocumentedIDsAndTimes", e2e+"TestApplicationsListPaging")
	m.tested("EP-APP-02", "GET /v2/applications/<application_id>.json → one Application", ev(Sim), "", e2e+"TestApplicationsShowAndGolden")
	m.tested("EP-APP-03", "PUT /v2/applications/<application_id>.json: update of settings; body not specified", ev(Sim, Client),
		"choice: {application: {name, settings}} in and the application show shape out, as REST's swagger and newrelic-client-go send and read them", e2e+"TestApplicationUpdate", compat+"TestUpdateAndDeleteApplication")
	m.tested("EP-APP-04", "DELETE /v2/applications/<application_id>.json", ev(Sim, Client),
		"choice: the deleted application in the show shape, as newrelic-client-go reads it; 409 while it reports, as REST refused", e2e+"TestApplicationDelete", compat+"TestUpdateAndDeleteApplication")
	m.tested("EP-APP-05", "GET /v2/applications/<application_id>/hosts.json → application_hosts", ev(Sim), "", e2e+"TestHostsAndInstances")
	m.tested("EP-APP-06", "GET /v2/applications/<application_id>/metrics.json: name is a simple character match, no regular expression",
		ev(Sim), "", own+"TestSpecMetricNamesNameIsNotARegex", e2e+"TestMetricNames")
	m.tested("EP-APP-07", "GET /v2/applications/<application_id>/metrics/data.json: names[], values[], from, to, summarize → metric data",
		ev(Sim), "", e2e+"TestMetricDataGolden", own+"TestSpecMetricDataNamesAndValues")
	m.tested("EP-APP-08", "GET /v2/applications/<application_id>/hosts/<host_id>/metrics/data.json → metric data for one host",
		ev(Sim), "the host's call_count equals its raw timeslices", e2e+"TestHostsAndInstances", own+"TestSpecNamedMetricsAndValues")
	m.tested("EP-APP-09", "GET /v2/applications/<application_id>/instances/<instance_id>/metrics.json → metric listing for one instance",
		ev(Sim), "", own+"TestSpecInstanceMetricNames")

	m.in(secEPMet)
	m.tested("EP-MET-01", "names[]: string, repeatable; several names in one request", ev(Sim), "", own+"TestSpecMetricDataNamesAndValues")
	m.tested("EP-MET-02", "values[]: string, repeatable; omitted, all values of the metric are returned", ev(Sim, Documented, Examples),
		"omitted means the values the names listing gives for the metric (REST's recorded vocabulary: nine for the call-time family as the docs' and ambitioninc's listings show, HttpDispatcher's eleven as the docs' answer shows); a value outside it is served when asked for (average_call_time, percent); values asked of several names are served as far as the first name has them, as the docs' EndUser + EndUser/Apdex answer shows",
		own+"TestSpecMetricDataNamesAndValues", own+"TestSpecValueNamesSeen", "translate/metricdata:TestValuesOfTheFirstName")
	m.tested("EP-MET-03", "from, to: ISO 8601 with offset, written %2B06:00 in a query string", ev(Sim, Documented), "",
		own+"TestSpecMetricDataOutputIsUTC", docreq+"TestDocumentedIDsAndTimes")
	m.tested("EP-MET-04", "default range: the last 30 minutes when from and to are omitted", ev(Sim), "", own+"TestSpecMetricDataDefaultRange")
	m.tested("EP-MET-05", "output is always UTC", ev(Sim), "", own+"TestSpecMetricDataOutputIsUTC")
	m.tested("EP-MET-06", "summarize=true returns one averaged timeslice over the range; omitted, a series (per-minute slices by default)",
		ev(Sim, Documented), "", own+"TestSpecMetricDataSummarize", own+"TestSpecMetricDataDefaultRange", docreq+"TestDocumentedIDsAndTimes")
	m.na("EP-MET-07", "when several queries are combined in a calculation the same range must be used in all",
		"a rule for clients; the gateway answers each request over the range it names (the range is echoed in metric_data.from/to)")
	m.na("EP-MET-08", "listing metric names is expensive: narrow with name and cache the result",
		"advice to clients; the gateway narrows with name and caches the listing itself")

	m.in(secEPKT)
	m.tested("EP-KT-01", "GET /v2/key_transactions.json: filter[name] (simple string match, no regular expression)", ev(Sim), "",
		e2e+"TestKeyTransactions", own+"TestSpecKeyTransactionFilterIsNotARegex")
	m.tested("EP-KT-02", "GET /v2/key_transactions/<key_transaction_id>.json → one key transaction", ev(Sim, Examples), "",
		e2e+"TestKeyTransactions", shapes+"TestShapes/key_transaction_show.json")

	m.in(secEPBrw)
	m.tested("EP-BRW-01", "POST /v2/browser_applications.json, Content-Type application/json, {browser_application: {name}} → {browser_application: {id, name, browser_monitoring_key, loader_script}}",
		ev(Examples, Sim), "", e2e+"TestBrowserApplications", shapes+"TestShapes/browser_application_create.json")
	m.tested("EP-BRW-02", "GET /v2/browser_applications.json: filter[name], filter[ids] (comma-separated) → list", ev(Sim), "",
		own+"TestSpecBrowserFilters", e2e+"TestBrowserApplications")

	m.in(secEPDep)
	m.tested("EP-DEP-01", "POST /v2/applications/<application_id>/deployments.json, {deployment: {revision (required), changelog, description, user, timestamp}}; all but revision optional",
		ev(Sim, Client), "identical POSTs that overlap in time, and an identical retry after a 502/504 \"may have been recorded\", record one deployment in a replica (REST recorded each POST); Idempotency-Key is the gateway's addition",
		e2e+"TestDeploymentCreateAndList", e2e+"TestDeploymentInputRules", compat+"TestDeployments",
		e2e+"TestDeploymentConcurrentIdenticalPosts", e2e+"TestDeploymentRetryAfterUnknownOutcome", e2e+"TestDeploymentIdempotencyKey")
	m.tested("EP-DEP-02", "GET /v2/applications/<application_id>/deployments.json → deployments", ev(Sim, Examples), "",
		e2e+"TestDeploymentCreateAndList", shapes+"TestShapes/deployments_list.json")
	m.approx("EP-DEP-03", "DELETE /v2/applications/<application_id>/deployments/<deployment_id>.json", "deployments.delete",
		"501: change-tracking events are immutable and NerdGraph has no delete")
	m.tested("EP-DEP-04", "timestamp: ISO 8601, in UTC", ev(Sim), "", e2e+"TestDeploymentInputRules/not_UTC", own+"TestSpecDeploymentTimestampRules")
	m.tested("EP-DEP-05", "timestamp later than the most recent deployment timestamp", ev(Sim),
		"held inside a replica despite NRDB's ingest delay (the replica remembers what it recorded) and for concurrent POSTs (serialised per application)",
		e2e+"TestDeploymentCreateAndList", e2e+"TestDeploymentLaterThanLatestDespiteIngestDelay", e2e+"TestDeploymentConcurrentSameTimestamp")
	m.tested("EP-DEP-06", "timestamp not in the future", ev(Sim), "", e2e+"TestDeploymentTimestampInFuture")
	m.tested("EP-DEP-07", "timestamp to the second", ev(Sim), "fractional seconds are refused", e2e+"TestDeploymentInputRules/fractional_seconds")
	m.tested("EP-DEP-08", "timestamp omitted: recorded at the time the request is received", ev(Sim), "", own+"TestSpecDeploymentTimestampRules")
	m.tested("EP-DEP-09", "JSON text must use double quotes", ev(Sim), "single quotes are a 400", e2e+"TestDeploymentInputRules/single_quotes")
	m.tested("EP-DEP-10", "4-byte UTF-8 characters are not allowed in deployment text", ev(Sim), "3-byte characters are accepted",
		e2e+"TestDeploymentInputRules/emoji", e2e+"TestDeploymentInputRules/3-byte_UTF-8_is_fine")
	m.approx("EP-DEP-11", "deployments can be deleted only through this REST endpoint; the graph API has no delete", "deployments.delete",
		"the gateway, built on the graph API, cannot delete either: 501 naming the reason")

	m.in(secEPAlerts)
	m.tested("EP-ALR-01", "GET /v2/alerts_policies.json: filter[name], page → policies", ev(Client), "", compat+"TestPolicies")
	m.tested("EP-ALR-02", "GET /v2/alerts_conditions.json: policy_id (integer) → conditions", ev(Examples, Client), "",
		shapes+"TestShapes/alerts_conditions.json", compat+"TestConditions")
	m.tested("EP-ALR-03", "PUT /v2/alerts_entity_conditions/<entity_id>.json: entity_type, condition_id → adds the entity", ev(Sim),
		"passed through unchanged with retained_alerts: passthrough; translated: the entity is appended to the NRQL condition's WHERE list (appId, entity.guid, appName IN) and the condition updated; 409 without such a list; 501 for legacy metric conditions",
		e2e+"TestEntityConditionProcedure", e2e+"TestEntityConditionRefusals", e2e+"TestEntityConditionListKinds", e2e+"TestEntityConditionProcedurePassthrough")
	m.tested("EP-ALR-04", "DELETE /v2/alerts_entity_conditions/<entity_id>.json: entity_type, condition_id → removes the entity", ev(Sim),
		"as EP-ALR-03, removing the entity; 409 for the list's only entity (IN () is not NRQL)",
		e2e+"TestEntityConditionProcedure", e2e+"TestEntityConditionRefusals", e2e+"TestEntityConditionProcedurePassthrough")
	m.tested("EP-ALR-05", "GET /v2/alerts_incidents.json: page → paged list", ev(Client), "", compat+"TestIncidents")
	m.tested("EP-ALR-06", "GET /v2/alerts_violations.json: page → paged list", ev(Sim), "", e2e+"TestViolationsPaging")
	m.approx("EP-ALR-07", "procedure to change a condition's entities: entity id, policy id by name, the policy's conditions, then add or remove",
		"alerts_entity_conditions.add", "every step is served, in order (TestEntityConditionProcedure; through pass-through: TestEntityConditionProcedurePassthrough); translated only for NRQL conditions that list entities (EP-ALR-03)")

	m.in(secEPMobile)
	m.tested("EP-MOB-01", "GET /v2/mobile_applications.json", ev(Sim), "", e2e+"TestMobileApplications")
	m.tested("EP-MOB-02", "GET /v2/mobile_applications/<id>.json", ev(Sim, Examples), "", e2e+"TestMobileApplications", shapes+"TestShapes/mobile_application_show.json")
	m.tested("EP-MOB-03", "GET /v2/mobile_applications/<id>/metrics/data.json", ev(Sim), "", e2e+"TestMobileApplications")
	m.tested("EP-MOB-04", "POST /v2/mobile_applications.json", ev(Sim), "", e2e+"TestMobileApplications")

	m.in(secPaging)
	m.tested("PAG-01", "some list responses are paged; the page query parameter selects the page", ev(Sim), "",
		e2e+"TestApplicationsListPaging", e2e+"TestViolationsPaging")
	m.tested("PAG-02", "a paged response carries an RFC 5988 Link header with rel=\"next\" and rel=\"last\"; absent when the output is not paged",
		ev(Sim, "published: the Link parsers of REST v2 clients"), "",
		e2e+"TestApplicationsListPaging", own+"TestSpecLinkOnlyWhenPaged", docreq+"TestLinkHeaderAsClientsParseIt", gw+"TestLinkHeader")
	m.tested("PAG-03", "the violations endpoint gives no rel=\"last\"; the last page is the one without rel=\"next\"", ev(Sim), "",
		e2e+"TestViolationsPaging")
	m.na("PAG-04", "sort order of returned data is indeterminate",
		"nothing to honour: the gateway's order is stable (by name or newest first), which clients must not rely on")

	m.in(secEPOpen)
	m.tested("EP-OPEN-01", "path for listing the instances of one application: not shown", ev(Client, Sim),
		"choice: /v2/applications/<application_id>/instances.json, the path of REST's swagger and newrelic-client-go",
		compat+"TestInstances", e2e+"TestHostsAndInstances")
	m.approx("EP-OPEN-02", "response bodies of the add and remove entity-condition requests: not shown", "alerts_entity_conditions.add",
		"choice: REST's own answer when passed through; translated, the updated condition in the alerts_conditions shape, so a client sees the entity list it changed")
	m.tested("EP-OPEN-03", "payload and response of the incident and violation lists beyond paging: not shown", ev(Client, Sim),
		"choice: incidents and violations in REST's shape (RES-OPEN-03), paged with page",
		compat+"TestIncidents", e2e+"TestViolationsPaging")
	m.tested("EP-OPEN-04", "payloads of the mobile application endpoints: not shown", ev(Sim, Examples),
		"choice: mobile_application(s) per REST's swagger; create takes {mobile_application: {name}}", e2e+"TestMobileApplications", shapes+"TestShapes/mobile_application_show.json")
	m.tested("EP-OPEN-05", "payloads of application update and application delete: not shown", ev(Sim, Client),
		"choice: as EP-APP-03 and EP-APP-04", e2e+"TestApplicationUpdate", e2e+"TestApplicationDelete", compat+"TestUpdateAndDeleteApplication")
	m.approx("EP-OPEN-06", "payload of deployment delete: not shown", "deployments.delete", "choice: not served, 501 (EP-DEP-03)")
	m.tested("EP-OPEN-07", "response body of deployment recording: not shown", ev(Examples, Sim),
		"choice: 201 with {deployment: {...}, links}, REST's published create answer", shapes+"TestShapes/deployment_create_response.json", e2e+"TestDeploymentCreateAndList")
	m.tested("EP-OPEN-08", "paths of the condition lists for external services and synthetic monitoring: not shown", ev(Sim),
		"choice: both are real REST v2 paths (newrelic/docs-website src/content/docs/alerts/scale-automate/rest-api/rest-api-calls-alerts.mdx) in namespaces New Relic keeps: passed through with retained_alerts: passthrough; translated, the synthetics list comes from asNrqlConditionsSearch, external-service conditions answer 501 naming the replacement",
		own+"TestSpecUnservedConditionLists", e2e+"TestSyntheticsConditionList")

	m.in(secAuth)
	m.tested("AUTH-01", "every request carries a user API key in a header named Api-Key or X-Api-Key", ev(Sim, Documented), "",
		own+"TestSpecBothKeyHeaders", docreq+"TestDocumentedRequestShapes", gw+"TestPresentedKey")
	m.tested("AUTH-02", "X-Api-Key also accepts an older REST API key", ev(Sim),
		"accepted when the operator maps it to a user key and account (NerdGraph takes user keys only); unmapped, 401 or pass-through by configuration",
		e2e+"TestLegacyKeyMapping")
	m.tested("AUTH-03", "the same user key is used by the graph API", ev(Sim),
		"the caller's key is forwarded; a key NerdGraph refuses is REST's 401", e2e+"TestApplicationsErrors/unknown_key", ngql+"TestMakeRequest")
	m.tested("AUTH-04", "the key's account determines which items are visible; the graph API does not make this assumption", ev(Sim),
		"a key of several accounts naming none is answered for the account it was created in (ApiAccessUserKey.accountId; X-V2bridge-Account names it); X-Account-ID or /accounts/<id>/v2/... name another",
		e2e+"TestApplicationsHostileFilter", e2e+"TestRecordDeployCompressedWithMultiAccountKey", gw+"TestOwnAccountOfMultiAccountKey", e2e+"TestApplicationsAccountSelection", e2e+"TestApplicationsForeignAccountForbidden", e2e+"TestTenantIsolationUnderConcurrency")
	m.tested("AUTH-05", "accounts in the EU data center use {eu_base_url}; others {base_url}", ev("published: api.eu.newrelic.com/graphql"),
		"one gateway per data center, `--upstream eu`", ngql+"TestResolveEndpoint")
	m.tested("AUTH-06", "behaviour for a missing or invalid key, key permissions and key lifetime: not shown", ev(Examples, Sim),
		"choice: 401 {\"error\":{\"title\":\"No API key specified\"}} / \"Invalid API key\" as REST's published error; 403 for another account",
		e2e+"TestApplicationsErrors/no_key", e2e+"TestApplicationsErrors/unknown_key", shapes+"TestShapes/error_401_no_api_key.json", e2e+"TestApplicationsForeignAccountForbidden")

	m.in(secEvents)
	m.na("EVT-01", "recording a deployment makes a marker appear in charts, dashboards, the activity feed and the deployments page; a display effect",
		"a display in New Relic's UI; the gateway records the change-tracking event that drives it (RES-DEP-10)")
	m.na("EVT-02", "events emitted by the service (kinds and payloads): not shown", "choice: the gateway emits no events: nothing in REST v2's documented surface to reproduce")
	m.na("EVT-03", "webhook payloads for deployment notification: not shown", "choice: the gateway sends no webhooks: their payloads are not known, so none is invented")

	m.in(secErrors)
	m.tested("ERR-01", "invalid JSON (for example single quotes) in a payload causes an error", ev(Sim), "400 with a v2 error body",
		e2e+"TestDeploymentInputRules/single_quotes", "restv2:TestJSONBodyErrors")
	m.tested("ERR-02", "a deployment text containing 4-byte UTF-8 characters is rejected", ev(Sim), "", e2e+"TestDeploymentInputRules/emoji")
	m.tested("ERR-03", "a deployment timestamp not UTC, not ISO 8601, in the future, or not after the latest deployment violates the rules",
		ev(Sim), "422 naming timestamp", e2e+"TestDeploymentInputRules/not_UTC", own+"TestSpecDeploymentTimestampRules",
		e2e+"TestDeploymentTimestampInFuture", e2e+"TestDeploymentCreateAndList")
	m.approx("ERR-04", "listing very many metric names may invoke overload protection", "applications.metrics",
		"the listing is paged (1000 names a page) rather than refused")
	m.tested("ERR-05", "HTTP status codes and error body shapes: not shown", ev(Examples, Sim),
		"choice: {\"error\":{\"title\":...}} with REST's statuses (400, 401, 403, 404, 409, 422, 429, 5xx), as REST's published error bodies",
		shapes+"TestShapes/error_generic_shape.json", shapes+"TestShapes/error_401_no_api_key.json", e2e+"TestApplicationsErrors", "restv2:TestErrorBodies")
	m.tested("ERR-06", "the exact error for each violated payload rule: not shown", ev(Sim),
		"choice: 422 with a title naming the field, so a client can tell what to fix; 400 for a body that is not JSON", e2e+"TestDeploymentInputRules", "restv2:TestJSONBodyErrors")

	m.in(secLimits)
	m.tested("LIM-01", "deployment revision: 127 characters", ev(Sim), "", e2e+"TestDeploymentInputRules/revision_127", e2e+"TestDeploymentInputRules/revision_128")
	m.tested("LIM-02", "deployment changelog: 65535 characters", ev(Sim), "", own+"TestSpecDeploymentTextLimits")
	m.tested("LIM-03", "deployment description: 65535 characters", ev(Sim), "", own+"TestSpecDeploymentTextLimits")
	m.tested("LIM-04", "deployment user: 31 characters", ev(Sim), "", e2e+"TestDeploymentInputRules/user_31", e2e+"TestDeploymentInputRules/user_32")
	m.na("LIM-05", "metric data results: up to 3000 per cell; narrow the query by application id or another attribute",
		"a limit of New Relic's answer; the gateway always scopes by application (or host, instance) and splits a request into NRQL queries of at most 50 names (metricdata.Chunk)")
	m.tested("LIM-06", "metric output paging: no longer available for some customers", ev(Sim),
		"choice: metric data is never paged (no Link), whatever the range", own+"TestSpecLinkOnlyWhenPaged")
	m.tested("LIM-07", "default metric time range: last 30 minutes", ev(Sim), "", own+"TestSpecMetricDataDefaultRange")
	m.approx("LIM-08", "application summary window: rolling three to four minutes", "applications.list", "as SVC-08")
	m.tested("LIM-09", "key transaction summary window: rolling ten minutes", ev(Sim), "", e2e+"TestKeyTransactions")
	m.tested("LIM-10", "request rate limits: not shown", ev(Sim), "choice: REST's 1000 calls a minute per key, then 429 with Retry-After",
		gw+"TestRateLimit")
	m.tested("LIM-11", "thresholds of overload protection: not shown", ev(Sim),
		"choice: beyond max_in_flight concurrent requests the gateway sheds with 503 and Retry-After rather than queueing, so latency stays bounded and NerdGraph's per-key limits are not hit", e2e+"TestOverloadSheds")
	m.approx("LIM-12", "minimum and maximum number of entities in a condition: not shown", "alerts_entity_conditions.remove",
		"choice: translated, at least one (the last entity of a WHERE list is refused with 409: IN () is not NRQL); no maximum beyond NRQL's query length")
	m.tested("LIM-13", "page size: not shown", ev(Sim), "choice: 200 applications a page, as REST paged them (https://github.com/wevanscfi/grafana-newrelic-apm-datasource/issues/35); other lists' sizes are in their route notes",
		e2e+"TestApplicationsListPaging")

	m.in(secVersions)
	m.tested("VER-01", "the version is part of the path prefix /v2", ev(Sim), "", gw+"TestRouteTablePaths")
	m.tested("VER-02", "a legacy deployments API (v0, paths ending deployments.xml) exists beside it", ev(Sim), "",
		e2e+"TestDeploymentV0")
	m.na("VER-03", "the v0 deployments API is served on two hosts per region",
		"host names are New Relic's; the gateway serves the v0 paths at its own address, at the root as those hosts did (tests/e2e TestDeploymentV0)")
	m.na("VER-04", "the v2 REST API, the alerts endpoints and the v0 deployments API end on July 31, 2027", "as SVC-13")
	m.na("VER-05", "a graph API is the successor", "the gateway is built on it: every upstream call is a NerdGraph operation")
	m.tested("VER-06", "the older graph mutation changeTrackingCreateDeployment stays available", ev("published: the NerdGraph schema (schema/)"),
		"the gateway records with it when use_create_deployment is set; the operation validates against the full schema",
		own+"TestSpecDeploymentMutations", schemas+"TestOperationsValidateAgainstFullSchema")
	m.na("VER-07", "version negotiation through headers and any later REST version: not shown",
		"choice: none; the version is the path's /v2 and no version header is read, as there is no other version to negotiate")

	return m.rows
}
