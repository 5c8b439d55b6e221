package sim

import (
	"context"
	"encoding/base64"
	"sort"
	"strconv"
	"strings"

	"github.com/v2bridge/v2bridge/sim/internal/bind"
	"github.com/v2bridge/v2bridge/sim/model"
)

// alertsPageSize is NerdGraph's page of policies and conditions.
const alertsPageSize = 100

type alertsResolver struct{ *resolver }

func (r alertsResolver) account(id int) *Account {
	r.s.wmu.Lock()
	defer r.s.wmu.Unlock()
	for i := range r.s.data.Accounts {
		if r.s.data.Accounts[i].ID == id {
			a := r.s.data.Accounts[i] // a copy: writes swap data, never edit it in place
			return &a
		}
	}
	return nil
}

func policyModel(accountID int, p AlertPolicy) *model.AlertsPolicy {
	return &model.AlertsPolicy{AccountID: accountID, ID: strconv.Itoa(p.ID), Name: p.Name,
		IncidentPreference: model.AlertsIncidentPreference(p.IncidentPreference)}
}

func pageCursor(offset int) *string {
	c := base64.StdEncoding.EncodeToString([]byte("policies:" + strconv.Itoa(offset)))
	return &c
}

func parsePageCursor(c *string) (int, error) {
	if c == nil || *c == "" {
		return 0, nil
	}
	b, err := base64.StdEncoding.DecodeString(*c)
	if err != nil || !strings.HasPrefix(string(b), "policies:") {
		return 0, gqlError(classInvalidInput, "Invalid cursor")
	}
	return strconv.Atoi(strings.TrimPrefix(string(b), "policies:"))
}

// PoliciesSearch finds an account's policies: name is exact but case-insensitive,
// nameLike a case-insensitive substring, ids a list; 100 a page, by id.
func (r alertsResolver) PoliciesSearch(ctx context.Context, obj *bind.AlertsAccount, cursor *string, c *model.AlertsPoliciesSearchCriteriaInput) (*model.AlertsPoliciesSearchResultSet, error) {
	a := r.account(obj.AccountID)
	if a == nil {
		return nil, gqlError(classForbidden, "Access denied to account %d", obj.AccountID)
	}
	offset, err := parsePageCursor(cursor)
	if err != nil {
		return nil, err
	}
	var matches []*model.AlertsPolicy
	for _, p := range a.AlertPolicies {
		if c != nil {
			if c.Name != nil && !strings.EqualFold(p.Name, *c.Name) {
				continue
			}
			if c.NameLike != nil && !strings.Contains(strings.ToLower(p.Name), strings.ToLower(*c.NameLike)) {
				continue
			}
			if len(c.Ids) > 0 {
				found := false
				for _, id := range c.Ids {
					if id == strconv.Itoa(p.ID) {
						found = true
					}
				}
				if !found {
					continue
				}
			}
		}
		matches = append(matches, policyModel(a.ID, p))
	}
	sort.Slice(matches, func(i, j int) bool {
		x, _ := strconv.Atoi(matches[i].ID)
		y, _ := strconv.Atoi(matches[j].ID)
		return x < y
	})
	out := &model.AlertsPoliciesSearchResultSet{TotalCount: len(matches), Policies: []*model.AlertsPolicy{}}
	if offset < len(matches) {
		end := min(offset+alertsPageSize, len(matches))
		out.Policies = matches[offset:end]
		if end < len(matches) {
			out.NextCursor = pageCursor(end)
		}
	}
	return out, nil
}

// Policy is one policy by id (null when there is none).
func (r alertsResolver) Policy(ctx context.Context, obj *bind.AlertsAccount, id string) (*model.AlertsPolicy, error) {
	a := r.account(obj.AccountID)
	if a == nil {
		return nil, gqlError(classForbidden, "Access denied to account %d", obj.AccountID)
	}
	for _, p := range a.AlertPolicies {
		if strconv.Itoa(p.ID) == id {
			return policyModel(a.ID, p), nil
		}
	}
	return nil, nil
}

func validPreference(p model.AlertsIncidentPreference) bool { return p.IsValid() }

// AlertsPolicyCreate adds a policy.
func (r mutationResolver) AlertsPolicyCreate(ctx context.Context, accountID int, in model.AlertsPolicyInput) (*model.AlertsPolicy, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	if strings.TrimSpace(in.Name) == "" || !validPreference(in.IncidentPreference) {
		return nil, gqlError(classInvalidInput, "A policy needs a name and a valid incidentPreference")
	}
	var out *model.AlertsPolicy
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		if a == nil {
			return gqlError(classForbidden, "Access denied to account %d", accountID)
		}
		id := 1
		for _, p := range a.AlertPolicies {
			id = max(id, p.ID+1)
		}
		p := AlertPolicy{ID: id, Name: in.Name, IncidentPreference: string(in.IncidentPreference)}
		a.AlertPolicies = append(a.AlertPolicies, p)
		out = policyModel(accountID, p)
		return nil
	})
	return out, err
}

// AlertsPolicyUpdate changes a policy's name or incident preference.
func (r mutationResolver) AlertsPolicyUpdate(ctx context.Context, accountID int, id string, in model.AlertsPolicyUpdateInput) (*model.AlertsPolicy, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	var out *model.AlertsPolicy
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		for i := range a.AlertPolicies {
			p := &a.AlertPolicies[i]
			if strconv.Itoa(p.ID) != id {
				continue
			}
			if in.Name != nil {
				if strings.TrimSpace(*in.Name) == "" {
					return gqlError(classInvalidInput, "name must not be empty")
				}
				p.Name = *in.Name
			}
			if in.IncidentPreference != nil {
				if !validPreference(*in.IncidentPreference) {
					return gqlError(classInvalidInput, "invalid incidentPreference")
				}
				p.IncidentPreference = string(*in.IncidentPreference)
			}
			out = policyModel(accountID, *p)
			return nil
		}
		return gqlError(classNotFound, "Policy %s not found", id)
	})
	return out, err
}

// AlertsPolicyDelete removes a policy and its conditions.
func (r mutationResolver) AlertsPolicyDelete(ctx context.Context, accountID int, id string) (*model.AlertsPolicyDeleteResponse, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		for i := range a.AlertPolicies {
			if strconv.Itoa(a.AlertPolicies[i].ID) == id {
				dropPolicyConditions(a, a.AlertPolicies[i].ID)
				a.AlertPolicies = append(a.AlertPolicies[:i], a.AlertPolicies[i+1:]...)
				return nil
			}
		}
		return gqlError(classNotFound, "Policy %s not found", id)
	})
	if err != nil {
		return nil, err
	}
	return &model.AlertsPolicyDeleteResponse{ID: id}, nil
}

func accountOf(d *Data, id int) *Account {
	for i := range d.Accounts {
		if d.Accounts[i].ID == id {
			return &d.Accounts[i]
		}
	}
	return nil
}
