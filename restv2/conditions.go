package restv2

// Term is one threshold of an alert condition. REST v2 sent duration (minutes) and
// threshold as strings ("5", "0.9"); typed Go clients fail to decode numbers there.
type Term struct {
	Duration     string
	Operator     string // above, above_or_equals, below, below_or_equals, equal, not_equals
	Priority     string // critical, warning
	Threshold    string
	TimeFunction string // all, any
}

func encodeTerms(e Encoder, terms []Term) {
	e.BeginArray("terms", "term")
	for _, t := range terms {
		e.BeginObject("term")
		e.String("duration", t.Duration)
		e.String("operator", t.Operator)
		e.String("priority", t.Priority)
		e.String("threshold", t.Threshold)
		e.String("time_function", t.TimeFunction)
		e.EndObject()
	}
	e.EndArray()
}

// NrqlSignal is the signal block of an NRQL condition (strings, as REST sent them).
type NrqlSignal struct {
	AggregationWindow string
	// SlideBy, AggregationDelay and AggregationTimer are whole seconds, nil when unset,
	// written as JSON numbers (REST's create body types them integer);
	// AggregationMethod is NerdGraph's name, as the docs write it (EVENT_FLOW), "" when
	// unset.
	SlideBy           *int64
	AggregationMethod string
	AggregationDelay  *int64
	AggregationTimer  *int64
	EvaluationOffset  string // "" when the condition has no aggregation delay
	FillOption        string
	FillValue         string // "" when unset
}

// NrqlExpiration is the expiration (loss of signal) block of an NRQL condition.
type NrqlExpiration struct {
	ExpirationDuration          string // "" when unset
	OpenViolationOnExpiration   bool
	CloseViolationsOnExpiration bool
}

// NrqlCondition is REST v2's NRQL alert condition.
type NrqlCondition struct {
	ID                        int64
	Type                      string // static, baseline
	Name                      string
	Enabled                   bool
	RunbookURL                string // omitted when ""
	BaselineDirection         string // baseline only
	ViolationTimeLimitSeconds int64  // omitted when 0
	Terms                     []Term
	Query                     string
	SinceValue                string // omitted when ""
	Signal                    *NrqlSignal
	Expiration                *NrqlExpiration
	EntityGUID                string
}

// EncodeV2 writes the object's fields in REST v2's order.
func (c *NrqlCondition) EncodeV2(e Encoder) {
	e.BeginObject("nrql_condition")
	e.String("type", c.Type)
	e.Int("id", c.ID)
	e.String("name", c.Name)
	e.Bool("enabled", c.Enabled)
	optText(e, "runbook_url", c.RunbookURL)
	// NerdGraph evaluates every NRQL condition on the query's single value, which REST
	// wrote "single_value" (newrelic/newrelic-client-go
	// pkg/alerts/nrql_conditions_test.go @ 914be0660337f3e2aba1f9e7efcd250a5ff2b6af).
	e.String("value_function", "single_value")
	if c.BaselineDirection != "" {
		e.String("baseline_direction", c.BaselineDirection)
	}
	if c.ViolationTimeLimitSeconds > 0 {
		e.Int("violation_time_limit_seconds", c.ViolationTimeLimitSeconds)
	}
	encodeTerms(e, c.Terms)
	e.BeginObject("nrql")
	e.String("query", c.Query)
	optText(e, "since_value", c.SinceValue)
	e.EndObject()
	if s := c.Signal; s != nil {
		e.BeginObject("signal")
		if s.AggregationWindow != "" {
			e.String("aggregation_window", s.AggregationWindow)
		}
		if s.SlideBy != nil {
			e.Int("slide_by", *s.SlideBy)
		}
		if s.AggregationMethod != "" {
			e.String("aggregation_method", s.AggregationMethod)
		}
		if s.AggregationDelay != nil {
			e.Int("aggregation_delay", *s.AggregationDelay)
		}
		if s.AggregationTimer != nil {
			e.Int("aggregation_timer", *s.AggregationTimer)
		}
		if s.EvaluationOffset != "" {
			e.String("evaluation_offset", s.EvaluationOffset)
		}
		if s.FillOption != "" {
			e.String("fill_option", s.FillOption)
		}
		if s.FillValue != "" {
			e.String("fill_value", s.FillValue)
		}
		e.EndObject()
	}
	if x := c.Expiration; x != nil {
		e.BeginObject("expiration")
		if x.ExpirationDuration != "" {
			e.String("expiration_duration", x.ExpirationDuration)
		}
		e.Bool("open_violation_on_expiration", x.OpenViolationOnExpiration)
		e.Bool("close_violations_on_expiration", x.CloseViolationsOnExpiration)
		e.EndObject()
	}
	if c.EntityGUID != "" {
		e.String("entity_guid", c.EntityGUID)
	}
	e.EndObject()
}

// NrqlConditionList is the body of GET /v2/alerts_nrql_conditions.
type NrqlConditionList struct{ Conditions []NrqlCondition }

// Root is the XML root element.
func (*NrqlConditionList) Root() string { return "nrql_conditions_response" }

// EncodeV2 writes {"nrql_conditions":[...]}.
func (l *NrqlConditionList) EncodeV2(e Encoder) {
	e.BeginArray("nrql_conditions", "nrql_condition")
	for i := range l.Conditions {
		l.Conditions[i].EncodeV2(e)
	}
	e.EndArray()
}

// NrqlConditionShow is the body of a created, updated or deleted NRQL condition.
type NrqlConditionShow struct{ Condition NrqlCondition }

// Root is the XML root element.
func (*NrqlConditionShow) Root() string { return "nrql_condition_response" }

// EncodeV2 writes {"nrql_condition":{...}}.
func (s *NrqlConditionShow) EncodeV2(e Encoder) { s.Condition.EncodeV2(e) }

// optText writes v, or null when it is "".
func optText(e Encoder, name, v string) {
	if v == "" {
		e.Null(name)
		return
	}
	e.String(name, v)
}

// Condition is REST v2's APM, browser, mobile or servers metric condition, as far as
// NerdGraph's NRQL form of it can tell: entities (REST's condition in
// newrelic/newrelic-client-go pkg/alerts/conditions_test.go
// @ a330d1f4cab38b0525d892a2e79648fda8112561 lists ids as strings) come from an appId
// list or equality in that form's WHERE clause, else null; metric and
// condition_scope are written null; user_defined and
// gc_metric, which REST sent only for the metrics that take them, are omitted.
type Condition struct {
	ID int64
	// Entities are the ids of the applications the condition's NRQL form names by
	// appId (nil: null, when it names none that way).
	Entities            []string
	Type                string
	Name                string
	Enabled             bool
	RunbookURL          string // omitted when ""
	Terms               []Term
	ViolationCloseTimer int64 // hours; omitted when 0
}

// EncodeV2 writes the object's fields in REST v2's order.
func (c *Condition) EncodeV2(e Encoder) {
	e.BeginObject("condition")
	e.Int("id", c.ID)
	e.String("type", c.Type)
	e.String("name", c.Name)
	e.Bool("enabled", c.Enabled)
	if c.Entities == nil {
		e.Null("entities")
	} else {
		e.BeginArray("entities", "entity")
		for _, id := range c.Entities {
			e.String("entity", id)
		}
		e.EndArray()
	}
	e.Null("metric")
	e.Null("condition_scope")
	optText(e, "runbook_url", c.RunbookURL)
	// 0 when unset, as REST wrote it (the client-go condition above).
	e.Int("violation_close_timer", c.ViolationCloseTimer)
	encodeTerms(e, c.Terms)
	e.EndObject()
}

// ConditionList is the body of GET /v2/alerts_conditions.
type ConditionList struct{ Conditions []Condition }

// Root is the XML root element.
func (*ConditionList) Root() string { return "conditions_response" }

// EncodeV2 writes {"conditions":[...]}.
func (l *ConditionList) EncodeV2(e Encoder) {
	e.BeginArray("conditions", "condition")
	for i := range l.Conditions {
		l.Conditions[i].EncodeV2(e)
	}
	e.EndArray()
}
