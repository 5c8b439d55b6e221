package sim

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/sim/model"
)

// The NRQL alert condition mutations: static and baseline create and update,
// alertsConditionDelete, and the policy delete's cascade (conditions.go holds the
// reads and the validation).

// conditionInput is what a create or update input sets, whatever its GraphQL type: nil
// fields are left alone.
type conditionInput struct {
	name, description, runbookURL, titleTemplate, targetEntity *string
	enabled                                                    *bool
	query                                                      *string
	dataAccountID, evaluationOffset                            *int
	signal                                                     *model.AlertsNrqlConditionSignalInput
	expiration                                                 *model.AlertsNrqlConditionExpirationInput
	violationTimeLimit                                         *model.AlertsViolationTimeLimit
	violationTimeLimitSeconds                                  *float64
	terms                                                      []NrqlTerm // nil: unchanged
	baselineDirection, signalSeasonality                       *string
}

// violationTimeLimits are the seconds of the deprecated violationTimeLimit values.
func violationTimeLimits() map[model.AlertsViolationTimeLimit]float64 {
	return map[model.AlertsViolationTimeLimit]float64{
		model.AlertsViolationTimeLimitOneHour: 3600, model.AlertsViolationTimeLimitTwoHours: 7200,
		model.AlertsViolationTimeLimitFourHours: 14400, model.AlertsViolationTimeLimitEightHours: 28800,
		model.AlertsViolationTimeLimitTwelveHours: 43200, model.AlertsViolationTimeLimitTwentyFourHours: 86400,
		model.AlertsViolationTimeLimitThirtyDays: 2592000,
	}
}

// apply writes the input into c; the result is checked by conditionProblems.
func (in conditionInput) apply(c *NrqlCondition) error {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&c.Name, in.name)
	set(&c.Description, in.description)
	set(&c.RunbookURL, in.runbookURL)
	set(&c.TitleTemplate, in.titleTemplate)
	set(&c.TargetEntity, in.targetEntity)
	set(&c.Nrql.Query, in.query)
	set(&c.BaselineDirection, in.baselineDirection)
	set(&c.SignalSeasonality, in.signalSeasonality)
	if in.enabled != nil {
		c.Enabled = *in.enabled
	}
	if in.dataAccountID != nil {
		c.Nrql.DataAccountID = *in.dataAccountID
	}
	if in.evaluationOffset != nil {
		c.Nrql.EvaluationOffset = *in.evaluationOffset
	}
	switch {
	case in.violationTimeLimit != nil && in.violationTimeLimitSeconds != nil:
		return gqlError(classInvalidInput, "Validation error: give violationTimeLimitSeconds or the deprecated violationTimeLimit, not both")
	case in.violationTimeLimitSeconds != nil:
		c.ViolationTimeLimitSeconds = *in.violationTimeLimitSeconds
	case in.violationTimeLimit != nil:
		secs, ok := violationTimeLimits()[*in.violationTimeLimit]
		if !ok {
			return gqlError(classInvalidInput, "Validation error: violationTimeLimit %s is not a time limit", *in.violationTimeLimit)
		}
		c.ViolationTimeLimitSeconds = secs
	}
	if in.terms != nil {
		c.Terms = in.terms
	}
	if s := in.signal; s != nil {
		sig := &c.Signal
		if s.AggregationMethod != nil {
			sig.AggregationMethod = string(*s.AggregationMethod)
			// A method change drops the setting only the other methods have.
			if *s.AggregationMethod == model.AlertsSignalAggregationMethodEventTimer {
				sig.AggregationDelay = nil
			} else {
				sig.AggregationTimer = nil
			}
		}
		for _, f := range []struct {
			dst **float64
			src *float64
		}{
			{&sig.AggregationWindow, s.AggregationWindow}, {&sig.AggregationDelay, s.AggregationDelay},
			{&sig.AggregationTimer, s.AggregationTimer}, {&sig.EvaluationDelay, s.EvaluationDelay},
			{&sig.PollingFrequency, s.PollingFrequency}, {&sig.SlideBy, s.SlideBy}, {&sig.FillValue, s.FillValue},
		} {
			if f.src != nil {
				*f.dst = ptr(*f.src)
			}
		}
		if s.FillOption != nil {
			sig.FillOption = string(*s.FillOption)
			if *s.FillOption != model.AlertsFillOptionStatic && s.FillValue == nil {
				sig.FillValue = nil
			}
		}
		if s.EvaluationOffset != nil {
			c.Nrql.EvaluationOffset = *s.EvaluationOffset
		}
	}
	if err := applyEvaluationOffset(c, in); err != nil {
		return err
	}
	if e := in.expiration; e != nil {
		if e.ExpirationDuration != nil {
			c.Expiration.ExpirationDuration = ptr(*e.ExpirationDuration)
		}
		for _, f := range []struct {
			dst *bool
			src *bool
		}{
			{&c.Expiration.OpenViolationOnExpiration, e.OpenViolationOnExpiration},
			{&c.Expiration.CloseViolationsOnExpiration, e.CloseViolationsOnExpiration},
			{&c.Expiration.IgnoreOnExpectedTermination, e.IgnoreOnExpectedTermination},
		} {
			if f.src != nil {
				*f.dst = *f.src
			}
		}
	}
	return nil
}

func fromStaticTerms(in []*model.AlertsNrqlConditionTermsInput) []NrqlTerm {
	if in == nil {
		return nil
	}
	out := []NrqlTerm{}
	for _, t := range in {
		if t == nil {
			continue
		}
		nt := NrqlTerm{Priority: string(t.Priority), Operator: string(t.Operator), Threshold: t.Threshold,
			ThresholdDuration: t.ThresholdDuration, ThresholdOccurrences: string(t.ThresholdOccurrences),
			DisableHealthStatusReporting: t.DisableHealthStatusReporting != nil && *t.DisableHealthStatusReporting}
		if p := t.Prediction; p != nil {
			nt.Prediction = &NrqlPrediction{PredictBy: defaultPredictBy}
			if p.PredictBy != nil {
				nt.Prediction.PredictBy = *p.PredictBy
			}
			nt.Prediction.PreferPredictionViolation = p.PreferPredictionViolation != nil && *p.PreferPredictionViolation
		}
		out = append(out, nt)
	}
	return out
}

func fromDynamicTerms(in []*model.AlertsNrqlDynamicConditionTermsInput) []NrqlTerm {
	if in == nil {
		return nil
	}
	out := []NrqlTerm{}
	for _, t := range in {
		if t == nil {
			continue
		}
		out = append(out, NrqlTerm{Priority: string(t.Priority), Operator: string(t.Operator), Threshold: t.Threshold,
			ThresholdDuration: t.ThresholdDuration, ThresholdOccurrences: string(t.ThresholdOccurrences),
			DisableHealthStatusReporting: t.DisableHealthStatusReporting != nil && *t.DisableHealthStatusReporting})
	}
	return out
}

func enumString[T ~string](v *T) *string {
	if v == nil {
		return nil
	}
	return ptr(string(*v))
}

// checkCondition rejects a condition NerdGraph would not store, and a data account the
// key may not read.
func checkCondition(ctx context.Context, c NrqlCondition) error {
	if problems := conditionProblems(c); len(problems) > 0 {
		return gqlError(classInvalidInput, "Validation error: %s", strings.Join(problems, "; "))
	}
	if d := c.Nrql.DataAccountID; d != 0 && !requestFrom(ctx).caller.reach[d] {
		return gqlError(classForbidden, "Access denied to account %d (nrql.dataAccountId)", d)
	}
	return nil
}

// nextConditionID is a new condition id: above every id in d and every id handed out
// before (callers hold wmu, inside mutate).
func (s *Server) nextConditionID(d *Data) int {
	id := s.lastConditionID
	for _, a := range d.Accounts {
		for _, c := range a.NrqlConditions {
			id = max(id, c.ID)
		}
		for _, c := range a.LegacyConditions {
			id = max(id, c.ID)
		}
	}
	s.lastConditionID = id + 1
	return id + 1
}

// createCondition adds c to a policy of the account and returns what was stored.
func (r mutationResolver) createCondition(ctx context.Context, accountID int, policyID string, c NrqlCondition, in conditionInput) (NrqlCondition, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return NrqlCondition{}, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	if err := in.apply(&c); err != nil {
		return NrqlCondition{}, err
	}
	if err := checkCondition(ctx, c); err != nil {
		return NrqlCondition{}, err
	}
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		if a == nil {
			return gqlError(classForbidden, "Access denied to account %d", accountID)
		}
		found := false
		for _, p := range a.AlertPolicies {
			if strconv.Itoa(p.ID) == policyID {
				c.PolicyID, found = p.ID, true
			}
		}
		if !found {
			return gqlError(classNotFound, "Not Found: no policy with id %s in account %d", policyID, accountID)
		}
		c.ID = r.s.nextConditionID(d)
		c.CreatedAt = r.s.now().UTC().Truncate(time.Millisecond)
		c.UpdatedAt = c.CreatedAt
		a.NrqlConditions = append(a.NrqlConditions, c)
		return nil
	})
	return c, err
}

// updateCondition changes the given fields of an NRQL condition of type typ (the other
// type's mutation is refused) and returns what was stored.
func (r mutationResolver) updateCondition(ctx context.Context, accountID int, id, typ string, in conditionInput) (NrqlCondition, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return NrqlCondition{}, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	var out NrqlCondition
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		if a == nil {
			return gqlError(classForbidden, "Access denied to account %d", accountID)
		}
		for i := range a.NrqlConditions {
			c := a.NrqlConditions[i]
			if strconv.Itoa(c.ID) != id {
				continue
			}
			if c.Type != typ {
				return gqlError(classInvalidInput, "Validation error: condition %s is a %s condition and cannot be updated as a %s condition",
					id, strings.ToLower(c.Type), strings.ToLower(typ))
			}
			if err := in.apply(&c); err != nil {
				return err
			}
			if err := checkCondition(ctx, c); err != nil {
				return err
			}
			c.UpdatedAt = r.s.now().UTC().Truncate(time.Millisecond)
			a.NrqlConditions[i] = c
			out = c
			return nil
		}
		return conditionNotFound(id)
	})
	return out, err
}

func staticInput(in model.AlertsNrqlConditionStaticInput) conditionInput {
	ci := conditionInput{name: &in.Name, enabled: &in.Enabled, description: in.Description, runbookURL: in.RunbookURL,
		titleTemplate: in.TitleTemplate, targetEntity: in.TargetEntity, signal: in.Signal, expiration: in.Expiration,
		violationTimeLimit: in.ViolationTimeLimit, violationTimeLimitSeconds: in.ViolationTimeLimitSeconds,
		terms: fromStaticTerms(in.Terms)}
	if q := in.Nrql; q != nil {
		ci.query, ci.dataAccountID, ci.evaluationOffset = &q.Query, q.DataAccountID, q.EvaluationOffset
	}
	return ci
}

func baselineInput(in model.AlertsNrqlConditionBaselineInput) conditionInput {
	ci := conditionInput{name: &in.Name, enabled: &in.Enabled, description: in.Description, runbookURL: in.RunbookURL,
		titleTemplate: in.TitleTemplate, targetEntity: in.TargetEntity, signal: in.Signal, expiration: in.Expiration,
		violationTimeLimit: in.ViolationTimeLimit, violationTimeLimitSeconds: in.ViolationTimeLimitSeconds,
		terms: fromDynamicTerms(in.Terms), baselineDirection: enumString(&in.BaselineDirection),
		signalSeasonality: enumString(in.SignalSeasonality)}
	if q := in.Nrql; q != nil {
		ci.query, ci.dataAccountID, ci.evaluationOffset = &q.Query, q.DataAccountID, q.EvaluationOffset
	}
	return ci
}

// AlertsNrqlConditionStaticCreate adds a static NRQL condition to a policy. The policy
// must be the account's (else NOT_FOUND); name, nrql.query and at least one term are
// required, with at most one CRITICAL and one WARNING term (else INVALID_INPUT).
func (r mutationResolver) AlertsNrqlConditionStaticCreate(ctx context.Context, accountID int, in model.AlertsNrqlConditionStaticInput, policyID string) (*model.AlertsNrqlStaticCondition, error) {
	c, err := r.createCondition(ctx, accountID, policyID, NrqlCondition{Type: condStatic}, staticInput(in))
	if err != nil {
		return nil, err
	}
	return staticModel(accountID, c), nil
}

// AlertsNrqlConditionBaselineCreate adds a baseline NRQL condition to a policy (rules
// as for static conditions; terms use the ABOVE operator only).
func (r mutationResolver) AlertsNrqlConditionBaselineCreate(ctx context.Context, accountID int, in model.AlertsNrqlConditionBaselineInput, policyID string) (*model.AlertsNrqlBaselineCondition, error) {
	c, err := r.createCondition(ctx, accountID, policyID, NrqlCondition{Type: condBaseline}, baselineInput(in))
	if err != nil {
		return nil, err
	}
	return baselineModel(accountID, c), nil
}

// AlertsNrqlConditionStaticUpdate changes the given fields of a static condition; terms,
// when given, replace all terms. A baseline condition is refused (INVALID_INPUT), an
// unknown id is NOT_FOUND.
func (r mutationResolver) AlertsNrqlConditionStaticUpdate(ctx context.Context, accountID int, in model.AlertsNrqlConditionUpdateStaticInput, id string) (*model.AlertsNrqlStaticCondition, error) {
	ci := conditionInput{name: in.Name, enabled: in.Enabled, description: in.Description, runbookURL: in.RunbookURL,
		titleTemplate: in.TitleTemplate, targetEntity: in.TargetEntity, signal: in.Signal, expiration: in.Expiration,
		violationTimeLimit: in.ViolationTimeLimit, violationTimeLimitSeconds: in.ViolationTimeLimitSeconds,
		terms: fromStaticTerms(in.Terms)}
	if q := in.Nrql; q != nil {
		ci.query, ci.dataAccountID, ci.evaluationOffset = q.Query, q.DataAccountID, q.EvaluationOffset
	}
	c, err := r.updateCondition(ctx, accountID, id, condStatic, ci)
	if err != nil {
		return nil, err
	}
	return staticModel(accountID, c), nil
}

// AlertsNrqlConditionBaselineUpdate changes the given fields of a baseline condition; a
// static condition is refused (INVALID_INPUT), an unknown id is NOT_FOUND.
func (r mutationResolver) AlertsNrqlConditionBaselineUpdate(ctx context.Context, accountID int, in model.AlertsNrqlConditionUpdateBaselineInput, id string) (*model.AlertsNrqlBaselineCondition, error) {
	ci := conditionInput{name: in.Name, enabled: in.Enabled, description: in.Description, runbookURL: in.RunbookURL,
		titleTemplate: in.TitleTemplate, targetEntity: in.TargetEntity, signal: in.Signal, expiration: in.Expiration,
		violationTimeLimit: in.ViolationTimeLimit, violationTimeLimitSeconds: in.ViolationTimeLimitSeconds,
		terms: fromDynamicTerms(in.Terms), baselineDirection: enumString(in.BaselineDirection),
		signalSeasonality: enumString(in.SignalSeasonality)}
	if q := in.Nrql; q != nil {
		ci.query, ci.dataAccountID, ci.evaluationOffset = q.Query, q.DataAccountID, q.EvaluationOffset
	}
	c, err := r.updateCondition(ctx, accountID, id, condBaseline, ci)
	if err != nil {
		return nil, err
	}
	return baselineModel(accountID, c), nil
}

// AlertsConditionDelete deletes a condition of any kind (NRQL or legacy) of the account
// and answers its id; an unknown id is NOT_FOUND.
func (r mutationResolver) AlertsConditionDelete(ctx context.Context, accountID int, id string) (*model.AlertsConditionDeleteResponse, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		if a == nil {
			return gqlError(classForbidden, "Access denied to account %d", accountID)
		}
		for i, c := range a.NrqlConditions {
			if strconv.Itoa(c.ID) == id {
				a.NrqlConditions = slices.Delete(a.NrqlConditions, i, i+1)
				return nil
			}
		}
		for i, c := range a.LegacyConditions {
			if strconv.Itoa(c.ID) == id {
				a.LegacyConditions = slices.Delete(a.LegacyConditions, i, i+1)
				return nil
			}
		}
		return gqlError(classNotFound, "Not Found: no condition with id %s in the account", id)
	})
	if err != nil {
		return nil, err
	}
	return &model.AlertsConditionDeleteResponse{ID: id}, nil
}

// dropPolicyConditions removes the conditions of a deleted policy.
func dropPolicyConditions(a *Account, policyID int) {
	a.NrqlConditions = slices.DeleteFunc(a.NrqlConditions, func(c NrqlCondition) bool { return c.PolicyID == policyID })
	a.LegacyConditions = slices.DeleteFunc(a.LegacyConditions, func(c LegacyCondition) bool { return c.PolicyID == policyID })
}

// applyEvaluationOffset converts the deprecated evaluationOffset (in nrql or signal): a
// count of aggregation windows (1–20) that NerdGraph turns into the CADENCE method
// with that many windows of aggregation delay; it cannot be combined with the
// aggregation settings that replaced it.
func applyEvaluationOffset(c *NrqlCondition, in conditionInput) error {
	off := in.evaluationOffset
	if s := in.signal; s != nil && s.EvaluationOffset != nil {
		off = s.EvaluationOffset
	}
	if off == nil {
		return nil
	}
	if *off < 1 || *off > 20 {
		return gqlError(classInvalidInput, "Validation error: evaluationOffset must be between 1 and 20 windows")
	}
	if s := in.signal; s != nil && (s.AggregationMethod != nil || s.AggregationDelay != nil || s.AggregationTimer != nil) {
		return gqlError(classInvalidInput, "Validation error: evaluationOffset cannot be combined with aggregationMethod, aggregationDelay or aggregationTimer")
	}
	window := float64(defaultAggregationWindow)
	if c.Signal.AggregationWindow != nil {
		window = *c.Signal.AggregationWindow
	}
	c.Signal.AggregationMethod = string(model.AlertsSignalAggregationMethodCadence)
	c.Signal.AggregationDelay = ptr(float64(*off) * window)
	c.Signal.AggregationTimer = nil
	return nil
}
