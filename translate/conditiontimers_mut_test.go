package translate

// Condition timer and number boundaries (issue 22), written against mutants of
// conditions.go parseNumber (`v <= 0` → `v < 0`, `v != Trunc(v)` → `==`) and parts.

import "testing"

func TestConditionNumberBoundariesMut(t *testing.T) {
	tests := []struct {
		give        string
		positiveInt bool
		want        float64
		wantErr     bool
	}{
		{"1", true, 1, false},
		{" 3600 ", true, 3600, false},
		{"60.0", true, 60, false},
		{"0", true, 0, true},  // `v <= 0` → `v < 0` accepts a zero timer
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

// TestConditionTimersMut: the timers of a NRQL condition body reach NerdGraph as given
// (violation_time_limit_seconds, aggregation_window, evaluation_offset,
// expiration_duration, since_value) and a zero or fractional one is refused.
func TestConditionTimersMut(t *testing.T) {
	in := NrqlConditionInput{
		SinceValue:                sp("3"),
		ViolationTimeLimitSeconds: sp("86400"),
		Signal:                    &SignalInput{AggregationWindow: sp("60"), EvaluationOffset: sp("2"), FillValue: sp("-1")},
		Expiration:                &ExpirationInput{ExpirationDuration: sp("600")},
	}
	p, err := in.parts("update", false)
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
	for name, bad := range map[string]NrqlConditionInput{
		"zero time limit":       {ViolationTimeLimitSeconds: sp("0")},
		"fractional time limit": {ViolationTimeLimitSeconds: sp("3600.5")},
		"zero window":           {Signal: &SignalInput{AggregationWindow: sp("0")}},
		"negative offset":       {Signal: &SignalInput{EvaluationOffset: sp("-2")}},
		"zero expiration":       {Expiration: &ExpirationInput{ExpirationDuration: sp("0")}},
		"zero since_value":      {SinceValue: sp("0")},
		"infinite fill value":   {Signal: &SignalInput{FillValue: sp("Inf")}},
	} {
		if _, err := bad.parts("update", false); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
