package translate

import (
	"context"
	"errors"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// CreateNrqlCondition answers POST /v2/alerts_nrql_conditions/policies/{policy_id}
// (never retried).
func (t *Translator) CreateNrqlCondition(ctx context.Context, c Caller, policyID int64, in restv2.NrqlConditionInput) (*restv2.NrqlConditionShow, error) {
	typ, err := conditionType(condCreate, &in)
	if err != nil {
		return nil, err
	}
	baseline := typ == ng.AlertsNrqlConditionTypeBaseline
	if strings.TrimSpace(deref(in.Name)) == "" {
		return nil, errConditionValidation(condCreate, "nrql_condition.name is required")
	}
	if strings.TrimSpace(deref(in.Query)) == "" {
		return nil, errConditionValidation(condCreate, "nrql_condition.nrql.query is required")
	}
	if in.Terms == nil {
		return nil, errConditionValidation(condCreate, "nrql_condition.terms needs at least one term")
	}
	p, err := inputParts(&in, condCreate, baseline)
	if err != nil {
		return nil, err
	}
	enabled := true // REST's default
	if in.Enabled != nil {
		enabled = *in.Enabled
	}
	query := ng.AlertsNrqlConditionQueryInput{Query: *in.Query, EvaluationOffset: p.offset}
	pid := policyIDParam(policyID)
	var f ng.NrqlConditionFields
	if baseline {
		dir := ng.AlertsNrqlBaselineDirectionUpperOnly // REST's default
		if p.direction != nil {
			dir = *p.direction
		}
		resp, err := ng.NrqlConditionBaselineCreate(ctx, t.client, int(c.AccountID), pid, ng.AlertsNrqlConditionBaselineInput{
			BaselineDirection: dir, Enabled: enabled, Name: *in.Name, Nrql: query, RunbookUrl: in.RunbookURL,
			Signal: p.signal, Expiration: p.expiration, Terms: dynamicTerms(p.terms), ViolationTimeLimitSeconds: p.limit,
		})
		if err != nil {
			return nil, conditionWriteError(err, condCreate, policyID)
		}
		if resp.AlertsNrqlConditionBaselineCreate != nil {
			f = resp.AlertsNrqlConditionBaselineCreate
		}
	} else {
		resp, err := ng.NrqlConditionStaticCreate(ctx, t.client, int(c.AccountID), pid, ng.AlertsNrqlConditionStaticInput{
			Enabled: enabled, Name: *in.Name, Nrql: query, RunbookUrl: in.RunbookURL,
			Signal: p.signal, Expiration: p.expiration, Terms: staticTerms(p.terms), ViolationTimeLimitSeconds: p.limit,
		})
		if err != nil {
			return nil, conditionWriteError(err, condCreate, policyID)
		}
		if resp.AlertsNrqlConditionStaticCreate != nil {
			f = resp.AlertsNrqlConditionStaticCreate
		}
	}
	if f == nil {
		return nil, restv2.WriteOutcomeUnknown("NRQL condition", checkConditions(policyID))
	}
	return &restv2.NrqlConditionShow{Condition: nrqlConditionOf(f)}, nil
}

func checkConditions(policyID int64) string {
	if policyID == 0 {
		return "GET /v2/alerts_nrql_conditions.json?policy_id=<policy>"
	}
	return "GET /v2/alerts_nrql_conditions.json?policy_id=" + strconv.FormatInt(policyID, 10)
}

// conditionWriteError maps a failed condition mutation: an unknown policy or condition
// is REST's 404, a rejected input its 422, and no answer says the outcome is unknown.
func conditionWriteError(err error, op string, policyID int64) error {
	var ge *ng.Error
	if !errors.As(err, &ge) {
		return err
	}
	switch ge.Kind {
	case ng.KindNotFound:
		if op == condCreate {
			return errPolicyNotFound()
		}
		return ErrConditionNotFound()
	case ng.KindInvalid:
		msg := "rejected by New Relic"
		if len(ge.Errors) > 0 {
			msg = ge.Errors[0].Message
		}
		return errConditionValidation(op, msg)
	}
	if op == "delete" {
		return createError(err, "NRQL condition deletion", checkConditions(policyID))
	}
	return createError(err, "NRQL condition "+op, checkConditions(policyID))
}

// UpdateNrqlCondition answers PUT /v2/alerts_nrql_conditions/{id}: the condition is
// read first (its type picks the mutation), then only the fields sent are changed.
func (t *Translator) UpdateNrqlCondition(ctx context.Context, c Caller, id int64, in restv2.NrqlConditionInput) (*restv2.NrqlConditionShow, error) {
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		return nil, errConditionValidation(condUpdate, "nrql_condition.name must not be empty")
	}
	if in.Query != nil && strings.TrimSpace(*in.Query) == "" {
		return nil, errConditionValidation(condUpdate, "nrql_condition.nrql.query must not be empty")
	}
	typ, err := conditionType(condUpdate, &in)
	if err != nil {
		return nil, err
	}
	// A body that names its type (client-go always does) picks the mutation itself: one
	// round trip, and NerdGraph refuses a type mismatch. Otherwise the condition is read.
	var policyID int64
	if in.Type == nil || lower(in.Type) == "" {
		cur, err := t.nrqlCondition(ctx, c, id)
		if err != nil {
			return nil, err
		}
		typ = cur.GetType()
		policyID, _ = strconv.ParseInt(cur.GetPolicyId(), 10, 64)
	}
	baseline := typ == ng.AlertsNrqlConditionTypeBaseline
	p, err := inputParts(&in, condUpdate, baseline)
	if err != nil {
		return nil, err
	}
	var query *ng.AlertsNrqlConditionUpdateQueryInput
	if in.Query != nil || p.offset != nil {
		query = &ng.AlertsNrqlConditionUpdateQueryInput{Query: in.Query, EvaluationOffset: p.offset}
	}
	sid := strconv.FormatInt(id, 10)
	var f ng.NrqlConditionFields
	if baseline {
		upd := ng.AlertsNrqlConditionUpdateBaselineInput{BaselineDirection: p.direction, Enabled: in.Enabled, Name: in.Name, Nrql: query,
			RunbookUrl: in.RunbookURL, Signal: p.signal, Expiration: p.expiration, ViolationTimeLimitSeconds: p.limit}
		if p.terms != nil {
			upd.Terms = dynamicTerms(p.terms)
		}
		resp, err := ng.NrqlConditionBaselineUpdate(ctx, t.client, int(c.AccountID), sid, upd)
		if err != nil {
			return nil, conditionWriteError(err, condUpdate, policyID)
		}
		if resp.AlertsNrqlConditionBaselineUpdate != nil {
			f = resp.AlertsNrqlConditionBaselineUpdate
		}
	} else {
		upd := ng.AlertsNrqlConditionUpdateStaticInput{Enabled: in.Enabled, Name: in.Name, Nrql: query,
			RunbookUrl: in.RunbookURL, Signal: p.signal, Expiration: p.expiration, ViolationTimeLimitSeconds: p.limit}
		if p.terms != nil {
			upd.Terms = staticTerms(p.terms)
		}
		resp, err := ng.NrqlConditionStaticUpdate(ctx, t.client, int(c.AccountID), sid, upd)
		if err != nil {
			return nil, conditionWriteError(err, condUpdate, policyID)
		}
		if resp.AlertsNrqlConditionStaticUpdate != nil {
			f = resp.AlertsNrqlConditionStaticUpdate
		}
	}
	if f == nil {
		return nil, restv2.WriteOutcomeUnknown("NRQL condition update", checkConditions(policyID))
	}
	return &restv2.NrqlConditionShow{Condition: nrqlConditionOf(f)}, nil
}

// DeleteNrqlCondition answers DELETE /v2/alerts_nrql_conditions/{id} with the deleted
// condition (read first, as REST answered it).
func (t *Translator) DeleteNrqlCondition(ctx context.Context, c Caller, id int64) (*restv2.NrqlConditionShow, error) {
	cur, err := t.nrqlCondition(ctx, c, id)
	if err != nil {
		return nil, err
	}
	policyID, _ := strconv.ParseInt(cur.GetPolicyId(), 10, 64)
	if _, err := ng.ConditionDelete(ctx, t.client, int(c.AccountID), strconv.FormatInt(id, 10)); err != nil {
		return nil, conditionWriteError(err, "delete", policyID)
	}
	return &restv2.NrqlConditionShow{Condition: nrqlConditionOf(cur)}, nil
}
