package restv2

// SyntheticsCondition is REST v2's synthetics alert condition (
// id, name, monitor_id, runbook_url, enabled), as far as NerdGraph's NRQL form of it
// tells: monitor_id has no field there and is omitted.
type SyntheticsCondition struct {
	ID         int64
	Name       string
	RunbookURL string // omitted when ""
	Enabled    bool
}

// EncodeV2 writes the object's fields in REST v2's order.
func (c *SyntheticsCondition) EncodeV2(e Encoder) {
	e.BeginObject("synthetics_condition")
	e.Int("id", c.ID)
	e.String("name", c.Name)
	if c.RunbookURL != "" {
		e.String("runbook_url", c.RunbookURL)
	}
	e.Bool("enabled", c.Enabled)
	e.EndObject()
}

// SyntheticsConditionList is the body of GET /v2/alerts_synthetics_conditions.
type SyntheticsConditionList struct{ Conditions []SyntheticsCondition }

// Root is the XML root element.
func (*SyntheticsConditionList) Root() string { return "synthetics_conditions_response" }

// EncodeV2 writes {"synthetics_conditions":[...]}.
func (l *SyntheticsConditionList) EncodeV2(e Encoder) {
	e.BeginArray("synthetics_conditions", "synthetics_condition")
	for i := range l.Conditions {
		l.Conditions[i].EncodeV2(e)
	}
	e.EndArray()
}
