package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// incidentPreferences are REST's values (NerdGraph adds CUSTOM, which REST cannot set).
var incidentPreferences = map[string]ng.AlertsIncidentPreference{
	"PER_POLICY": ng.AlertsIncidentPreferencePerPolicy, "PER_CONDITION": ng.AlertsIncidentPreferencePerCondition,
	"PER_CONDITION_AND_TARGET": ng.AlertsIncidentPreferencePerConditionAndTarget,
}

func errPolicyValidation(msg string) *restv2.Error {
	return restv2.Unprocessable("Validation or internal error occurred", msg)
}

func errPolicyNotFound() *restv2.Error {
	return restv2.NotFound("No Alerts policy was found for the given ID")
}

func policyOf(f *ng.PolicyFields) restv2.Policy {
	id, _ := strconv.ParseInt(f.Id, 10, 64)
	return restv2.Policy{ID: id, Name: f.Name, IncidentPreference: string(f.IncidentPreference)}
}

// ListPolicies answers GET /v2/alerts_policies: filter[name] is an exact match (NerdGraph
// matches names case-insensitively, so the exact case is checked here).
func (t *Translator) ListPolicies(ctx context.Context, c Caller, name string, page int) (*restv2.PolicyList, Paging, error) {
	page = max(page, 1)
	crit := ng.AlertsPoliciesSearchCriteriaInput{}
	if name != "" {
		crit.Name = &name
	}
	var all []restv2.Policy
	var cursor *string
	for {
		resp, err := ng.Policies(ctx, t.client, int(c.AccountID), crit, cursor)
		if err != nil {
			return nil, Paging{}, fmt.Errorf("alert policies: %w", err)
		}
		// actor, account and alerts are nullable in NerdGraph's schema (tests/contracts).
		act := resp.GetActor()
		if act == nil || act.Account == nil || act.Account.Alerts == nil || act.Account.Alerts.PoliciesSearch == nil {
			break
		}
		a := act.Account.Alerts.PoliciesSearch
		for _, p := range a.Policies {
			if name == "" || p.Name == name {
				all = append(all, policyOf(&p.PolicyFields))
			}
		}
		if cursor = a.NextCursor; cursor == nil {
			break
		}
	}
	items, paging := pageOf(all, page, PageSize)
	return &restv2.PolicyList{Policies: items}, paging, nil
}

// CreatePolicy answers POST /v2/alerts_policies (incident_preference defaults to
// PER_POLICY, as in REST).
func (t *Translator) CreatePolicy(ctx context.Context, c Caller, in restv2.PolicyInput) (*restv2.PolicyShow, error) {
	if in.Name == nil || strings.TrimSpace(*in.Name) == "" {
		return nil, errPolicyValidation("policy.name is required")
	}
	pref := ng.AlertsIncidentPreferencePerPolicy
	if in.IncidentPreference != nil {
		p, ok := incidentPreferences[*in.IncidentPreference]
		if !ok {
			return nil, errPolicyValidation("policy.incident_preference must be PER_POLICY, PER_CONDITION or PER_CONDITION_AND_TARGET")
		}
		pref = p
	}
	resp, err := ng.PolicyCreate(ctx, t.client, int(c.AccountID), ng.AlertsPolicyInput{Name: *in.Name, IncidentPreference: pref})
	if err != nil {
		return nil, createError(err, "policy", "GET /v2/alerts_policies.json?filter[name]="+*in.Name)
	}
	if resp.AlertsPolicyCreate == nil {
		return nil, restv2.WriteOutcomeUnknown("policy", "GET /v2/alerts_policies.json")
	}
	return &restv2.PolicyShow{Policy: policyOf(&resp.AlertsPolicyCreate.PolicyFields)}, nil
}

// UpdatePolicy answers PUT /v2/alerts_policies/{id}.
func (t *Translator) UpdatePolicy(ctx context.Context, c Caller, id int64, in restv2.PolicyInput) (*restv2.PolicyShow, error) {
	upd := ng.AlertsPolicyUpdateInput{Name: in.Name}
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		return nil, errPolicyValidation("policy.name must not be empty")
	}
	if in.IncidentPreference != nil {
		p, ok := incidentPreferences[*in.IncidentPreference]
		if !ok {
			return nil, errPolicyValidation("policy.incident_preference must be PER_POLICY, PER_CONDITION or PER_CONDITION_AND_TARGET")
		}
		upd.IncidentPreference = &p
	}
	resp, err := ng.PolicyUpdate(ctx, t.client, int(c.AccountID), strconv.FormatInt(id, 10), upd)
	if err != nil {
		if isNotFound(err) {
			return nil, errPolicyNotFound()
		}
		return nil, createError(err, "policy update", "GET /v2/alerts_policies.json")
	}
	if resp.AlertsPolicyUpdate == nil {
		return nil, errPolicyNotFound()
	}
	return &restv2.PolicyShow{Policy: policyOf(&resp.AlertsPolicyUpdate.PolicyFields)}, nil
}

// DeletePolicy answers DELETE /v2/alerts_policies/{id} with the deleted policy.
func (t *Translator) DeletePolicy(ctx context.Context, c Caller, id int64) (*restv2.PolicyShow, error) {
	sid := strconv.FormatInt(id, 10)
	cur, err := ng.Policy(ctx, t.client, int(c.AccountID), sid)
	if err != nil {
		return nil, fmt.Errorf("policy %d: %w", id, err)
	}
	act := cur.GetActor()
	if act == nil || act.Account == nil || act.Account.Alerts == nil || act.Account.Alerts.Policy == nil {
		return nil, errPolicyNotFound()
	}
	p := act.Account.Alerts.Policy
	if _, err := ng.PolicyDelete(ctx, t.client, int(c.AccountID), sid); err != nil {
		if isNotFound(err) {
			return nil, errPolicyNotFound()
		}
		return nil, createError(err, "policy delete", "GET /v2/alerts_policies.json")
	}
	return &restv2.PolicyShow{Policy: policyOf(&p.PolicyFields)}, nil
}

func isNotFound(err error) bool {
	var ge *ng.Error
	return errors.As(err, &ge) && ge.Kind == ng.KindNotFound
}
