package restv2

// EntityConditionList is the body of GET /v2/alerts_entity_conditions/{entity_id}
// when translated: the NRQL conditions whose WHERE clause names the entity, each in
// REST's nrql_condition fields under REST's `conditions` key.
type EntityConditionList struct{ Conditions []NrqlCondition }

// Root is the XML root element.
func (*EntityConditionList) Root() string { return "conditions_response" }

// EncodeV2 writes {"conditions":[...]}.
func (l *EntityConditionList) EncodeV2(e Encoder) {
	e.BeginArray("conditions", "condition")
	for i := range l.Conditions {
		l.Conditions[i].EncodeV2(rename(e, "condition"))
	}
	e.EndArray()
}

// EntityConditionShow is the body of PUT and DELETE
// /v2/alerts_entity_conditions/{entity_id}: {"condition":{...}}.
type EntityConditionShow struct{ Condition NrqlCondition }

// Root is the XML root element.
func (*EntityConditionShow) Root() string { return "condition_response" }

// EncodeV2 writes {"condition":{...}}.
func (s *EntityConditionShow) EncodeV2(e Encoder) {
	s.Condition.EncodeV2(rename(e, "condition"))
}

// rename is e with the outermost object it opens named name (the nested ones keep
// theirs).
func rename(e Encoder, name string) Encoder { return &renamed{Encoder: e, name: name} }

type renamed struct {
	Encoder
	name  string
	depth int
}

func (r *renamed) BeginObject(name string) {
	if r.depth == 0 {
		name = r.name
	}
	r.depth++
	r.Encoder.BeginObject(name)
}

func (r *renamed) EndObject() {
	r.depth--
	r.Encoder.EndObject()
}
