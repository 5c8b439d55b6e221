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
	v2 "github.com/v2bridge/v2bridge/translate/v2"
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
// named replacement), one round trip for every page (none for pages and repeats read
// within ListTTL); paged with no rel="last", as REST did.
func (t *Translator) Violations(ctx context.Context, c Caller, r ViolationsRequest) (*v2.ViolationList, Paging, error) {
	now := t.now().UTC()
	since := now.Add(-DefaultViolationWindow)
	if r.Start != nil {
		since = *r.Start
	}
	until := now.Truncate(time.Second).Add(time.Second)
	var n NRQL
	n.Raw("SELECT latest(title) AS 'title', latest(conditionName) AS 'conditionName', latest(policyName) AS 'policyName', "+
		"latest(priority) AS 'priority', min(openTime) AS 'openTime', max(closeTime) AS 'closeTime', "+
		"latest(conditionId) AS 'conditionId', latest(policyId) AS 'policyId', latest(entity.guid) AS 'entityGuid', "+
		"latest(entity.name) AS 'entityName', latest(event) AS 'lastEvent' FROM NrAiIncident "+
		"WHERE event IN ('open', 'close', 'Open', 'Close') FACET incidentId ").Range(since, until).Raw(" LIMIT MAX")
	q, err := n.Build()
	if err != nil {
		return nil, Paging{}, err
	}
	// Kept per caller and start_date for ListTTL (the query text holds the time of the
	// read and would never repeat): the pages a client follows come from one read.
	start := "-"
	if r.Start != nil {
		start = strconv.FormatInt(r.Start.UnixMilli(), 10)
	}
	key := c.cacheKey("violations", start)
	var all []v2.Violation
	if v, ok := t.lists.Get(key); ok {
		all = v.([]v2.Violation)
	} else {
		resp, err := ng.NrqlQuery(ctx, t.client, int(c.AccountID), q)
		if err != nil {
			return nil, Paging{}, fmt.Errorf("violations: %w", err)
		}
		if acct := resp.GetActor().GetAccount(); acct != nil && acct.Nrql != nil {
			for _, row := range acct.Nrql.Results {
				if row == nil {
					continue
				}
				if v, ok := violationOf(*row, now); ok {
					all = append(all, v)
				}
			}
		}
		sort.Slice(all, func(i, j int) bool { return all[i].OpenedAt > all[j].OpenedAt })
		t.lists.Set(key, all)
	}
	var kept []v2.Violation
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
	return &v2.ViolationList{Violations: kept[lo:hi]}, Paging{Page: page, HasNext: hi < len(kept)}, nil
}

func violationOf(raw json.RawMessage, now time.Time) (v2.Violation, bool) {
	var row struct {
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
	if json.Unmarshal(raw, &row) != nil || row.OpenTime == nil {
		return v2.Violation{}, false
	}
	v := v2.Violation{Label: row.Title, PolicyName: row.PolicyName, ConditionName: row.ConditionName,
		OpenedAt: int64(*row.OpenTime), EntityName: row.EntityName}
	if id, ok := facetInt(row.Facet); ok {
		v.ID = id
	} else {
		v.ID = SurrogateID("incident", 0, fmt.Sprint(row.Facet))
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
	return v, true
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
