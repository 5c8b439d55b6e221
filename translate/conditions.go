package translate

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// ErrConditionNotFound is REST's 404 for an unknown condition id.
func ErrConditionNotFound() *restv2.Error {
	return restv2.NotFound("No Alerts condition was found with the given ID")
}

// nrqlConditionOf renders NerdGraph's condition in REST's shape.
func nrqlConditionOf(f ng.NrqlConditionFields) restv2.NrqlCondition {
	id, _ := strconv.ParseInt(f.GetId(), 10, 64)
	c := restv2.NrqlCondition{ID: id, Type: strings.ToLower(string(f.GetType())), Name: f.GetName(), Enabled: f.GetEnabled(),
		RunbookURL: deref(f.GetRunbookUrl()), Query: f.GetNrql().Query, EntityGUID: f.GetEntityGuid()}
	if b, ok := f.(interface {
		GetBaselineDirection() ng.AlertsNrqlBaselineDirection
	}); ok {
		c.BaselineDirection = strings.ToLower(string(b.GetBaselineDirection()))
	}
	if l := f.GetViolationTimeLimitSeconds(); l != nil {
		c.ViolationTimeLimitSeconds = int64(*l)
	}
	for _, t := range f.GetTerms() {
		if t == nil {
			continue
		}
		c.Terms = append(c.Terms, restTerm(t.GetOperator(), t.GetPriority(), t.GetThreshold(), t.GetThresholdDuration(), t.GetThresholdOccurrences()))
	}
	s := f.GetSignal()
	sig := &restv2.NrqlSignal{}
	if s.AggregationWindow != nil {
		sig.AggregationWindow = formatNumber(*s.AggregationWindow)
		// REST's since_value (evaluation offset) is the aggregation delay counted in
		// windows, which is how NerdGraph converts an evaluationOffset it is given.
		if s.AggregationDelay != nil && *s.AggregationWindow > 0 && s.AggregationMethod != nil &&
			*s.AggregationMethod == ng.AlertsSignalAggregationMethodCadence {
			sig.EvaluationOffset = formatNumber(*s.AggregationDelay / *s.AggregationWindow)
			c.SinceValue = sig.EvaluationOffset
		}
	}
	sig.SlideBy, sig.AggregationDelay, sig.AggregationTimer = wholeSeconds(s.SlideBy), wholeSeconds(s.AggregationDelay), wholeSeconds(s.AggregationTimer)
	if s.AggregationMethod != nil {
		sig.AggregationMethod = string(*s.AggregationMethod)
	}
	if s.FillOption != nil {
		sig.FillOption = strings.ToLower(string(*s.FillOption))
	}
	if s.FillValue != nil {
		sig.FillValue = formatNumber(*s.FillValue)
	}
	if *sig != (restv2.NrqlSignal{}) {
		c.Signal = sig
	}
	x := f.GetExpiration()
	exp := &restv2.NrqlExpiration{OpenViolationOnExpiration: deref(x.OpenViolationOnExpiration),
		CloseViolationsOnExpiration: deref(x.CloseViolationsOnExpiration)}
	if x.ExpirationDuration != nil {
		exp.ExpirationDuration = formatNumber(*x.ExpirationDuration)
	}
	if *exp != (restv2.NrqlExpiration{}) {
		c.Expiration = exp
	}
	return c
}

// restTerm is a NerdGraph term in REST's words and units (duration in minutes).
func restTerm(op ng.AlertsNrqlConditionTermsOperator, p ng.AlertsNrqlConditionPriority, threshold, seconds float64,
	occ ng.AlertsNrqlConditionThresholdOccurrences) restv2.Term {
	t := restv2.Term{Duration: formatNumber(seconds / 60), Priority: strings.ToLower(string(p)), Threshold: formatNumber(threshold)}
	switch op {
	case ng.AlertsNrqlConditionTermsOperatorEquals:
		t.Operator = "equal"
	default: // above, below; NerdGraph's newer operators keep their own names
		t.Operator = strings.ToLower(string(op))
	}
	switch occ {
	case ng.AlertsNrqlConditionThresholdOccurrencesAtLeastOnce:
		t.TimeFunction = "any"
	default:
		t.TimeFunction = strings.ToLower(string(occ))
	}
	return t
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func policyIDParam(id int64) string { return strconv.FormatInt(id, 10) }

// ListNrqlConditions answers GET /v2/alerts_nrql_conditions?policy_id= (a round trip per
// NerdGraph page; never cached, so a write is visible at once).
func (t *Translator) ListNrqlConditions(ctx context.Context, c Caller, policyID int64, page int) (*restv2.NrqlConditionList, Paging, error) {
	page = max(page, 1)
	pid := policyIDParam(policyID)
	crit := ng.AlertsNrqlConditionsSearchCriteriaInput{PolicyId: &pid}
	var all []restv2.NrqlCondition
	var cursor *string
	for {
		resp, err := ng.NrqlConditions(ctx, t.client, int(c.AccountID), crit, cursor)
		if err != nil {
			return nil, Paging{}, fmt.Errorf("nrql conditions: %w", err)
		}
		// actor, account and alerts are nullable in NerdGraph's schema: a null is no
		// conditions, never a nil dereference.
		a := resp.GetActor()
		if a == nil || a.Account == nil || a.Account.Alerts == nil || a.Account.Alerts.NrqlConditionsSearch == nil {
			break
		}
		s := a.Account.Alerts.NrqlConditionsSearch
		for _, f := range s.NrqlConditions {
			if f != nil && f.GetPolicyId() == pid {
				all = append(all, nrqlConditionOf(f))
			}
		}
		if cursor = s.NextCursor; cursor == nil {
			break
		}
	}
	items, paging := pageOf(all, page, PageSize)
	return &restv2.NrqlConditionList{Conditions: items}, paging, nil
}

// nrqlCondition reads one condition of the caller's account (nil when unknown).
func (t *Translator) nrqlCondition(ctx context.Context, c Caller, id int64) (ng.NrqlConditionFields, error) {
	resp, err := ng.NrqlCondition(ctx, t.client, int(c.AccountID), strconv.FormatInt(id, 10))
	if err != nil {
		if isNotFound(err) {
			return nil, ErrConditionNotFound()
		}
		return nil, fmt.Errorf("nrql condition %d: %w", id, err)
	}
	a := resp.GetActor()
	if a == nil || a.Account == nil || a.Account.Alerts == nil {
		return nil, ErrConditionNotFound()
	}
	f := a.Account.Alerts.GetNrqlCondition()
	if f == nil || *f == nil {
		return nil, ErrConditionNotFound()
	}
	return *f, nil
}

// wholeSeconds is a NerdGraph Seconds value as REST's whole seconds (nil when unset).
func wholeSeconds(v *float64) *int64 {
	if v == nil {
		return nil
	}
	n := int64(math.Round(*v))
	return &n
}
