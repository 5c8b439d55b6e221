package translate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// NrqlConditionInput is a REST {"nrql_condition":{...}} body. Pointer fields are nil
// when not sent; numbers REST sent as strings ("5", "0.9") arrive as text either way.
type NrqlConditionInput struct {
	Type                      *string
	Name                      *string
	Enabled                   *bool
	RunbookURL                *string
	ValueFunction             *string
	BaselineDirection         *string
	ViolationTimeLimitSeconds *string
	// Terms is nil when not sent (an update keeps the condition's terms).
	Terms      []TermInput
	Query      *string
	SinceValue *string
	Signal     *SignalInput
	Expiration *ExpirationInput
}

// TermInput is one REST term, every value as the text received.
type TermInput struct {
	Duration, Operator, Priority, Threshold, TimeFunction *string
}

// SignalInput is REST's signal block. Besides the window, the evaluation offset and
// the fill, REST's create body carries the streaming settings slide_by,
// aggregation_method, aggregation_delay and aggregation_timer (docs-website
// src/content/docs/alerts/scale-automate/rest-api/rest-api-calls-alerts.mdx,
// "Create NRQL conditions for policies"); each is sent as the NerdGraph signal field
// of the same name.
type SignalInput struct {
	AggregationWindow, SlideBy, AggregationMethod, AggregationDelay, AggregationTimer *string
	EvaluationOffset, FillOption, FillValue                                           *string
}

// ExpirationInput is REST's expiration block.
type ExpirationInput struct {
	ExpirationDuration          *string
	OpenViolationOnExpiration   *bool
	CloseViolationsOnExpiration *bool
}

const (
	condCreate = "create"
	condUpdate = "update"
)

// errConditionValidation is REST's 422 for a condition body, naming the field.
func errConditionValidation(op, msg string) *v2.Error {
	return &v2.Error{Status: 422, Title: "Validation error occurred while trying to " + op + " the alert condition", Messages: []string{msg}}
}

// ErrConditionNotFound is REST's 404 for an unknown condition id.
func ErrConditionNotFound() *v2.Error {
	return &v2.Error{Status: 404, Title: "No Alerts condition was found with the given ID"}
}

var (
	restOperators = map[string]ng.AlertsNrqlConditionTermsOperator{
		"above": ng.AlertsNrqlConditionTermsOperatorAbove, "below": ng.AlertsNrqlConditionTermsOperatorBelow,
		"equal": ng.AlertsNrqlConditionTermsOperatorEquals,
	}
	restTimeFunctions = map[string]ng.AlertsNrqlConditionThresholdOccurrences{
		"all": ng.AlertsNrqlConditionThresholdOccurrencesAll, "any": ng.AlertsNrqlConditionThresholdOccurrencesAtLeastOnce,
	}
	restDirections = map[string]ng.AlertsNrqlBaselineDirection{
		"upper_only": ng.AlertsNrqlBaselineDirectionUpperOnly, "lower_only": ng.AlertsNrqlBaselineDirectionLowerOnly,
		"upper_and_lower": ng.AlertsNrqlBaselineDirectionUpperAndLower,
	}
	restFillOptions = map[string]ng.AlertsFillOption{
		"none": ng.AlertsFillOptionNone, "last_value": ng.AlertsFillOptionLastValue, "static": ng.AlertsFillOptionStatic,
	}
	// restAggregationMethods are the aggregation methods by their lower-case names (the
	// docs write EVENT_FLOW; any case is read).
	restAggregationMethods = map[string]ng.AlertsSignalAggregationMethod{
		"event_flow": ng.AlertsSignalAggregationMethodEventFlow, "event_timer": ng.AlertsSignalAggregationMethodEventTimer,
		"cadence": ng.AlertsSignalAggregationMethodCadence,
	}
)

// term is a validated REST term in NerdGraph's units.
type term struct {
	seconds     float64
	operator    ng.AlertsNrqlConditionTermsOperator
	priority    ng.AlertsNrqlConditionPriority
	threshold   float64
	occurrences ng.AlertsNrqlConditionThresholdOccurrences
}

func lower(p *string) string {
	if p == nil {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(*p))
}

// signalSeconds reads an optional signal field of whole seconds, at least least (nil
// when not sent).
func signalSeconds(op, name string, p *string, least float64) (*float64, error) {
	if p == nil {
		return nil, nil
	}
	field := "nrql_condition.signal." + name
	v, err := parseNumber(op, field, p, false)
	if err == nil && (v < least || v != math.Trunc(v)) {
		err = errConditionValidation(op, fmt.Sprintf("%s must be a whole number of seconds of at least %g, got %q", field, least, strings.TrimSpace(*p)))
	}
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// wholeSeconds is a NerdGraph Seconds value as REST's whole seconds (nil when unset).
func wholeSeconds(v *float64) *int64 {
	if v == nil {
		return nil
	}
	n := int64(math.Round(*v))
	return &n
}

func parseNumber(op, field string, p *string, positiveInt bool) (float64, error) {
	s := strings.TrimSpace(deref(p))
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errConditionValidation(op, fmt.Sprintf("%s must be a number, got %q", field, s))
	}
	if positiveInt && (v <= 0 || v != math.Trunc(v)) {
		return 0, errConditionValidation(op, fmt.Sprintf("%s must be a positive whole number, got %q", field, s))
	}
	return v, nil
}

func parseTerms(op string, in []TermInput, baseline bool) ([]term, error) {
	if len(in) == 0 {
		return nil, errConditionValidation(op, "nrql_condition.terms needs at least one term")
	}
	seen := map[ng.AlertsNrqlConditionPriority]bool{}
	out := make([]term, 0, len(in))
	for i, t := range in {
		f := func(name string) string { return fmt.Sprintf("nrql_condition.terms[%d].%s", i, name) }
		if t.Duration == nil {
			return nil, errConditionValidation(op, f("duration")+" is required (minutes)")
		}
		minutes, err := parseNumber(op, f("duration"), t.Duration, true)
		if err != nil {
			return nil, err
		}
		if t.Threshold == nil {
			return nil, errConditionValidation(op, f("threshold")+" is required")
		}
		threshold, err := parseNumber(op, f("threshold"), t.Threshold, false)
		if err != nil {
			return nil, err
		}
		operator, ok := restOperators[lower(t.Operator)]
		if !ok {
			return nil, errConditionValidation(op, f("operator")+" must be above, below or equal")
		}
		if baseline && operator != ng.AlertsNrqlConditionTermsOperatorAbove {
			return nil, errConditionValidation(op, f("operator")+" of a baseline condition must be above")
		}
		priority := ng.AlertsNrqlConditionPriorityCritical // REST's default
		switch lower(t.Priority) {
		case "", "critical":
		case "warning":
			priority = ng.AlertsNrqlConditionPriorityWarning
		default:
			return nil, errConditionValidation(op, f("priority")+" must be critical or warning")
		}
		if seen[priority] {
			return nil, errConditionValidation(op, "nrql_condition.terms has more than one "+strings.ToLower(string(priority))+" term")
		}
		seen[priority] = true
		occ, ok := restTimeFunctions[lower(t.TimeFunction)]
		if !ok {
			return nil, errConditionValidation(op, f("time_function")+" must be all or any")
		}
		out = append(out, term{seconds: minutes * 60, operator: operator, priority: priority, threshold: threshold, occurrences: occ})
	}
	return out, nil
}

// conditionParts are the validated parts of a body shared by both condition types.
type conditionParts struct {
	terms      []term // nil: not sent
	offset     *int
	limit      *float64
	signal     *ng.AlertsNrqlConditionSignalInput
	expiration *ng.AlertsNrqlConditionExpirationInput
	direction  *ng.AlertsNrqlBaselineDirection
}

func (in *NrqlConditionInput) parts(op string, baseline bool) (conditionParts, error) {
	var p conditionParts
	if vf := lower(in.ValueFunction); vf != "" && vf != "single_value" {
		return p, errConditionValidation(op, "nrql_condition.value_function "+strconv.Quote(vf)+" is not supported: NerdGraph "+
			"evaluates each query result as a single value; aggregate in the NRQL query instead (for example SELECT sum(...))")
	}
	if in.Terms != nil {
		t, err := parseTerms(op, in.Terms, baseline)
		if err != nil {
			return p, err
		}
		p.terms = t
	}
	if in.SinceValue != nil {
		v, err := parseNumber(op, "nrql_condition.nrql.since_value", in.SinceValue, true)
		if err != nil {
			return p, err
		}
		n := int(v)
		p.offset = &n
	}
	if in.ViolationTimeLimitSeconds != nil {
		v, err := parseNumber(op, "nrql_condition.violation_time_limit_seconds", in.ViolationTimeLimitSeconds, true)
		if err != nil {
			return p, err
		}
		p.limit = &v
	}
	if s := in.Signal; s != nil {
		sig := &ng.AlertsNrqlConditionSignalInput{}
		if s.AggregationWindow != nil {
			v, err := parseNumber(op, "nrql_condition.signal.aggregation_window", s.AggregationWindow, true)
			if err != nil {
				return p, err
			}
			sig.AggregationWindow = &v
		}
		if s.AggregationMethod != nil {
			m, ok := restAggregationMethods[lower(s.AggregationMethod)]
			if !ok {
				return p, errConditionValidation(op, "nrql_condition.signal.aggregation_method must be event_flow, event_timer or cadence")
			}
			sig.AggregationMethod = &m
		}
		var err error
		if sig.SlideBy, err = signalSeconds(op, "slide_by", s.SlideBy, 1); err != nil {
			return p, err
		}
		if sig.AggregationDelay, err = signalSeconds(op, "aggregation_delay", s.AggregationDelay, 0); err != nil {
			return p, err
		}
		if sig.AggregationTimer, err = signalSeconds(op, "aggregation_timer", s.AggregationTimer, 1); err != nil {
			return p, err
		}
		if s.EvaluationOffset != nil {
			v, err := parseNumber(op, "nrql_condition.signal.evaluation_offset", s.EvaluationOffset, true)
			if err != nil {
				return p, err
			}
			n := int(v)
			sig.EvaluationOffset = &n
		}
		if s.FillOption != nil {
			fo, ok := restFillOptions[lower(s.FillOption)]
			if !ok {
				return p, errConditionValidation(op, "nrql_condition.signal.fill_option must be none, last_value or static")
			}
			sig.FillOption = &fo
		}
		if s.FillValue != nil {
			v, err := parseNumber(op, "nrql_condition.signal.fill_value", s.FillValue, false)
			if err != nil {
				return p, err
			}
			sig.FillValue = &v
		}
		p.signal = sig
	}
	if x := in.Expiration; x != nil {
		exp := &ng.AlertsNrqlConditionExpirationInput{OpenViolationOnExpiration: x.OpenViolationOnExpiration,
			CloseViolationsOnExpiration: x.CloseViolationsOnExpiration}
		if x.ExpirationDuration != nil {
			v, err := parseNumber(op, "nrql_condition.expiration.expiration_duration", x.ExpirationDuration, true)
			if err != nil {
				return p, err
			}
			exp.ExpirationDuration = &v
		}
		p.expiration = exp
	}
	if in.BaselineDirection != nil {
		if !baseline {
			return p, errConditionValidation(op, "nrql_condition.baseline_direction applies to baseline conditions only")
		}
		d, ok := restDirections[lower(in.BaselineDirection)]
		if !ok {
			return p, errConditionValidation(op, "nrql_condition.baseline_direction must be upper_only, lower_only or upper_and_lower")
		}
		p.direction = &d
	}
	return p, nil
}

func staticTerms(ts []term) []ng.AlertsNrqlConditionTermsInput {
	out := make([]ng.AlertsNrqlConditionTermsInput, len(ts))
	for i, t := range ts {
		out[i] = ng.AlertsNrqlConditionTermsInput{Operator: t.operator, Priority: t.priority, Threshold: t.threshold,
			ThresholdDuration: t.seconds, ThresholdOccurrences: t.occurrences}
	}
	return out
}

func dynamicTerms(ts []term) []ng.AlertsNrqlDynamicConditionTermsInput {
	out := make([]ng.AlertsNrqlDynamicConditionTermsInput, len(ts))
	for i, t := range ts {
		out[i] = ng.AlertsNrqlDynamicConditionTermsInput{Operator: ng.AlertsNrqlDynamicConditionTermsOperatorAbove,
			Priority: t.priority, Threshold: t.threshold, ThresholdDuration: t.seconds, ThresholdOccurrences: t.occurrences}
	}
	return out
}

// conditionType is the REST type of a body: static unless it says baseline.
func conditionType(op string, in *NrqlConditionInput) (ng.AlertsNrqlConditionType, error) {
	switch lower(in.Type) {
	case "", "static":
		return ng.AlertsNrqlConditionTypeStatic, nil
	case "baseline":
		return ng.AlertsNrqlConditionTypeBaseline, nil
	case "outlier":
		return "", errConditionValidation(op, "nrql_condition.type outlier is not supported: NerdGraph has no mutation for outlier conditions")
	}
	return "", errConditionValidation(op, "nrql_condition.type must be static or baseline")
}

// nrqlConditionOf renders NerdGraph's condition in REST's shape.
func nrqlConditionOf(f ng.NrqlConditionFields) v2.NrqlCondition {
	id, _ := strconv.ParseInt(f.GetId(), 10, 64)
	c := v2.NrqlCondition{ID: id, Type: strings.ToLower(string(f.GetType())), Name: f.GetName(), Enabled: f.GetEnabled(),
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
	sig := &v2.NrqlSignal{}
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
	if *sig != (v2.NrqlSignal{}) {
		c.Signal = sig
	}
	x := f.GetExpiration()
	exp := &v2.NrqlExpiration{OpenViolationOnExpiration: deref(x.OpenViolationOnExpiration),
		CloseViolationsOnExpiration: deref(x.CloseViolationsOnExpiration)}
	if x.ExpirationDuration != nil {
		exp.ExpirationDuration = formatNumber(*x.ExpirationDuration)
	}
	if *exp != (v2.NrqlExpiration{}) {
		c.Expiration = exp
	}
	return c
}

// restTerm is a NerdGraph term in REST's words and units (duration in minutes).
func restTerm(op ng.AlertsNrqlConditionTermsOperator, p ng.AlertsNrqlConditionPriority, threshold, seconds float64,
	occ ng.AlertsNrqlConditionThresholdOccurrences) v2.Term {
	t := v2.Term{Duration: formatNumber(seconds / 60), Priority: strings.ToLower(string(p)), Threshold: formatNumber(threshold)}
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
func (t *Translator) ListNrqlConditions(ctx context.Context, c Caller, policyID int64, page int) (*v2.NrqlConditionList, Paging, error) {
	page = max(page, 1)
	pid := policyIDParam(policyID)
	crit := ng.AlertsNrqlConditionsSearchCriteriaInput{PolicyId: &pid}
	var all []v2.NrqlCondition
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
	return &v2.NrqlConditionList{Conditions: items}, paging, nil
}

// CreateNrqlCondition answers POST /v2/alerts_nrql_conditions/policies/{policy_id}
// (never retried).
func (t *Translator) CreateNrqlCondition(ctx context.Context, c Caller, policyID int64, in NrqlConditionInput) (*v2.NrqlConditionShow, error) {
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
	p, err := in.parts(condCreate, baseline)
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
		return nil, ErrWriteOutcomeUnknown(502, "NRQL condition", checkConditions(policyID))
	}
	return &v2.NrqlConditionShow{Condition: nrqlConditionOf(f)}, nil
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

// UpdateNrqlCondition answers PUT /v2/alerts_nrql_conditions/{id}: the condition is
// read first (its type picks the mutation), then only the fields sent are changed.
func (t *Translator) UpdateNrqlCondition(ctx context.Context, c Caller, id int64, in NrqlConditionInput) (*v2.NrqlConditionShow, error) {
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
	p, err := in.parts(condUpdate, baseline)
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
		return nil, ErrWriteOutcomeUnknown(502, "NRQL condition update", checkConditions(policyID))
	}
	return &v2.NrqlConditionShow{Condition: nrqlConditionOf(f)}, nil
}

// DeleteNrqlCondition answers DELETE /v2/alerts_nrql_conditions/{id} with the deleted
// condition (read first, as REST answered it).
func (t *Translator) DeleteNrqlCondition(ctx context.Context, c Caller, id int64) (*v2.NrqlConditionShow, error) {
	cur, err := t.nrqlCondition(ctx, c, id)
	if err != nil {
		return nil, err
	}
	policyID, _ := strconv.ParseInt(cur.GetPolicyId(), 10, 64)
	if _, err := ng.ConditionDelete(ctx, t.client, int(c.AccountID), strconv.FormatInt(id, 10)); err != nil {
		return nil, conditionWriteError(err, "delete", policyID)
	}
	return &v2.NrqlConditionShow{Condition: nrqlConditionOf(cur)}, nil
}

// legacySources is, for every AlertsAsNrqlSourceProduct (the only field of an
// AlertsAsNrqlCondition that says where a condition came from: the real schema,
// /work/shared/nerdgraph/full/nerdgraph-2026-04-19.graphql, gives it no metric, entity
// list or REST type), the REST v2 `type` GET /v2/alerts_conditions reports, or "" for
// products whose conditions that route never listed. REST's types are apm_app_metric,
// apm_kt_metric, apm_jvm_metric, browser_metric, mobile_metric and servers_metric
// (https://docs.newrelic.com/docs/alerts/rest-api-alerts/new-relic-alerts-rest-api/alerts-conditions-api-field-names#type).
// APM covers three of them, and nothing NerdGraph returns tells them apart: no
// published asNrqlConditionsSearch answer shows how a key-transaction or JVM condition
// is rendered (tests/contracts/README.md), so the NRQL text is no evidence either. APM
// conditions are reported as apm_app_metric, the common case, and the route's fidelity
// note says so.
var legacySources = []struct {
	product  ng.AlertsAsNrqlSourceProduct
	restType string
	why      string
}{
	{ng.AlertsAsNrqlSourceProductApm, "apm_app_metric", "APM metric conditions; apm_kt_metric and apm_jvm_metric are indistinguishable"},
	{ng.AlertsAsNrqlSourceProductBrowser, "browser_metric", "browser metric conditions"},
	{ng.AlertsAsNrqlSourceProductMobile, "mobile_metric", "mobile metric conditions"},
	{ng.AlertsAsNrqlSourceProductServers, "servers_metric", "legacy Servers conditions"},
	{ng.AlertsAsNrqlSourceProductNrql, "", "REST listed NRQL conditions at /v2/alerts_nrql_conditions"},
	{ng.AlertsAsNrqlSourceProductInfrastructure, "", "REST v2 never had infrastructure conditions (Infrastructure alerts API)"},
	{ng.AlertsAsNrqlSourceProductSynthetics, "", "REST listed them at /v2/alerts_synthetics_conditions"},
}

// legacyType is REST's condition type of a source product ("" when the product's
// conditions are not REST v2 /alerts_conditions conditions).
func legacyType(p ng.AlertsAsNrqlSourceProduct) string {
	for _, s := range legacySources {
		if s.product == p {
			return s.restType
		}
	}
	return ""
}

// legacyProducts are the source products GET /v2/alerts_conditions lists.
func legacyProducts() []ng.AlertsAsNrqlSourceProduct {
	var out []ng.AlertsAsNrqlSourceProduct
	for _, s := range legacySources {
		if s.restType != "" {
			out = append(out, s.product)
		}
	}
	return out
}

// ListConditions answers GET /v2/alerts_conditions?policy_id= from the NRQL form of
// the policy's APM, browser, mobile and servers conditions (lossy; MAPPING.md §2.15).
func (t *Translator) ListConditions(ctx context.Context, c Caller, policyID int64, page int) (*v2.ConditionList, Paging, error) {
	page = max(page, 1)
	pid := policyIDParam(policyID)
	crit := ng.AlertsAsNrqlConditionsSearchCriteriaInput{PolicyId: &pid, SourceProduct: legacyProducts()}
	var all []v2.Condition
	var cursor *string
	for {
		resp, err := ng.AsNrqlConditions(ctx, t.client, int(c.AccountID), crit, cursor)
		if err != nil {
			return nil, Paging{}, fmt.Errorf("alert conditions: %w", err)
		}
		a := resp.GetActor()
		if a == nil || a.Account == nil || a.Account.Alerts == nil || a.Account.Alerts.AsNrqlConditionsSearch == nil {
			break
		}
		s := a.Account.Alerts.AsNrqlConditionsSearch
		for _, f := range s.NrqlConditions {
			if f == nil || f.GetPolicyId() != pid {
				continue
			}
			typ := legacyType(f.GetSourceProduct())
			if typ == "" {
				continue
			}
			id, _ := strconv.ParseInt(f.GetId(), 10, 64)
			cond := v2.Condition{ID: id, Type: typ, Name: f.GetName(), Enabled: f.GetEnabled(), RunbookURL: deref(f.GetRunbookUrl())}
			for _, tm := range f.GetTerms() {
				if tm != nil {
					cond.Terms = append(cond.Terms, restTerm(tm.GetOperator(), tm.GetPriority(), tm.GetThreshold(), tm.GetThresholdDuration(),
						tm.GetThresholdOccurrences()))
				}
			}
			if l := f.GetViolationTimeLimitSeconds(); l != nil && *l >= 3600 {
				cond.ViolationCloseTimer = int64(*l / 3600)
			}
			all = append(all, cond)
		}
		if cursor = s.NextCursor; cursor == nil {
			break
		}
	}
	items, paging := pageOf(all, page, PageSize)
	return &v2.ConditionList{Conditions: items}, paging, nil
}

// ListSyntheticsConditions answers GET /v2/alerts_synthetics_conditions?policy_id= from
// the NRQL form of the policy's synthetics conditions (asNrqlConditionsSearch with
// sourceProduct SYNTHETICS, the only NerdGraph path to them): id, name, runbook_url
// and enabled; monitor_id has no field there and is omitted.
func (t *Translator) ListSyntheticsConditions(ctx context.Context, c Caller, policyID int64, page int) (*v2.SyntheticsConditionList, Paging, error) {
	page = max(page, 1)
	pid := policyIDParam(policyID)
	crit := ng.AlertsAsNrqlConditionsSearchCriteriaInput{PolicyId: &pid,
		SourceProduct: []ng.AlertsAsNrqlSourceProduct{ng.AlertsAsNrqlSourceProductSynthetics}}
	all := []v2.SyntheticsCondition{}
	var cursor *string
	for {
		resp, err := ng.AsNrqlConditions(ctx, t.client, int(c.AccountID), crit, cursor)
		if err != nil {
			return nil, Paging{}, fmt.Errorf("synthetics conditions: %w", err)
		}
		a := resp.GetActor()
		if a == nil || a.Account == nil || a.Account.Alerts == nil || a.Account.Alerts.AsNrqlConditionsSearch == nil {
			break
		}
		s := a.Account.Alerts.AsNrqlConditionsSearch
		for _, f := range s.NrqlConditions {
			if f == nil || f.GetPolicyId() != pid || f.GetSourceProduct() != ng.AlertsAsNrqlSourceProductSynthetics {
				continue
			}
			id, _ := strconv.ParseInt(f.GetId(), 10, 64)
			all = append(all, v2.SyntheticsCondition{ID: id, Name: f.GetName(), Enabled: f.GetEnabled(), RunbookURL: deref(f.GetRunbookUrl())})
		}
		if cursor = s.NextCursor; cursor == nil {
			break
		}
	}
	items, paging := pageOf(all, page, PageSize)
	return &v2.SyntheticsConditionList{Conditions: items}, paging, nil
}
