package translate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	ng "github.com/v2bridge/v2bridge/graphql"

	"github.com/v2bridge/v2bridge/state"
)

// NRDB and NerdGraph stop reading at documented limits without an error: a FACET
// query keeps at most LIMIT facets (5000 with LIMIT MAX), uniques() keeps the first
// values it meets, a search page holds what the cursor gives. Every read the gateway
// makes that can meet such a limit is in capRules, with its source and what the read
// does about it: it reads everything (split by window, by application or by cursor),
// or it answers with what it has and declares the cap (Notes: the X-V2bridge-Degraded
// header, a warning access-log line and v2bridge_degraded_total, at the edge).
//
// Sources:
//   - FACET: "Use the LIMIT clause to specify how many facets appear (default is 10)";
//     "The facets are sorted in descending order by the first field you provide in the
//     SELECT clause"; "When selecting min(), max(), percentile(), average() or count(),
//     FACET uses those functions to determine how facets are picked and sorted. When
//     selecting any other function, FACET uses the frequency of the attribute you are
//     faceting on" — docs-website src/content/docs/nrql/nrql-syntax-clauses-functions.mdx
//     (#sel-facet).
//   - LIMIT: "The maximum allowed value for the LIMIT clause is 5,000" (same page,
//     #sel-limit).
//   - TIMESERIES: "The maximum number of TIMESERIES buckets that will be returned is
//     366" (same page, #timeseries-max).
//   - uniques(): default 1,000 values, "up to a maximum of 10,000"; it "will return the
//     first set of unique attribute values discovered" (same page, #func-uniques).
//   - UNTIL is exclusive, SINCE inclusive (same page, #sel-until, #sel-since).
//   - entities(guids:): up to 25 entities a field (newrelic/newrelic-client-go
//     pkg/entities/entities_api.go; the schema does not state it).
const (
	// MaxFacets is NRQL's LIMIT MAX: the most facets (or rows) one query returns.
	MaxFacets = 5000
	// MaxUniques is the most values uniques(attr, limit) returns.
	MaxUniques = 10000
	// MaxBuckets is the most TIMESERIES buckets one query returns.
	MaxBuckets = 366
	// MaxEntityGUIDs is the most GUIDs one entities(guids:) field takes.
	MaxEntityGUIDs = 25
)

// Cap names a limit a read met, as the X-V2bridge-Degraded header shows it.
type Cap string

// The caps a read can declare. Each is "<what was read>: <limit>".
const (
	CapInventory   Cap = "inventory: nrql uniques limit 10000"
	CapViolations  Cap = "violations: nrql facet limit 5000"
	CapHosts       Cap = "application hosts: nrql facet limit 5000"
	CapKeyTxStats  Cap = "key transaction summary: nrql facet limit 5000"
	CapMetricNames Cap = "metric names: nrql uniques limit 10000"
	CapDeployments Cap = "deployments: nrql limit 5000"
	CapAlertEvents Cap = "alert events: nrql limit 5000"
	// CapRecentDeployments: this replica recorded more than RememberedDeployments
	// deployments of the application in DeploymentMemory, so one NRQL may not have
	// ingested yet can be missing from the list.
	CapRecentDeployments Cap = "recent deployments: 1000 remembered per application"
	// CapNameLike: filter[name] was narrowed by the entity search's name LIKE
	// (name_filter: like), which nothing New Relic publishes shows to return every
	// application REST's substring match returns; an application it leaves out is
	// missing from the list.
	CapNameLike Cap = "filter[name]: entity search name LIKE"
)

// The parts of an answer a read can lose to a failed sub-query: NerdGraph answers the
// rest of the document (a partial answer), so the v2 body is served without them,
// declared the same way as a cap, and never cached.
const (
	// CapInventoryFailed: the host/instance inventory NRQL failed (an NRQL timeout
	// under load, say): application links and last_reported_at are missing.
	CapInventoryFailed Cap = "inventory: nrql query failed"
	// CapBrowsersFailed: the browser application search failed: RUM settings and the
	// end-user summary are missing.
	CapBrowsersFailed Cap = "browser applications: entity search failed"
)

// failedAt reports whether err, a partial answer's GraphQL errors, names path or a
// field under it.
func failedAt(err error, path string) bool {
	var ge *ng.Error
	if !errors.As(err, &ge) {
		return false
	}
	for _, e := range ge.Errors {
		if p := e.PathString(); p == path || strings.HasPrefix(p, path+".") {
			return true
		}
	}
	return false
}

// failed is whether caps holds a failure (not a limit): such an answer is not cached.
func failed(caps []Cap) bool {
	return slices.Contains(caps, CapInventoryFailed) || slices.Contains(caps, CapBrowsersFailed)
}

// capRule is one read that can meet a limit, how it is read through, and where the
// limit is documented.
type capRule struct {
	read   string // the read (file and function)
	limit  string // the limit it can meet
	answer string // what the read does about it
	cap    Cap    // the cap it declares when it cannot read everything ("" when never)
}

// capRules is every limited read of the gateway (tests walk it).
var capRules = []capRule{
	{"nrql.go inventoryNRQL (account-wide: application list, filter[host])", "FACET appId LIMIT 1000 (accountInventoryApps): applications",
		"max(timestamp) first, so the applications kept are the newest; a result of 1000 rows is read again for the page's applications (at most 200 rows, one round trip; a filtered list's matches in reads of 5000 ids, which a row per application never cuts) and the account's next pages read only theirs (manyApps)",
		""},
	{"nrql.go inventoryNRQL (application show, a page's applications)", "uniques(host, 10000), uniques(realAgentId, 10000): values per application",
		"an application with 10000 or more hosts or agent instances in the inventory window (an hour): served from the first 10000 met, declared", CapInventory},
	{"violations.go Violations", "FACET incidentId: 5000 facets",
		"max(timestamp) first (newest incidents kept); a full result is followed by the window UNTIL its oldest kept event (+1 ms, UNTIL is exclusive), incidents seen once keep their first (complete) aggregates; at most violationReads reads, then declared",
		CapViolations},
	{"hosts.go appHosts (hostStatsNRQL)", "FACET host / realAgentId, host: 5000 facets",
		"one application with 5000 or more hosts or instances in the membership window (an hour): served from the 5000 kept (picked by event count: the first item is a filter()), declared", CapHosts},
	{"keytransactions.go keyTxStats (keyTxStatsNRQL)", "FACET appId, metricTimesliceName: 5000 facets",
		"applications sharing metric names multiply the facets: a full result is read again per half of the page's applications, recursively; one application alone has at most 3 names per transaction (600 a page), so only a page of more than 1666 of one application's transactions is declared",
		CapKeyTxStats},
	{"metrics.go fetchMetricNames", "uniques(metricTimesliceName, 10000)",
		"no sound split (uniques keeps the first names met; a window does not divide names; a FACET keeps 5000): a result of 10000 names is served and declared",
		CapMetricNames},
	{"deployments.go deployments (deploymentRows)", "SELECT ... LIMIT MAX: 5000 rows",
		"newest first; a full answer is followed by a read UNTIL its oldest millisecond (+1 ms), rows already read dropped; after deploymentReads reads, or more than 5000 deployments in one millisecond, declared",
		CapDeployments},
	{"alertevents.go readAlertEvents (NrAiIncident opens and closes; ChangeTrackingEvent and Deployment deployments)", "SELECT ... LIMIT MAX: 5000 rows",
		"newest first, per source; a full answer is followed by a read UNTIL its oldest millisecond (+1 ms), rows already read dropped; after alertEventReads reads, or more than 5000 events in one millisecond, declared",
		CapAlertEvents},
	{"deployments.go deployLedger.remember (deployments this replica recorded, merged into lists until NRQL has them)", "RememberedDeployments (1000) per caller and application",
		"the oldest is dropped first (NRQL has it after its ingest latency, minutes); a list while one dropped is younger than DeploymentMemory is declared",
		CapRecentDeployments},
	{"applications.go ListApplications with name_filter: like (namefilter.go)", "entitySearch name LIKE: a match documented only as fuzzy, by token",
		"REST's case-insensitive substring match is applied to what LIKE returns; whether LIKE returned every application that match accepts is unknown, so every such answer is declared (v2bridge verify's filter[name] probes test it on the account)",
		CapNameLike},
	{"metrics.go metricDataNRQL", "TIMESERIES: 366 buckets; FACET metricTimesliceName: 5000 facets",
		"a window of more than 366 slices is a 422 before any read; each query facets at most metricdata.Chunk (50) names", ""},
	{"applications.go / browser.go / mobile.go / keytransactions.go entity searches", "entitySearch: 200 entities a page",
		"every nextCursor is followed (application list page N is the N-th cursor)", ""},
	{"violations.go readIncidents", "aiIssues.issues: a page per cursor; policiesSearch: 100 policies a page",
		"every issues cursor is followed; the policies' pages after the first are read with Policies", ""},
	{"browser.go browserDetails, keytransactions.go keyTxDetails", "entities(guids:): 25 GUIDs a field",
		"pages are cut into fields of 25 GUIDs (8 fields for 200, 4 for 100)", ""},
}

// Notes collects the caps the reads of one request met. The gateway puts one on each
// request's context (WithNotes) and reads it at the edge; it is safe for concurrent use.
type Notes struct {
	mu    sync.Mutex
	caps  []Cap
	basis *state.Basis // the cache entries the answer was read from (basis.go; nil: none)
}

// Caps returns the caps noted so far, each once, in the order first noted.
func (n *Notes) Caps() []Cap {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.caps)
}

// Capped is whether any cap was noted.
func (n *Notes) Capped() bool {
	if n == nil {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.caps) > 0
}

// String is the caps joined by ", " (the X-V2bridge-Degraded value); "" when none.
func (n *Notes) String() string {
	cs := n.Caps()
	ss := make([]string, len(cs))
	for i, c := range cs {
		ss[i] = string(c)
	}
	return strings.Join(ss, ", ")
}

// Add notes c (once).
func (n *Notes) Add(c Cap) {
	n.mu.Lock()
	if !slices.Contains(n.caps, c) {
		n.caps = append(n.caps, c)
	}
	n.mu.Unlock()
}

type notesKey struct{}

// WithNotes returns ctx carrying n: caps met by reads made with the context are noted
// there.
func WithNotes(ctx context.Context, n *Notes) context.Context {
	return context.WithValue(ctx, notesKey{}, n)
}

// NotesValue is what a context carrying n itself, instead of through WithNotes (its
// Value method asks here), answers for key: n, ok, for the key the reads note caps
// under; nothing for any other key.
func NotesValue(key any, n *Notes) (any, bool) {
	if _, ok := key.(notesKey); ok {
		return n, true
	}
	return nil, false
}

// noteCap records that a read answered with less than everything because of c.
// Without Notes on the context (a caller outside the gateway) it does nothing.
func noteCap(ctx context.Context, c Cap) {
	if n, _ := ctx.Value(notesKey{}).(*Notes); n != nil {
		n.Add(c)
	}
}

// noteCaps records every cap of cs (the caps kept with a cached answer).
func noteCaps(ctx context.Context, cs []Cap) {
	for _, c := range cs {
		noteCap(ctx, c)
	}
}
