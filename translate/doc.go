// Package translate turns typed v2 requests into genqlient NerdGraph calls and their
// answers into v2 models (restv2). It knows nothing of net/http; the gateway tells it
// who the caller is (Caller, WithKeyHash) and decides whether the caller's key is
// accepted (KeyVerdicts); what it remembers between requests is a state.Stores.
//
// Files by concern:
//
//   - The Translator and its options: translate.go; the caller and its cache keys:
//     caller.go; the edge's key verdicts: keys.go.
//   - Applications, the largest resource, span several files: list, show and paging
//     (applications.go), the objects built from search and entity answers
//     (applications_object.go), their host and instance inventory
//     (applications_inventory.go), summary figures and health (figures.go), updates
//     and deletes (appwrites.go), filter[name] and filter[language] (namefilter.go)
//     and the glue to the accounts' name indexes (nameindexes.go, package nameindex).
//   - Other resources, one file each or a prefix of files: hosts.go, mobile.go,
//     browser.go, keytransactions.go, deployments.go, alertevents.go, violations.go,
//     incidentactions.go, policies.go, entityconditions.go and conditions*.go (alert
//     conditions: read, input, legacy and writes).
//   - Metrics: metric names (metricnames.go), metric data (metrics.go, its pure part in
//     package metricdata) and the data reads shared across an account's applications
//     (sweep.go).
//   - Shared helpers: the entity GUID codec and surrogate ids (ids.go), the entity
//     search and NRQL quoting builders, the only places query text is assembled
//     (search.go, nrql.go; WHERE clauses of alert conditions in package nrqlwhere), the
//     reads of NRQL past its row limit (nrqlbackwards.go), the documented limits a read
//     can meet and the request's notes of them (caps.go), the cache entries an answer
//     was read from (basis.go), the key's own account (keyaccount.go) and the write
//     outcomes a retry must respect (writeoutcome.go).
package translate
