package translate

import (
	"context"
	"fmt"
	"strconv"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

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
func (t *Translator) Incidents(ctx context.Context, c Caller, r IncidentsRequest) (*v2.IncidentList, Paging, error) {
	key := c.cacheKey("incidents", strconv.FormatBool(r.OnlyOpen), strconv.FormatBool(r.ExcludeViolations))
	var all []v2.Incident
	if v, ok := t.lists.Get(key); ok {
		all = v.([]v2.Incident)
	} else {
		var err error
		if all, err = t.readIncidents(ctx, c, r); err != nil {
			return nil, Paging{}, err
		}
		t.lists.Set(key, all)
	}
	page := max(r.Page, 1)
	items, paging := pageOf(all, page, PageSize)
	return &v2.IncidentList{Incidents: items}, paging, nil
}

// readIncidents reads every issue of the window, a round trip per NerdGraph page.
func (t *Translator) readIncidents(ctx context.Context, c Caller, r IncidentsRequest) ([]v2.Incident, error) {
	now := t.now().UTC()
	filter := ng.AiIssuesFilterIssues{}
	if r.OnlyOpen {
		filter.States = []ng.AiIssuesIssueState{ng.AiIssuesIssueStateCreated, ng.AiIssuesIssueStateActivated}
	}
	tw := ng.TimeWindowInput{StartTime: now.Add(-DefaultIncidentWindow).UnixMilli(), EndTime: now.UnixMilli()}
	prefs := map[string]string{}
	var all []v2.Incident
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
			in := v2.Incident{ID: SurrogateID("issue", c.AccountID, is.IssueId), OpenedAt: is.CreatedAt,
				ClosedAt: is.ClosedAt, ExcludeViolations: r.ExcludeViolations, Violations: []int64{}}
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
			all = append(all, in)
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
