package sim

import (
	"context"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/sim/model"
	"github.com/v2bridge/v2bridge/sim/nrdb"
)

// AiIssuesAckIssue acknowledges an issue: the simulator records an NrAiIncident
// `acknowledge` event for the issue's incident (New Relic's data dictionary lists
// Acknowledge among NrAiIncident's `event` values: newrelic/docs-website
// src/data-dictionary/events/NrAiIncident/event.md), which the issue reads as its
// acknowledgedAt.
func (r mutationResolver) AiIssuesAckIssue(ctx context.Context, accountID int, issueID string) (*model.AiIssuesIssueUserActionResponse, error) {
	return r.issueAction(ctx, accountID, issueID, model.AiIssuesIssueUserActionAck)
}

// AiIssuesResolveIssue resolves (closes) an issue: the simulator records the close
// event of the issue's incident, so the issue is CLOSED and the incident closed in
// NRQL. Resolving a closed issue changes nothing.
func (r mutationResolver) AiIssuesResolveIssue(ctx context.Context, accountID int, issueID string) (*model.AiIssuesIssueUserActionResponse, error) {
	return r.issueAction(ctx, accountID, issueID, model.AiIssuesIssueUserActionResolve)
}

func (r mutationResolver) issueAction(ctx context.Context, accountID int, issueID string, action model.AiIssuesIssueUserAction) (*model.AiIssuesIssueUserActionResponse, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	incident, ok := strings.CutPrefix(issueID, "issue-")
	var base map[string]any
	closed := false
	now := r.s.now()
	if ok {
		_ = r.s.events.Scan(ctx, nrdb.Scan{Accounts: []int{accountID}, EventTypes: []string{"NrAiIncident"},
			Begin: time.UnixMilli(0), End: now.Add(time.Hour)}, func(row nrdb.Row) bool {
			m := row.(nrdb.MapRow).Attrs
			if m["incidentId"] != incident {
				return true
			}
			if base == nil {
				base = m
			}
			closed = closed || m["event"] == "close"
			return true
		})
	}
	if base == nil {
		msg := "Issue " + issueID + " not found"
		return &model.AiIssuesIssueUserActionResponse{Error: &msg}, nil
	}
	result := &model.AiIssuesIssueUserActionResponse{Result: &model.AiIssuesIssueUserActionResult{
		AccountID: accountID, Action: action, IssueID: issueID}}
	if closed {
		return result, nil
	}
	ev := make(map[string]any, len(base)+1)
	for k, v := range base {
		ev[k] = v
	}
	at := now.Truncate(time.Millisecond)
	ev["event"] = "acknowledge"
	if action == model.AiIssuesIssueUserActionResolve {
		ev["event"], ev["closeTime"] = "close", float64(at.UnixMilli())
	}
	// Issues are NerdGraph state, not NRDB rows: the action shows at once.
	r.s.events.addVisible(nrdb.MapRow{Type: "NrAiIncident", At: at, Attrs: ev}, time.Time{})
	return result, nil
}
