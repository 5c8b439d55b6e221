package restv2

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// text is a JSON value REST sent as a string but callers also send as a number
// ("5" or 5, "0.9" or 0.9); either way the translator gets the text.
type text struct{ s *string }

func (t *text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("want a string or a number, got %.40s", b)
		}
		s = n.String()
	}
	t.s = &s
	return nil
}

type termBody struct {
	Duration     text `json:"duration"`
	Operator     text `json:"operator"`
	Priority     text `json:"priority"`
	Threshold    text `json:"threshold"`
	TimeFunction text `json:"time_function"`
}

type nrqlConditionBody struct {
	NrqlCondition *struct {
		Type                      text        `json:"type"`
		Name                      *string     `json:"name"`
		Enabled                   *bool       `json:"enabled"`
		RunbookURL                *string     `json:"runbook_url"`
		ValueFunction             text        `json:"value_function"`
		BaselineDirection         text        `json:"baseline_direction"`
		ViolationTimeLimitSeconds text        `json:"violation_time_limit_seconds"`
		Terms                     *[]termBody `json:"terms"`
		Nrql                      *struct {
			Query      *string `json:"query"`
			SinceValue text    `json:"since_value"`
		} `json:"nrql"`
		Signal *struct {
			AggregationWindow text `json:"aggregation_window"`
			SlideBy           text `json:"slide_by"`
			AggregationMethod text `json:"aggregation_method"`
			AggregationDelay  text `json:"aggregation_delay"`
			AggregationTimer  text `json:"aggregation_timer"`
			EvaluationOffset  text `json:"evaluation_offset"`
			FillOption        text `json:"fill_option"`
			FillValue         text `json:"fill_value"`
		} `json:"signal"`
		Expiration *struct {
			ExpirationDuration          text  `json:"expiration_duration"`
			OpenViolationOnExpiration   *bool `json:"open_violation_on_expiration"`
			CloseViolationsOnExpiration *bool `json:"close_violations_on_expiration"`
		} `json:"expiration"`
	} `json:"nrql_condition"`
}

// DecodeNrqlCondition reads a REST {"nrql_condition":{...}} body; op ("create" or
// "update") names the write in the 422's title.
func DecodeNrqlCondition(body []byte, op string) (NrqlConditionInput, error) {
	var b nrqlConditionBody
	if err := DecodeJSON(bytes.TrimSpace(body), &b); err != nil {
		return NrqlConditionInput{}, bodyError(body, err, "Validation error occurred while trying to "+op+" the alert condition")
	}
	c := b.NrqlCondition
	if c == nil {
		return NrqlConditionInput{}, Unprocessable("Validation error occurred while trying to "+op+" the alert condition", `the body needs a "nrql_condition" object`)
	}
	in := NrqlConditionInput{Type: c.Type.s, Name: c.Name, Enabled: c.Enabled, RunbookURL: c.RunbookURL,
		ValueFunction: c.ValueFunction.s, BaselineDirection: c.BaselineDirection.s, ViolationTimeLimitSeconds: c.ViolationTimeLimitSeconds.s}
	if c.Terms != nil {
		in.Terms = make([]TermInput, 0, len(*c.Terms))
		for _, t := range *c.Terms {
			in.Terms = append(in.Terms, TermInput{Duration: t.Duration.s, Operator: t.Operator.s, Priority: t.Priority.s,
				Threshold: t.Threshold.s, TimeFunction: t.TimeFunction.s})
		}
	}
	if c.Nrql != nil {
		in.Query, in.SinceValue = c.Nrql.Query, c.Nrql.SinceValue.s
	}
	if s := c.Signal; s != nil {
		in.Signal = &SignalInput{AggregationWindow: s.AggregationWindow.s, SlideBy: s.SlideBy.s,
			AggregationMethod: s.AggregationMethod.s, AggregationDelay: s.AggregationDelay.s, AggregationTimer: s.AggregationTimer.s,
			EvaluationOffset: s.EvaluationOffset.s, FillOption: s.FillOption.s, FillValue: s.FillValue.s}
	}
	if x := c.Expiration; x != nil {
		in.Expiration = &ExpirationInput{ExpirationDuration: x.ExpirationDuration.s,
			OpenViolationOnExpiration: x.OpenViolationOnExpiration, CloseViolationsOnExpiration: x.CloseViolationsOnExpiration}
	}
	return in, nil
}
