package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// ViolationsRequest is a parsed GET /v2/alerts_violations.
type ViolationsRequest struct {
	Start, End *time.Time
	OnlyOpen   bool
	Page       int
}

// DefaultViolationWindow is how far back violations are listed without start_date
// (REST listed all history; NrAiIncident lives in NRDB's event retention).
const DefaultViolationWindow = 30 * 24 * time.Hour

// Violations answers GET /v2/alerts_violations from NrAiIncident events (New Relic's
// named replacement), one round trip per 5000 incidents of the window for the first
// page (none for pages and repeats read within ListTTL); paged with no rel="last", as
// REST did.
func (t *Translator) Violations(ctx context.Context, c Caller, r ViolationsRequest) (*restv2.ViolationList, Paging, error) {
	now := t.now().UTC()
	since := now.Add(-DefaultViolationWindow)
	if r.Start != nil {
		since = *r.Start
	}
	until := now.Truncate(time.Second).Add(time.Second)
	// Kept per caller and start_date for ListTTL (the query text holds the time of the
	// read and would never repeat): the pages a client follows come from one read.
	start := "-"
	if r.Start != nil {
		start = strconv.FormatInt(r.Start.UnixMilli(), 10)
	}
	key := c.cacheKey("violations", start)
	var read violationRead
	if v, ok := t.st.Lists.Get(key); ok {
		read = v.(violationRead)
	} else {
		var err error
		if read, err = t.readViolations(ctx, c, since, until, now); err != nil {
			return nil, Paging{}, err
		}
		t.st.Lists.Set(key, read)
	}
	noteCaps(ctx, read.caps)
	all := read.all
	var kept []restv2.Violation
	for _, v := range all {
		if r.Start != nil && v.OpenedAt < r.Start.UnixMilli() || r.End != nil && v.OpenedAt > r.End.UnixMilli() {
			continue
		}
		if r.OnlyOpen && v.ClosedAt != nil {
			continue
		}
		kept = append(kept, v)
	}
	page := max(r.Page, 1)
	lo := min((page-1)*PageSize, len(kept))
	hi := min(lo+PageSize, len(kept))
	// REST's violations never had rel="last": Last stays 0.
	return &restv2.ViolationList{Violations: kept[lo:hi]}, Paging{Page: page, HasNext: hi < len(kept)}, nil
}

// violationRead is every violation of a window, newest first, and the caps the read
// met (kept with it in the list cache, so every page declares them).
type violationRead struct {
	all  []restv2.Violation
	caps []Cap
}

// violationReads bounds the reads of one window: 40 reads of 5000 facets list at least
// 200000 incidents; a window with more is served from the newest and declared.
const violationReads = 40

// violationsNRQL is one incident per facet. max(timestamp) comes first: NRDB picks and
// orders facets by a first max() (docs-website
// src/content/docs/nrql/nrql-syntax-clauses-functions.mdx, #sel-facet), so a full
// result holds the incidents with the newest events; with latest(title) first it would
// pick them by how many events each has.
func violationsNRQL(since, until time.Time) (string, error) {
	var n NRQL
	n.Raw("SELECT max(timestamp) AS 'lastSeen', latest(title) AS 'title', latest(conditionName) AS 'conditionName', "+
		"latest(policyName) AS 'policyName', latest(priority) AS 'priority', min(openTime) AS 'openTime', max(closeTime) AS 'closeTime', "+
		"latest(conditionId) AS 'conditionId', latest(policyId) AS 'policyId', latest(entity.guid) AS 'entityGuid', "+
		"latest(entity.name) AS 'entityName', latest(event) AS 'lastEvent' FROM NrAiIncident "+
		"WHERE event IN ('open', 'close', 'Open', 'Close') FACET incidentId ").Range(since, until).Raw(" LIMIT MAX")
	return n.Build()
}

// readViolations reads every incident with events in [since, until), newest first. A
// read that comes back full (5000 facets) is followed by one over [since, oldest
// lastSeen kept + 1 ms) — UNTIL is exclusive (#sel-until) — so the incidents it left
// out, whose events are all at or before that instant, come back whole. An incident
// already read keeps its first aggregates: that read covered all its events, a later
// one only the older part.
func (t *Translator) readViolations(ctx context.Context, c Caller, since, until, now time.Time) (violationRead, error) {
	var out violationRead
	all, complete, err := readBackwards(ctx, t.client, c.AccountID, since, until, violationReads, violationsNRQL,
		func(raw json.RawMessage) (restv2.Violation, string, int64, bool) { return violationOf(raw, now) })
	if err != nil {
		return out, fmt.Errorf("violations: %w", err)
	}
	out.all = all
	if !complete {
		out.caps = []Cap{CapViolations} // no progress, or too many: served from the newest
	}
	sort.SliceStable(out.all, func(i, j int) bool { return out.all[i].OpenedAt > out.all[j].OpenedAt })
	return out, nil
}

// violationOf is the violation of one facet row, its facet key and its lastSeen
// (epoch ms; 0 when absent).
func violationOf(raw json.RawMessage, now time.Time) (restv2.Violation, string, int64, bool) {
	var row struct {
		LastSeen      *float64 `json:"lastSeen"`
		Facet         any      `json:"facet"`
		Title         string   `json:"title"`
		ConditionName string   `json:"conditionName"`
		PolicyName    string   `json:"policyName"`
		Priority      string   `json:"priority"`
		OpenTime      *float64 `json:"openTime"`
		CloseTime     *float64 `json:"closeTime"`
		ConditionID   any      `json:"conditionId"`
		PolicyID      any      `json:"policyId"`
		EntityGUID    string   `json:"entityGuid"`
		EntityName    string   `json:"entityName"`
		LastEvent     string   `json:"lastEvent"`
	}
	if json.Unmarshal(raw, &row) != nil {
		return restv2.Violation{}, "", 0, false
	}
	var last int64
	if row.LastSeen != nil {
		last = int64(*row.LastSeen)
	}
	key := fmt.Sprint(row.Facet)
	if row.OpenTime == nil {
		return restv2.Violation{}, key, last, false
	}
	v := restv2.Violation{Label: row.Title, PolicyName: row.PolicyName, ConditionName: row.ConditionName,
		OpenedAt: int64(*row.OpenTime), EntityName: row.EntityName}
	if id, ok := facetInt(row.Facet); ok {
		v.ID = id
	} else {
		v.ID = SurrogateID("incident", 0, key)
	}
	v.Priority = capitalize(row.Priority)
	open := !strings.EqualFold(row.LastEvent, "close")
	end := now.UnixMilli()
	if !open && row.CloseTime != nil {
		ct := int64(*row.CloseTime)
		v.ClosedAt = &ct
		end = ct
	}
	v.Duration = (end - v.OpenedAt) / 1000
	v.PolicyID, _ = facetInt(row.PolicyID)
	v.ConditionID, _ = facetInt(row.ConditionID)
	if g, err := ParseGUID(row.EntityGUID); err == nil {
		v.EntityProduct = productName(g.Domain)
		v.EntityType = capitalize(strings.ToLower(strings.ReplaceAll(g.Type, "_", " ")))
		v.EntityID, _ = strconv.ParseInt(g.DomainID, 10, 64)
	}
	return v, key, last, true
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
}

func productName(domain string) string {
	switch domain {
	case DomainAPM:
		return "Apm"
	case DomainBrowser:
		return "Browser"
	case DomainMobile:
		return "Mobile"
	case "INFRA":
		return "Infrastructure"
	case "SYNTH":
		return "Synthetics"
	}
	return capitalize(domain)
}

// IncidentsRequest is a parsed GET /v2/alerts_incidents.
type IncidentsRequest struct {
	OnlyOpen          bool
	ExcludeViolations bool
	Page              int
}

// DefaultIncidentWindow is how far back incidents are listed (NerdGraph's issues
// default to the last 24 hours; REST listed older incidents too).
const DefaultIncidentWindow = 30 * 24 * time.Hour

// Incidents answers GET /v2/alerts_incidents from NerdGraph issues (New Relic's rename
// of incidents), with incident_preference from the policies fetched in the same
// document. The matches are read once (a round trip per NerdGraph page of issues, and
// one per further page of policies) and kept per caller and filter for ListTTL, so the
// following pages and repeats within it cost none.
func (t *Translator) Incidents(ctx context.Context, c Caller, r IncidentsRequest) (*restv2.IncidentList, Paging, error) {
	key := c.cacheKey("incidents", strconv.FormatBool(r.OnlyOpen), strconv.FormatBool(r.ExcludeViolations))
	var all []restv2.Incident
	if v, ok := t.st.Lists.Get(key); ok {
		all = v.([]restv2.Incident)
	} else {
		var err error
		if all, err = t.readIncidents(ctx, c, r); err != nil {
			return nil, Paging{}, err
		}
		t.st.Lists.Set(key, all)
	}
	page := max(r.Page, 1)
	items, paging := pageOf(all, page, PageSize)
	return &restv2.IncidentList{Incidents: items}, paging, nil
}

// readIncidents reads every issue of the window, a round trip per NerdGraph page.
func (t *Translator) readIncidents(ctx context.Context, c Caller, r IncidentsRequest) ([]restv2.Incident, error) {
	now := t.now().UTC()
	filter := ng.AiIssuesFilterIssues{}
	if r.OnlyOpen {
		filter.States = []ng.AiIssuesIssueState{ng.AiIssuesIssueStateCreated, ng.AiIssuesIssueStateActivated}
	}
	tw := ng.TimeWindowInput{StartTime: now.Add(-DefaultIncidentWindow).UnixMilli(), EndTime: now.UnixMilli()}
	prefs := map[string]string{}
	var all []restv2.Incident
	var cursor, policyCursor *string
	for first := true; ; first = false {
		resp, err := ng.Incidents(ctx, t.client, int(c.AccountID), filter, tw, cursor)
		if err != nil {
			return nil, fmt.Errorf("incidents: %w", err)
		}
		acct := resp.GetActor().GetAccount()
		if acct == nil {
			break
		}
		// Account.alerts and Account.aiIssues are nullable in NerdGraph's schema; a null
		// is no policies or no issues, never a nil dereference (tests/contracts).
		if al := acct.GetAlerts(); al != nil && first {
			if ps := al.GetPoliciesSearch(); ps != nil {
				for _, p := range ps.Policies {
					prefs[p.Id] = string(p.IncidentPreference)
				}
				policyCursor = ps.NextCursor
			}
		}
		ai := acct.GetAiIssues()
		if ai == nil || ai.GetIssues() == nil {
			break
		}
		data := ai.GetIssues()
		for _, is := range data.Issues {
			all = append(all, incidentOf(c, is, prefs, r.ExcludeViolations))
		}
		if cursor = data.NextCursor; cursor == nil {
			break
		}
	}
	// policiesSearch gives a page of policies (100 in the simulator; NerdGraph pages it
	// by cursor): the preferences of the others come from their own pages.
	for policyCursor != nil {
		resp, err := ng.Policies(ctx, t.client, int(c.AccountID), ng.AlertsPoliciesSearchCriteriaInput{}, policyCursor)
		if err != nil {
			return nil, fmt.Errorf("incidents: alert policies: %w", err)
		}
		acct := resp.GetActor().GetAccount()
		if acct == nil || acct.GetAlerts() == nil || acct.GetAlerts().GetPoliciesSearch() == nil {
			break
		}
		ps := acct.GetAlerts().GetPoliciesSearch()
		for _, p := range ps.Policies {
			prefs[p.Id] = string(p.IncidentPreference)
		}
		policyCursor = ps.NextCursor
	}
	for i := range all {
		if all[i].IncidentPreference == "" && all[i].PolicyID != 0 {
			all[i].IncidentPreference = prefs[strconv.FormatInt(all[i].PolicyID, 10)]
		}
	}
	return all, nil
}

// incidentOf is REST's incident of a NerdGraph issue (prefs: incident preferences by
// policy id).
func incidentOf(c Caller, is ng.IncidentsActorAccountAiIssuesAiIssuesAccountStitchedFieldsIssuesAiIssuesIssueDataIssuesAiIssuesIssue,
	prefs map[string]string, excludeViolations bool) restv2.Incident {
	in := restv2.Incident{ID: SurrogateID("issue", c.AccountID, is.IssueId), OpenedAt: is.CreatedAt,
		ClosedAt: is.ClosedAt, ExcludeViolations: excludeViolations, Violations: []int64{}}
	if is.ActivatedAt != nil {
		in.OpenedAt = *is.ActivatedAt
	}
	if len(is.PolicyIds) > 0 {
		in.PolicyID = int64(is.PolicyIds[0])
		in.IncidentPreference = prefs[strconv.Itoa(is.PolicyIds[0])]
	}
	for _, id := range is.IncidentIds {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			in.Violations = append(in.Violations, n)
		} else {
			in.Violations = append(in.Violations, SurrogateID("incident", 0, id))
		}
	}
	return in
}
