package restv2

// AlertEvent is one of REST v2's recent alert events. The fields are those
// newrelic-client-go decodes (pkg/alerts/events.go AlertEvent; its recorded answer in
// pkg/alerts/events_test.go sends the timestamp as epoch milliseconds and leaves out
// the entity fields of an event without an entity): empty strings and zero ids are
// left out as REST left them out.
type AlertEvent struct {
	ID            int64
	EventType     string
	Product       string
	EntityType    string
	EntityGroupID int64
	EntityID      int64
	Priority      string
	Description   string
	Timestamp     int64 // epoch milliseconds
	IncidentID    int64
}

// EncodeV2 writes the event object.
func (a *AlertEvent) EncodeV2(e Encoder) {
	e.BeginObject("recent_event")
	e.Int("id", a.ID)
	e.String("event_type", a.EventType)
	str := func(name, v string) {
		if v != "" {
			e.String(name, v)
		}
	}
	id := func(name string, v int64) {
		if v != 0 {
			e.Int(name, v)
		}
	}
	str("product", a.Product)
	str("entity_type", a.EntityType)
	id("entity_group_id", a.EntityGroupID)
	id("entity_id", a.EntityID)
	str("priority", a.Priority)
	e.String("description", a.Description)
	e.Int("timestamp", a.Timestamp)
	id("incident_id", a.IncidentID)
	e.EndObject()
}

// AlertEventList is the body of GET /v2/alerts_events.
type AlertEventList struct{ Events []AlertEvent }

// Root is the XML root element.
func (*AlertEventList) Root() string { return "recent_events_response" }

// EncodeV2 writes {"recent_events":[...]}.
func (l *AlertEventList) EncodeV2(e Encoder) {
	e.BeginArray("recent_events", "recent_event")
	for i := range l.Events {
		l.Events[i].EncodeV2(e)
	}
	e.EndArray()
}

// IncidentShow is the body of PUT /v2/alerts_incidents/{id}/acknowledge and /close.
type IncidentShow struct{ Incident Incident }

// Root is the XML root element.
func (*IncidentShow) Root() string { return "incident_response" }

// EncodeV2 writes {"incident":{...}}.
func (s *IncidentShow) EncodeV2(e Encoder) { s.Incident.EncodeV2(e) }
