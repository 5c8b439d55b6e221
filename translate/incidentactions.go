package translate

import (
	"context"
	"fmt"
	"strconv"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// incidentPages bounds the pages of issues read to find one incident (100 issues a
// page in NerdGraph's answers).
const incidentPages = 200

// IncidentAction answers PUT /v2/alerts_incidents/{id}/acknowledge (resolve false) and
// /close (resolve true). REST's incidents are NerdGraph's issues (newrelic/docs-website
// src/content/eol/2026/07/eol-07-31-26-rest-api-v2.md: "incident" was renamed
// "issue"), and NerdGraph acts on an issue by its id with aiIssuesAckIssue and
// aiIssuesResolveIssue (schema/). The id is the surrogate alerts_incidents gives the
// issue, found among the issues of the same window (a round trip per page of issues,
// until it is met); then one mutation. The answer is the incident, closed now when
// closed (an incident already closed is answered as it is, without a mutation). The
// caller's incident lists are read again afterwards.
func (t *Translator) IncidentAction(ctx context.Context, c Caller, id int64, resolve bool) (*restv2.IncidentShow, error) {
	now := t.now().UTC()
	tw := ng.TimeWindowInput{StartTime: now.Add(-DefaultIncidentWindow).UnixMilli(), EndTime: now.UnixMilli()}
	var cursor *string
	for page := 0; page < incidentPages; page++ {
		resp, err := ng.Incidents(ctx, t.client, int(c.AccountID), ng.AiIssuesFilterIssues{}, tw, cursor)
		if err != nil {
			return nil, fmt.Errorf("incident %d: %w", id, err)
		}
		acct := resp.GetActor().GetAccount()
		if acct == nil || acct.GetAiIssues() == nil || acct.GetAiIssues().GetIssues() == nil {
			break
		}
		data := acct.GetAiIssues().GetIssues()
		for _, is := range data.Issues {
			if SurrogateID("issue", c.AccountID, is.IssueId) != id {
				continue
			}
			prefs := map[string]string{}
			if al := acct.GetAlerts(); al != nil && al.GetPoliciesSearch() != nil {
				for _, p := range al.GetPoliciesSearch().Policies {
					prefs[p.Id] = string(p.IncidentPreference)
				}
			}
			in := incidentOf(c, is, prefs, false)
			if in.IncidentPreference == "" && in.PolicyID != 0 {
				in.IncidentPreference = t.incidentPreference(ctx, c, in.PolicyID)
			}
			if resolve && in.ClosedAt != nil {
				return &restv2.IncidentShow{Incident: in}, nil
			}
			if err := t.issueAction(ctx, c, is.IssueId, resolve); err != nil {
				return nil, err
			}
			t.forgetIncidents(c)
			if resolve {
				at := now.UnixMilli()
				in.ClosedAt = &at
			}
			return &restv2.IncidentShow{Incident: in}, nil
		}
		if cursor = data.NextCursor; cursor == nil {
			break
		}
	}
	return nil, restv2.NotFound("Incident " + strconv.FormatInt(id, 10) + " not found")
}

// issueAction acknowledges or resolves an issue; an error NerdGraph reports in the
// answer is a 422 naming it.
func (t *Translator) issueAction(ctx context.Context, c Caller, issueID string, resolve bool) error {
	var msg *string
	if resolve {
		resp, err := ng.IssueResolve(ctx, t.client, int(c.AccountID), issueID)
		if err != nil {
			return fmt.Errorf("close incident: %w", err)
		}
		msg = resp.AiIssuesResolveIssue.Error
	} else {
		resp, err := ng.IssueAck(ctx, t.client, int(c.AccountID), issueID)
		if err != nil {
			return fmt.Errorf("acknowledge incident: %w", err)
		}
		msg = resp.AiIssuesAckIssue.Error
	}
	if msg != nil && *msg != "" {
		verb := "acknowledge"
		if resolve {
			verb = "close"
		}
		return restv2.Unprocessable("The incident could not be "+verb+"d", *msg)
	}
	return nil
}

// incidentPreference is a policy's incident preference ("" when it cannot be read).
func (t *Translator) incidentPreference(ctx context.Context, c Caller, policyID int64) string {
	resp, err := ng.Policy(ctx, t.client, int(c.AccountID), strconv.FormatInt(policyID, 10))
	if err != nil {
		return ""
	}
	if acct := resp.GetActor().GetAccount(); acct != nil && acct.GetAlerts() != nil && acct.GetAlerts().GetPolicy() != nil {
		return string(acct.GetAlerts().GetPolicy().IncidentPreference)
	}
	return ""
}

// forgetIncidents drops the caller's cached incident lists, so its next list shows
// the action.
func (t *Translator) forgetIncidents(c Caller) {
	for _, open := range []string{"true", "false"} {
		for _, exclude := range []string{"true", "false"} {
			t.st.Lists.Delete(c.cacheKey("incidents", open, exclude))
		}
	}
}
