// Package sim is the NerdGraph simulator: a real GraphQL-over-HTTP server that answers
// POST /graphql like api.newrelic.com/graphql, from a fixed multi-account data set, so
// that the gateway, its tests and `v2bridge demo` never need the real service.
//
// It is a tool, never evidence: nothing on the gateway's request path imports it (only
// cmd/v2bridge's sim and demo commands and the tests do), and what it answers is checked
// against New Relic's published schema and docs, not the other way round. Its NRQL
// grammar (nrdb) and entity-search parser (searchlang.go) are written apart from the
// translator's quoting and NRQL builders on purpose: a simulator that shared the code it
// checks would agree with it by construction. Generated code is fenced in internal/exec
// and model (gqlgen, `go generate ./sim/...`); the mutation tool never mutates this tree.
//
// # What it owns
//
//   - The executable schema: ../schema/nerdgraph.graphql (a strict subset of the real
//     schema), compiled by gqlgen into internal/exec and model (go generate; never edit
//     those files). Resolvers are hand-written here (resolver*.go) and are not generated.
//   - The data set: Data, decoded strictly from YAML by ParseData (the demo set is
//     configs/demo-data.yaml), indexed once by New into shared read-only GraphQL objects.
//   - API keys and account scope: each user key reaches a set of accounts; everything a
//     key sees is limited to them.
//   - Entities: APM applications and the browser applications their agents inject, with
//     guids as NerdGraph builds them (unpadded base64 of accountId|DOMAIN|TYPE|domainId).
//   - The entity search language (searchlang.go: lexer and recursive-descent parser)
//     and its evaluation, sorting and cursor paging (search.go).
//   - The NRQL hook: Account.nrql and Actor.nrql call an NRQLRunner (WithNRQL); the NRQL
//     engine itself lives elsewhere.
//   - Request accounting (Requests, RequestsByOperation) and a middleware hook
//     (WithMiddleware) for fault injection.
//
// Parts of the schema it does not simulate (AI issues' incidents, API key search,
// change tracking reads, deployments, alert violations, nrdbQuery, ...) answer a
// GraphQL error whose message ends in UnsupportedMessage; they never panic.
//
// # Documented deviations from real NerdGraph
//
// Authentication and transport:
//   - Only the API-Key header (any letter case) carries the key. A missing or unknown key
//     gets HTTP 401 with {"errors":[{"message":"Invalid API key","extensions":
//     {"errorClass":"UNAUTHORIZED","error_code":"BAD_API_KEY"}}]}; the exact body of the
//     real service is unverified.
//   - GraphQL parse and validation errors come back with HTTP 200, like other GraphQL
//     errors. Other paths get 404, other methods 405, a malformed JSON body 400.
//   - Introspection is on. No deprecation warnings. The limits New Relic publishes are
//     held strictly: 25 requests in flight per user (WithConcurrentRequests; the 26th
//     gets HTTP 429) and 3,000 NRQL queries per account per minute of the simulator's
//     clock (WithNRQLBudget); the bodies of those refusals are unpublished.
//
// Accounts and entities:
//   - actor.account(id:) for an account the key does not reach (or that does not exist)
//     is null with an error "Access denied to account N", extensions.errorClass
//     FORBIDDEN (message unverified).
//   - actor.entity(guid:) is null for unknown guids and for entities of unreachable
//     accounts. actor.entities(guids:) leaves such guids out (and repeated ones), keeping
//     request order; more than 25 guids is an INVALID_INPUT error. A guid that does not
//     decode is an INVALID_INPUT error in both (unverified). Padding is ignored.
//   - Entity kinds: APM and browser applications only. Tags account, accountId and
//     language are derived. indexedAt and firstIndexedAt are null. The permalink is
//     https://one.newrelic.com/redirect/entity/<guid>.
//   - The APM application and its browser application are linked by one edge of type
//     SERVES from the APM application (source) to the browser application (target); the
//     real type and direction are unverified. Its createdAt is the APM application's
//     lastReportingChangeAt.
//   - apmSummary: throughput is web + non-web throughput, responseTimeAverage their
//     weighted average, hostCount and instanceCount come from the instances; null for
//     applications that do not report.
//   - applicationInstances ignores startTime/endTime (instances run all the time); host
//     matches without case. environmentAttributes(filter:) filters attribute names.
//     applicationInstancesV2 returns everything on one page.
//   - Browser settings other than the loader and the Apdex target are fixed defaults;
//     jsLoaderScript is a short snippet with the real configuration (licenseKey,
//     applicationID, ...) and the loader body elided.
//
// Entity search (documented only as =, IN, LIKE and AND: newrelic/docs-website
// src/content/docs/apis/nerdgraph/examples/nerdgraph-entities-api-tutorial.mdx):
//   - OR and parentheses are accepted too (OR binds weaker than AND); the real language
//     documents only AND. != and NOT IN, which public queries send (searchlang.go), match
//     an entity that has the property and none of the listed values; an entity without
//     the property matches neither (the real rule is undocumented). No other operators
//     (NOT alone, <) exist.
//   - Strings are single-quoted; a backslash makes the next character literal (\' and
//     \\), which is how the gateway quotes values. Numbers are bare (accountId =
//     1000001) and compare as text, so '1000001' and 1000001 are the same. true and
//     false may be bare. Identifiers may be dotted (tags.language) or backticked.
//   - Properties: domain, type, name, accountId, domainId, id (the guid), reporting,
//     alertSeverity. Any other identifier is a tag name, with or without a "tags." prefix.
//   - = compares without case for every property but id (exact; padding ignored), e.g.
//     name = 'myapp' matches "MyApp" (for names, terraform-provider-newrelic's
//     TestAccNewRelicEntityData_IgnoreCase finds an application by its upper-cased name
//     with name = '...', newrelic/data_source_newrelic_entity.go @ 6cec439d). Tag keys
//     are case-sensitive; tag values compare without case unless
//     options.caseSensitiveTagMatching is true.
//   - LIKE is a token match: . , ; : * - _ ( ) and white space separate tokens; a value
//     matches when every token of the pattern occurs in it as a substring, ignoring
//     case (name LIKE 'check serv' matches "checkout-service"). No % wildcards. A pattern
//     without tokens matches every value. The separators are NerdGraph's argument
//     documentation of entitySearch(query:) ("name LIKE ':aws:' will match -aws. or foo
//     aws."); that a token matches inside a word, and the case rule, are this
//     simulator's choice, not evidence: the gateway never relies on LIKE for REST's
//     filter[name] (docs/performance.md, "filter[name]").
//   - A syntax error is an INVALID_INPUT error "Invalid entity search query: syntax
//     error at position N: ..." (N counts characters from 1); the real wording is
//     unknown. An empty query (without queryBuilder) is an error too.
//   - queryBuilder becomes the equivalent query (name uses LIKE; alertable is
//     unsupported); with both, the two are ANDed. The query field echoes the query
//     string, or the built query.
//   - Results are sorted by name without case, then name, then guid. sortBy supports
//     NAME, DOMAIN, TYPE, REPORTING (reporting first) and ALERT_SEVERITY (most severe
//     first), each then by name; MOST_RELEVANT is the name order. sortByWithDirection
//     supports one NAME criterion, ASC or DESC (the exact reverse); other criteria and
//     counts are unsupported; options.tagFilter is ignored.
//   - Pages hold 200 entities (options.limit lowers it). Cursors are opaque and valid
//     only for the same query, sort and key; anything else is an INVALID_INPUT
//     "Invalid cursor" error.
//
// Alert conditions (conditions.go, conditionwrites.go):
//   - nrqlConditionsSearch and asNrqlConditionsSearch list by id, 100 a page (the real
//     page size is undocumented; the same as policiesSearch). Criteria: policyId and
//     query are exact, name is exact ignoring case (as policiesSearch), nameLike and
//     queryLike are substrings ignoring case, termsOperator matches any term,
//     sourceProduct any of the list. Cursors are per search kind; a foreign or
//     malformed one is an INVALID_INPUT "Invalid cursor" error.
//   - asNrqlConditionsSearch shows the NRQL conditions (sourceProduct NRQL) and the
//     data's legacyConditions, already in NRQL form; no real conversion is done.
//   - nrqlCondition(id:) for an unknown id, or a legacy condition's, is null with a
//     NOT_FOUND error whose message starts "Not Found" (the real error says "Not
//     Found"; its class is unverified).
//   - Writes need the key to reach the account (else FORBIDDEN). An unknown policy or
//     condition is NOT_FOUND; input NerdGraph documents as invalid (no name or query,
//     no terms, two terms of one priority, thresholdDuration not a multiple of the
//     aggregation window or outside 60/120–86400 s, violationTimeLimitSeconds outside
//     300–2592000, STATIC fill without fillValue, aggregationDelay with EVENT_TIMER or
//     aggregationTimer without it, ...) is INVALID_INPUT "Validation error: ...";
//     real messages differ. Updating a condition with the other type's mutation is
//     INVALID_INPUT. Update inputs change only the fields given; terms replace all
//     terms; signal and expiration fields merge.
//   - Ids are unique across both kinds and all accounts and never reused. entityGuid
//     is accountId|AIOPS|CONDITION|id; entity, createdBy and updatedBy are null.
//     Unset signal and expiration fields read as NerdGraph's defaults (60 s EVENT_FLOW
//     window, 120 s delay, fill NONE, violation time limit 259200 s). valueFunction and
//     evaluationOffset are stored but, as in NerdGraph, never returned.
//   - alertsConditionDelete deletes NRQL and legacy conditions; alertsPolicyDelete
//     deletes the policy's conditions too.
//
// Units, joins and condition origins (checked against published answers in tests/contracts):
//   - apmSummary.errorRate is a percent (ErrorRate in the data: the schema describes it
//     as "the percentage of responses to all transactions with an error", per
//     newrelic-client-go pkg/entities/types.go, and the golden metric errorRate of
//     github.com/newrelic/entity-definitions entity-types/apm-application is ×100 with
//     unit PERCENTAGE), as the 100 × errors / calls the gateway computes from timeslices.
//   - asNrqlConditionsSearch tells a condition's origin only by sourceProduct, as the
//     real schema (AlertsAsNrqlCondition has no REST type, metric or entity list). A
//     legacyConditions entry carries one of APM, BROWSER, INFRASTRUCTURE, MOBILE, SERVERS,
//     SYNTHETICS; REST's apm_app_metric, apm_kt_metric and apm_jvm_metric are all APM, and
//     the simulator, like NerdGraph, keeps nothing that separates them. How NerdGraph
//     renders a legacy condition's NRQL is unpublished; the data's query is free text.
//   - Issues are derived one per NrAiIncident incident, incidentIds holding that event's
//     incidentId (demo data: digits). NerdGraph's published aiIssues answers show
//     incident ids as UUID strings and issue ids as UUIDs (docs-website
//     src/content/docs/apis/nerdgraph/examples/nerdgraph-issues-api-via-github.mdx); that
//     NrAiIncident.incidentId is the same string is this simulator's assumption, not a
//     published fact.
//
// NRQL:
//   - Without a runner, NRQL fields answer "NRQL is not enabled in this simulator".
//   - async is ignored (queries complete synchronously); options are ignored. timeout
//     (default 5 s, at most 120 s) becomes the runner's deadline; exceeding it is a
//     TIMEOUT error. See NRQLRunner for error classes.
//
// Timeslice metrics (timeslice/, nrdb/):
//   - Metric rows carry scope: Datastore/*, External/* and Custom/* segment metrics
//     (not the all/allWeb/allOther roll-ups) have, besides the unscoped row, one copy
//     per Controller/* transaction of the application with the same
//     metricTimesliceName and scope set to the transaction; unscoped rows have no scope
//     attribute, so scope IS NULL selects them. Source: the scope attribute, "(Optional)
//     The timeslice name of the legacy metric that this metric is scoped to", and the
//     example breaking a transaction down with scope = 'Controller/users/show'
//     (https://docs.newrelic.com/docs/data-apis/understand-data/metric-data/query-apm-metric-timeslice-data-nrql/).
//     Scoped copies draw their own numbers; that the unscoped value is their total is
//     not modelled.
//   - Attributes are typed: appId is a number, realAgentId a string (the only documented
//     comparison quotes it: realAgentId = '$AGENT_ID',
//     https://docs.newrelic.com/docs/apis/rest-api-v2/migrate-to-nrql/). = and IN
//     compare by type and never coerce: a number never equals a string, so appId = '42'
//     matches nothing ("Data type "coercion" is not supported",
//     https://docs.newrelic.com/docs/nrql/nrql-syntax-clauses-functions/#aggregator-functions).
//   - Over newrelic.timeslice.value: count = Σcount, sum = Σtotal, average = Σtotal /
//     Σcount, min/max over rows with calls, stddev = √(ΣsumOfSquares/Σcount − mean²);
//     value['field'] is that field per row, so average(value['totalExclusive'] /
//     value['count']) is a mean of per-row ratios (a row whose count is 0 is skipped).
//     apdex(newrelic.timeslice.value) is the score (s + t/2) / (s + t + f) from Apdex
//     timeslices' count, total and totalExclusive; the real function also returns s, t,
//     f and count, in a result shape not verified here. rate() divides by the window
//     (bucket or range) in the unit given; filter() applies its WHERE per row.
//   - Only ingested data: no row for a minute that has not ended, and an agent
//     instance's minute only 15 to 105 s after it ends (fixed per instance: agents
//     harvest once a minute, each on its own cycle), so the newest minutes are partial
//     (timeslice.IngestedBy, on the simulator's clock). Applications stop: a
//     non-reporting one with stoppedAgo keeps its rows up to its stop (so its names
//     stay listed while the names window reaches them), a metric in stoppedMetrics
//     stops while its application reports on, and gaps hold no row; the demo data
//     has each, counted back from the simulator's start. apmSummary sums the same
//     ingested rows over its window (SummaryWindow), so its newest minutes are partial
//     too.
//
// NRQL limits (package nrdb; source: docs-website
// src/content/docs/nrql/nrql-syntax-clauses-functions.mdx):
//   - FACET picks and orders facets, largest first, by the first SELECT item when it is
//     min(), max(), average(), count() or percentile() itself; by any other first item
//     (latest(), uniqueCount(), sum(), filter(...), arithmetic) it uses the number of
//     events of each facet (#sel-facet). Ties keep the order the rows were met. Then
//     LIMIT applies: 10 by default, MAX and any value above 5000 are 5000 (#sel-limit;
//     NRDB's answer to LIMIT above 5000 is not documented: taken as MAX). Plain row
//     queries keep the newest 100 by default, at most 5000.
//   - uniques(attr[, limit]) keeps the first 1000 values met, at most 10000
//     (#func-uniques). TIMESERIES makes at most 366 buckets (#timeseries-max); more
//     is a syntax error.
//   - The limits apply silently, as NRDB's do: a result at the limit carries no
//     marker. WithLargeAccount adds an account big enough to exceed them (thousands
//     of agent instances and NrAiIncident incidents, metrics generated on demand;
//     optionally an injected browser, a key transaction per application, mobile
//     applications and many policies) with its own key, for tests; the demo keys and
//     data are unchanged and `make run` does not build it.
//
// Change tracking:
//   - changeTrackingCreateEvent (category Deployment only) stores a ChangeTrackingEvent
//     row and changeTrackingCreateDeployment a Deployment row, both read by NRQL; the
//     deployment's version is the row's version attribute in both event types.
//   - Ingest delay: a recorded event reaches NRQL only after the delay set with
//     WithIngestDelay (default 0), measured on the ingest clock (WithIngestClock,
//     default wall time, not the fixed data clock). NRDB, like any ingest pipeline,
//     makes an event queryable some time after its write is acknowledged; New Relic
//     publishes no figure for change events, and its own streaming alerts wait for
//     late data by default for 2 minutes (newrelic/docs-website
//     src/content/docs/alerts/create-alert/fine-tune/streaming-alerts-key-terms-concepts.mdx,
//     "Delay/timer"). Tests use a few seconds on a clock they advance. AddChangeEvent
//     seeds already-ingested rows (history, bulk data).
package sim
