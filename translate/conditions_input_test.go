package translate

import (
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// parseNumber refuses 0, negatives and fractions where a whole positive number is asked,
// and takes any number elsewhere.
func TestConditionNumberBoundaries(t *testing.T) {
	tests := []struct {
		give        string
		positiveInt bool
		want        float64
		wantErr     bool
	}{
		{"1", true, 1, false},
		{" 3600 ", true, 3600, false},
		{"60.0", true, 60, false},
		{"0", true, 0, true},  // a zero timer
		{"-1", true, 0, true}, // negative timers
		{"1.5", true, 0, true},
		{"0.5", true, 0, true},
		{"NaN", true, 0, true},
		{"+Inf", false, 0, true},
		{"", false, 0, true},
		{"-1.5", false, -1.5, false}, // fill_value: any number
		{"0", false, 0, false},
	}
	for _, tt := range tests {
		s := tt.give
		got, err := parseNumber("update", "x", &s, tt.positiveInt)
		if (err != nil) != tt.wantErr || (err == nil && got != tt.want) {
			t.Errorf("parseNumber(%q, positiveInt=%v) = %v, %v; want %v, error %v", tt.give, tt.positiveInt, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestConditionTimers: the timers of a NRQL condition body reach NerdGraph as given
// (violation_time_limit_seconds, aggregation_window, evaluation_offset,
// expiration_duration, since_value) and a zero or fractional one is refused.
func TestConditionTimers(t *testing.T) {
	in := restv2.NrqlConditionInput{
		SinceValue:                sp("3"),
		ViolationTimeLimitSeconds: sp("86400"),
		Signal:                    &restv2.SignalInput{AggregationWindow: sp("60"), EvaluationOffset: sp("2"), FillValue: sp("-1")},
		Expiration:                &restv2.ExpirationInput{ExpirationDuration: sp("600")},
	}
	p, err := inputParts(&in, "update", false)
	if err != nil {
		t.Fatal(err)
	}
	if p.offset == nil || *p.offset != 3 || p.limit == nil || *p.limit != 86400 ||
		p.signal == nil || p.signal.AggregationWindow == nil || *p.signal.AggregationWindow != 60 ||
		p.signal.EvaluationOffset == nil || *p.signal.EvaluationOffset != 2 ||
		p.signal.FillValue == nil || *p.signal.FillValue != -1 ||
		p.expiration == nil || p.expiration.ExpirationDuration == nil || *p.expiration.ExpirationDuration != 600 {
		t.Fatalf("parts = %+v", p)
	}
	for name, bad := range map[string]restv2.NrqlConditionInput{
		"zero time limit":       {ViolationTimeLimitSeconds: sp("0")},
		"fractional time limit": {ViolationTimeLimitSeconds: sp("3600.5")},
		"zero window":           {Signal: &restv2.SignalInput{AggregationWindow: sp("0")}},
		"negative offset":       {Signal: &restv2.SignalInput{EvaluationOffset: sp("-2")}},
		"zero expiration":       {Expiration: &restv2.ExpirationInput{ExpirationDuration: sp("0")}},
		"zero since_value":      {SinceValue: sp("0")},
		"infinite fill value":   {Signal: &restv2.SignalInput{FillValue: sp("Inf")}},
	} {
		if _, err := inputParts(&bad, "update", false); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func sp(s string) *string { return &s }

func TestParseTerms(t *testing.T) {
	good := restv2.TermInput{Duration: sp("5"), Operator: sp("above"), Priority: sp("critical"), Threshold: sp("0.9"), TimeFunction: sp("all")}
	with := func(f func(*restv2.TermInput)) []restv2.TermInput { t := good; f(&t); return []restv2.TermInput{t} }
	tests := []struct {
		name     string
		in       []restv2.TermInput
		baseline bool
		want     term
		wantErr  string
	}{
		{name: "REST strings", in: []restv2.TermInput{good}, want: term{seconds: 300, operator: ng.AlertsNrqlConditionTermsOperatorAbove,
			priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9, occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "leading-dot threshold, equal, any, default priority", in: with(func(t *restv2.TermInput) {
			t.Threshold, t.Operator, t.TimeFunction, t.Priority = sp(".5"), sp("EQUAL"), sp("any"), nil
		}), want: term{seconds: 300, operator: ng.AlertsNrqlConditionTermsOperatorEquals, priority: ng.AlertsNrqlConditionPriorityCritical,
			threshold: 0.5, occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAtLeastOnce}},
		{name: "operator above", in: with(func(t *restv2.TermInput) { t.Operator = sp("above") }), want: term{seconds: 300,
			operator: ng.AlertsNrqlConditionTermsOperatorAbove, priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9,
			occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "operator above_or_equals", in: with(func(t *restv2.TermInput) { t.Operator = sp("above_or_equals") }), want: term{seconds: 300,
			operator: ng.AlertsNrqlConditionTermsOperatorAboveOrEquals, priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9,
			occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "operator below", in: with(func(t *restv2.TermInput) { t.Operator = sp("below") }), want: term{seconds: 300,
			operator: ng.AlertsNrqlConditionTermsOperatorBelow, priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9,
			occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "operator below_or_equals", in: with(func(t *restv2.TermInput) { t.Operator = sp("below_or_equals") }), want: term{seconds: 300,
			operator: ng.AlertsNrqlConditionTermsOperatorBelowOrEquals, priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9,
			occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "operator equal", in: with(func(t *restv2.TermInput) { t.Operator = sp("equal") }), want: term{seconds: 300,
			operator: ng.AlertsNrqlConditionTermsOperatorEquals, priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9,
			occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "operator equals", in: with(func(t *restv2.TermInput) { t.Operator = sp("equals") }), want: term{seconds: 300,
			operator: ng.AlertsNrqlConditionTermsOperatorEquals, priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9,
			occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "operator not_equals", in: with(func(t *restv2.TermInput) { t.Operator = sp("not_equals") }), want: term{seconds: 300,
			operator: ng.AlertsNrqlConditionTermsOperatorNotEquals, priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9,
			occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "no terms", in: []restv2.TermInput{}, wantErr: "at least one term"},
		{name: "missing duration", in: with(func(t *restv2.TermInput) { t.Duration = nil }), wantErr: "terms[0].duration is required"},
		{name: "fractional duration", in: with(func(t *restv2.TermInput) { t.Duration = sp("2.5") }), wantErr: "positive whole number"},
		{name: "zero duration", in: with(func(t *restv2.TermInput) { t.Duration = sp("0") }), wantErr: "positive whole number"},
		{name: "threshold not a number", in: with(func(t *restv2.TermInput) { t.Threshold = sp("high") }), wantErr: "threshold must be a number"},
		{name: "NaN threshold", in: with(func(t *restv2.TermInput) { t.Threshold = sp("NaN") }), wantErr: "threshold must be a number"},
		{name: "bad operator", in: with(func(t *restv2.TermInput) { t.Operator = sp(">") }), wantErr: "above, above_or_equals, below, below_or_equals, equal or not_equals"},
		{name: "bad priority", in: with(func(t *restv2.TermInput) { t.Priority = sp("info") }), wantErr: "critical or warning"},
		{name: "bad time function", in: with(func(t *restv2.TermInput) { t.TimeFunction = sp("sometimes") }), wantErr: "all or any"},
		{name: "two critical terms", in: []restv2.TermInput{good, good}, wantErr: "more than one critical"},
		{name: "baseline below", in: with(func(t *restv2.TermInput) { t.Operator = sp("below") }), baseline: true, wantErr: "must be above"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseTerms("create", tt.in, tt.baseline)
			if tt.wantErr != "" {
				e, ok := err.(*restv2.Error)
				if !ok || e.Status != 422 || len(e.Messages) == 0 || !strings.Contains(e.Messages[0], tt.wantErr) {
					t.Fatalf("err %v, want 422 containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || len(got) != 1 || got[0] != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestConditionParts(t *testing.T) {
	tests := []struct {
		name     string
		in       restv2.NrqlConditionInput
		baseline bool
		wantErr  string
	}{
		{name: "single_value is NerdGraph's only evaluation", in: restv2.NrqlConditionInput{ValueFunction: sp("single_value")}},
		{name: "sum names the replacement", in: restv2.NrqlConditionInput{ValueFunction: sp("sum")}, wantErr: "aggregate in the NRQL query"},
		{name: "since_value must be whole minutes", in: restv2.NrqlConditionInput{SinceValue: sp("x")}, wantErr: "since_value must be"},
		{name: "bad fill option", in: restv2.NrqlConditionInput{Signal: &restv2.SignalInput{FillOption: sp("zero")}}, wantErr: "fill_option"},
		{name: "direction on a static condition", in: restv2.NrqlConditionInput{BaselineDirection: sp("upper_only")}, wantErr: "baseline conditions only"},
		{name: "bad direction", in: restv2.NrqlConditionInput{BaselineDirection: sp("sideways")}, baseline: true, wantErr: "upper_only"},
		{name: "good signal and expiration", in: restv2.NrqlConditionInput{Signal: &restv2.SignalInput{AggregationWindow: sp("60"), FillOption: sp("static"),
			FillValue: sp("0")}, Expiration: &restv2.ExpirationInput{ExpirationDuration: sp("600")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := inputParts(&tt.in, "update", tt.baseline)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e, ok := err.(*restv2.Error)
			if !ok || e.Status != 422 || !strings.Contains(e.Messages[0], tt.wantErr) || !strings.Contains(e.Title, "update the alert condition") {
				t.Fatalf("err %v, want 422 containing %q", err, tt.wantErr)
			}
		})
	}
}
