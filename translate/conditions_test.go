package translate

import (
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

func sp(s string) *string { return &s }

func TestParseTerms(t *testing.T) {
	good := TermInput{Duration: sp("5"), Operator: sp("above"), Priority: sp("critical"), Threshold: sp("0.9"), TimeFunction: sp("all")}
	with := func(f func(*TermInput)) []TermInput { t := good; f(&t); return []TermInput{t} }
	tests := []struct {
		name     string
		in       []TermInput
		baseline bool
		want     term
		wantErr  string
	}{
		{name: "REST strings", in: []TermInput{good}, want: term{seconds: 300, operator: ng.AlertsNrqlConditionTermsOperatorAbove,
			priority: ng.AlertsNrqlConditionPriorityCritical, threshold: 0.9, occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAll}},
		{name: "leading-dot threshold, equal, any, default priority", in: with(func(t *TermInput) {
			t.Threshold, t.Operator, t.TimeFunction, t.Priority = sp(".5"), sp("EQUAL"), sp("any"), nil
		}), want: term{seconds: 300, operator: ng.AlertsNrqlConditionTermsOperatorEquals, priority: ng.AlertsNrqlConditionPriorityCritical,
			threshold: 0.5, occurrences: ng.AlertsNrqlConditionThresholdOccurrencesAtLeastOnce}},
		{name: "no terms", in: []TermInput{}, wantErr: "at least one term"},
		{name: "missing duration", in: with(func(t *TermInput) { t.Duration = nil }), wantErr: "terms[0].duration is required"},
		{name: "fractional duration", in: with(func(t *TermInput) { t.Duration = sp("2.5") }), wantErr: "positive whole number"},
		{name: "zero duration", in: with(func(t *TermInput) { t.Duration = sp("0") }), wantErr: "positive whole number"},
		{name: "threshold not a number", in: with(func(t *TermInput) { t.Threshold = sp("high") }), wantErr: "threshold must be a number"},
		{name: "NaN threshold", in: with(func(t *TermInput) { t.Threshold = sp("NaN") }), wantErr: "threshold must be a number"},
		{name: "bad operator", in: with(func(t *TermInput) { t.Operator = sp(">") }), wantErr: "above, below or equal"},
		{name: "bad priority", in: with(func(t *TermInput) { t.Priority = sp("info") }), wantErr: "critical or warning"},
		{name: "bad time function", in: with(func(t *TermInput) { t.TimeFunction = sp("sometimes") }), wantErr: "all or any"},
		{name: "two critical terms", in: []TermInput{good, good}, wantErr: "more than one critical"},
		{name: "baseline below", in: with(func(t *TermInput) { t.Operator = sp("below") }), baseline: true, wantErr: "must be above"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseTerms("create", tt.in, tt.baseline)
			if tt.wantErr != "" {
				e, ok := err.(*v2.Error)
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

func TestRestTerm(t *testing.T) {
	tests := []struct {
		op   ng.AlertsNrqlConditionTermsOperator
		occ  ng.AlertsNrqlConditionThresholdOccurrences
		secs float64
		thr  float64
		want v2.Term
	}{
		{ng.AlertsNrqlConditionTermsOperatorAbove, ng.AlertsNrqlConditionThresholdOccurrencesAll, 300, 1,
			v2.Term{Duration: "5", Operator: "above", Priority: "critical", Threshold: "1", TimeFunction: "all"}},
		{ng.AlertsNrqlConditionTermsOperatorEquals, ng.AlertsNrqlConditionThresholdOccurrencesAtLeastOnce, 90, 0.25,
			v2.Term{Duration: "1.5", Operator: "equal", Priority: "critical", Threshold: "0.25", TimeFunction: "any"}},
		{ng.AlertsNrqlConditionTermsOperatorAboveOrEquals, ng.AlertsNrqlConditionThresholdOccurrencesAll, 3600, -2,
			v2.Term{Duration: "60", Operator: "above_or_equals", Priority: "critical", Threshold: "-2", TimeFunction: "all"}},
	}
	for _, tt := range tests {
		if got := restTerm(tt.op, ng.AlertsNrqlConditionPriorityCritical, tt.thr, tt.secs, tt.occ); got != tt.want {
			t.Errorf("restTerm(%s, %v s) = %+v, want %+v", tt.op, tt.secs, got, tt.want)
		}
	}
}

func TestConditionParts(t *testing.T) {
	tests := []struct {
		name     string
		in       NrqlConditionInput
		baseline bool
		wantErr  string
	}{
		{name: "single_value is NerdGraph's only evaluation", in: NrqlConditionInput{ValueFunction: sp("single_value")}},
		{name: "sum names the replacement", in: NrqlConditionInput{ValueFunction: sp("sum")}, wantErr: "aggregate in the NRQL query"},
		{name: "since_value must be whole minutes", in: NrqlConditionInput{SinceValue: sp("x")}, wantErr: "since_value must be"},
		{name: "bad fill option", in: NrqlConditionInput{Signal: &SignalInput{FillOption: sp("zero")}}, wantErr: "fill_option"},
		{name: "direction on a static condition", in: NrqlConditionInput{BaselineDirection: sp("upper_only")}, wantErr: "baseline conditions only"},
		{name: "bad direction", in: NrqlConditionInput{BaselineDirection: sp("sideways")}, baseline: true, wantErr: "upper_only"},
		{name: "good signal and expiration", in: NrqlConditionInput{Signal: &SignalInput{AggregationWindow: sp("60"), FillOption: sp("static"),
			FillValue: sp("0")}, Expiration: &ExpirationInput{ExpirationDuration: sp("600")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.in.parts("update", tt.baseline)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e, ok := err.(*v2.Error)
			if !ok || e.Status != 422 || !strings.Contains(e.Messages[0], tt.wantErr) || !strings.Contains(e.Title, "update the alert condition") {
				t.Fatalf("err %v, want 422 containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestLegacyTypeBySourceProduct walks every AlertsAsNrqlSourceProduct of the generated
// enum: each has a decided REST type (or none), REST's types appear once each except
// the two APM types NerdGraph cannot tell apart, and the criteria ask exactly for the
// products that have one.
func TestLegacyTypeBySourceProduct(t *testing.T) {
	want := map[ng.AlertsAsNrqlSourceProduct]string{
		ng.AlertsAsNrqlSourceProductApm:            "apm_app_metric",
		ng.AlertsAsNrqlSourceProductBrowser:        "browser_metric",
		ng.AlertsAsNrqlSourceProductMobile:         "mobile_metric",
		ng.AlertsAsNrqlSourceProductServers:        "servers_metric",
		ng.AlertsAsNrqlSourceProductNrql:           "",
		ng.AlertsAsNrqlSourceProductInfrastructure: "",
		ng.AlertsAsNrqlSourceProductSynthetics:     "",
	}
	if len(legacySources) != len(ng.AllAlertsAsNrqlSourceProduct) {
		t.Errorf("%d rows for %d source products", len(legacySources), len(ng.AllAlertsAsNrqlSourceProduct))
	}
	var asked []ng.AlertsAsNrqlSourceProduct
	for _, p := range ng.AllAlertsAsNrqlSourceProduct {
		w, ok := want[p]
		if !ok {
			t.Errorf("source product %s has no decided REST type", p)
			continue
		}
		if got := legacyType(p); got != w {
			t.Errorf("legacyType(%s) = %q, want %q", p, got, w)
		}
		if w != "" {
			asked = append(asked, p)
		}
	}
	got := legacyProducts()
	if len(got) != len(asked) {
		t.Fatalf("criteria ask for %v, want %v", got, asked)
	}
	for _, p := range asked {
		found := false
		for _, g := range got {
			found = found || g == p
		}
		if !found {
			t.Errorf("criteria omit %s", p)
		}
	}
	if legacyType("SOMETHING_NEW") != "" {
		t.Error("an unknown source product must not be listed")
	}
}
