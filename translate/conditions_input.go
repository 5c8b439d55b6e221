package translate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

const (
	condCreate = "create"
	condUpdate = "update"
)

// errConditionValidation is REST's 422 for a condition body, naming the field.
func errConditionValidation(op, msg string) *restv2.Error {
	return restv2.Unprocessable("Validation error occurred while trying to "+op+" the alert condition", msg)
}

var (
	// restOperators are the operators REST's field glossary lists for NRQL conditions
	// (newrelic/docs-website src/content/docs/alerts/scale-automate/rest-api/
	// alerts-conditions-api-field-names.mdx, terms[operator]: above, above_or_equals,
	// below, below_or_equals, equal, not_equals) and NerdGraph's spelling `equals`
	// (AlertsNrqlConditionTermsOperator): every operator a read shows is written back.
	restOperators = map[string]ng.AlertsNrqlConditionTermsOperator{
		"above":           ng.AlertsNrqlConditionTermsOperatorAbove,
		"above_or_equals": ng.AlertsNrqlConditionTermsOperatorAboveOrEquals,
		"below":           ng.AlertsNrqlConditionTermsOperatorBelow,
		"below_or_equals": ng.AlertsNrqlConditionTermsOperatorBelowOrEquals,
		"equal":           ng.AlertsNrqlConditionTermsOperatorEquals,
		"equals":          ng.AlertsNrqlConditionTermsOperatorEquals,
		"not_equals":      ng.AlertsNrqlConditionTermsOperatorNotEquals,
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

func parseTerms(op string, in []restv2.TermInput, baseline bool) ([]term, error) {
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
			return nil, errConditionValidation(op, f("operator")+" must be above, above_or_equals, below, below_or_equals, equal or not_equals")
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

func inputParts(in *restv2.NrqlConditionInput, op string, baseline bool) (conditionParts, error) {
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
func conditionType(op string, in *restv2.NrqlConditionInput) (ng.AlertsNrqlConditionType, error) {
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
