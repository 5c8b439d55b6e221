package sim

import (
	"context"
	"encoding/base64"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/sim/internal/bind"
	"github.com/v2bridge/v2bridge/sim/model"
	"github.com/v2bridge/v2bridge/sim/nrdb"
)

type issuesResolver struct{ *resolver }

// defaultIssueWindow is NerdGraph's default aiIssues time window.
const defaultIssueWindow = 24 * time.Hour

// Issues derives one issue per incident from the recorded NrAiIncident events of the
// account (state, priority, policy, times), filtered by states, ids and policyIds,
// created within the time window (default the last 24 hours, as NerdGraph), 100 a page.
func (r issuesResolver) Issues(ctx context.Context, obj *bind.AiIssuesAccount, cursor *string, filter *model.AiIssuesFilterIssues, tw *model.TimeWindowInput) (*model.AiIssuesIssueData, error) {
	if !requestFrom(ctx).caller.reach[obj.AccountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", obj.AccountID)
	}
	now := r.s.now()
	start, end := now.Add(-defaultIssueWindow).UnixMilli(), now.UnixMilli()
	if tw != nil {
		start, end = tw.StartTime, tw.EndTime
	}
	byID := map[string]*model.AiIssuesIssue{}
	var order []string
	_ = r.s.events.Scan(ctx, nrdb.Scan{Accounts: []int{obj.AccountID}, EventTypes: []string{"NrAiIncident"},
		Begin: time.UnixMilli(0), End: now.Add(time.Hour)}, func(row nrdb.Row) bool {
		m := row.(nrdb.MapRow).Attrs
		inc, _ := m["incidentId"].(string)
		iss := byID[inc]
		if iss == nil {
			opened := int64(m["openTime"].(float64))
			prio := model.AiIssuesPriorityCritical
			if m["priority"] == "warning" {
				prio = model.AiIssuesPriorityHigh
			}
			title, _ := m["title"].(string)
			pol := int(m["policyId"].(float64))
			pname, _ := m["policyName"].(string)
			cname, _ := m["conditionName"].(string)
			guid, _ := m["entity.guid"].(string)
			ename, _ := m["entity.name"].(string)
			iss = &model.AiIssuesIssue{
				IssueID: "issue-" + inc, AccountIds: []int{obj.AccountID}, CreatedAt: opened, ActivatedAt: ptr(opened),
				UpdatedAt: opened, State: model.AiIssuesIssueStateActivated, Priority: prio, Title: []string{title},
				Description: []string{title}, IncidentIds: []string{inc}, PolicyIds: []int{pol}, PolicyName: []string{pname},
				ConditionName: []string{cname}, EntityGuids: []string{guid}, EntityNames: []string{ename},
				EventType: "ISSUE", Origins: []string{"Alerts"}, Sources: []string{"newrelic"}, TotalIncidents: 1,
			}
			byID[inc] = iss
			order = append(order, inc)
		}
		if m["event"] == "acknowledge" && iss.AcknowledgedAt == nil {
			iss.AcknowledgedAt = ptr(row.(nrdb.MapRow).At.UnixMilli())
		}
		if m["event"] == "close" {
			ct := int64(m["closeTime"].(float64))
			iss.ClosedAt, iss.UpdatedAt, iss.State = &ct, ct, model.AiIssuesIssueStateClosed
		}
		return true
	})
	var matches []*model.AiIssuesIssue
	for _, id := range order {
		iss := byID[id]
		if iss.CreatedAt < start || iss.CreatedAt > end {
			continue
		}
		if filter != nil {
			if len(filter.States) > 0 && !slices.Contains(filter.States, iss.State) {
				continue
			}
			if len(filter.Ids) > 0 && !slices.Contains(filter.Ids, iss.IssueID) {
				continue
			}
			if len(filter.PolicyIds) > 0 && !slices.Contains(filter.PolicyIds, iss.PolicyIds[0]) {
				continue
			}
		}
		matches = append(matches, iss)
	}
	sort.SliceStable(matches, func(i, j int) bool { return matches[i].CreatedAt > matches[j].CreatedAt })
	offset := 0
	if cursor != nil && *cursor != "" {
		b, err := base64.StdEncoding.DecodeString(*cursor)
		if err != nil || !strings.HasPrefix(string(b), "issues:") {
			return nil, gqlError(classInvalidInput, "Invalid cursor")
		}
		offset, _ = strconv.Atoi(strings.TrimPrefix(string(b), "issues:"))
	}
	out := &model.AiIssuesIssueData{Issues: []*model.AiIssuesIssue{}}
	if offset < len(matches) {
		endIdx := min(offset+alertsPageSize, len(matches))
		out.Issues = matches[offset:endIdx]
		if endIdx < len(matches) {
			c := base64.StdEncoding.EncodeToString([]byte("issues:" + strconv.Itoa(endIdx)))
			out.NextCursor = &c
		}
	}
	return out, nil
}

// Incidents is not simulated.
func (r issuesResolver) Incidents(ctx context.Context, _ *bind.AiIssuesAccount, _ *string, _ *model.AiIssuesFilterIncidents, _ *model.TimeWindowInput) (*model.AiIssuesIncidentData, error) {
	return nil, unsupported(ctx)
}
