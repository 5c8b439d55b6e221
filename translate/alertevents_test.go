package translate

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

// The entity of an event in REST's words: product and entity type from the GUID,
// the group id the entity id, no entity id for a monitor (its id is not a number).
func TestAlertEventEntity(t *testing.T) {
	monitor := base64.RawStdEncoding.EncodeToString([]byte("1|SYNTH|MONITOR|5e5a1b2c-0000-4000-8000-000000000001"))
	host := base64.RawStdEncoding.EncodeToString([]byte("1|INFRA|HOST|77"))
	tests := []struct {
		guid                string
		product, entityType string
		id                  int64
	}{
		{AppGUID(1, DomainAPM, 42), "APM", "Application", 42},
		{AppGUID(1, DomainBrowser, 43), "BROWSER", "BrowserApplication", 43},
		{AppGUID(1, DomainMobile, 44), "MOBILE", "MobileApplication", 44},
		{monitor, "SYNTHETICS", "Monitor", 0},
		{host, "INFRA", "Host", 77},
		{"not a guid", "", "", 0},
	}
	for _, tt := range tests {
		var ev restv2.AlertEvent
		entityOf(&ev, tt.guid)
		if ev.Product != tt.product || ev.EntityType != tt.entityType || ev.EntityID != tt.id || ev.EntityGroupID != tt.id {
			t.Errorf("%s: %+v, want %s %s %d", tt.guid, ev, tt.product, tt.entityType, tt.id)
		}
	}
}

// NrAiIncident opens and closes are REST's violation events, their product from the
// incident's own product attribute; deployments are DEPLOYMENT events described by
// their description, else their version; ids are stable per row.
func TestAlertEventRows(t *testing.T) {
	c := Caller{AccountID: 1}
	app := AppGUID(1, DomainAPM, 42)
	row := func(m map[string]any) json.RawMessage { b, _ := json.Marshal(m); return b }
	open, key, at, ok := incidentEvent(c, row(map[string]any{"timestamp": 1700000000000.0, "event": "open", "incidentId": "7",
		"title": "Error rate > 5%", "priority": "critical", "product": "apm", "entity.guid": app}))
	closed, key2, _, _ := incidentEvent(c, row(map[string]any{"timestamp": 1700000060000.0, "event": "Close", "incidentId": "7",
		"title": "Error rate > 5%", "priority": "critical", "entity.guid": app}))
	if !ok || at != 1700000000000 || open.EventType != EventViolationOpen || open.Description != "Error rate > 5%" ||
		open.Priority != "Critical" || open.Product != "APM" || open.EntityID != 42 || open.ID == 0 {
		t.Fatalf("open: %+v", open)
	}
	if closed.EventType != EventViolationClose || closed.ID == open.ID || key == key2 {
		t.Fatalf("close: %+v (open %+v)", closed, open)
	}
	if again, _, _, _ := incidentEvent(c, row(map[string]any{"timestamp": 1700000000000.0, "event": "open", "incidentId": "7"})); again.ID != open.ID {
		t.Fatalf("the same row's id changed: %d, %d", again.ID, open.ID)
	}
	dep, _, _, _ := deploymentEvent(c, row(map[string]any{"timestamp": 1700000120000.0, "changeTrackingId": "ct-1", "version": "v9",
		"entity.guid": app}))
	if dep.EventType != EventDeployment || dep.Description != "v9" || dep.EntityType != "Application" || dep.Priority != "" {
		t.Fatalf("deployment: %+v", dep)
	}
	dep, _, _, _ = deploymentEvent(c, row(map[string]any{"timestamp": 1700000120000.0, "deploymentId": "d-1", "version": "v9",
		"description": "release v9"}))
	if dep.Description != "release v9" || dep.Product != "" {
		t.Fatalf("deployment with a description: %+v", dep)
	}
}

// REST's filters: the names any case, the ids exact, incident_id matching nothing
// without an incident id.
func TestAlertEventsRequestMatches(t *testing.T) {
	ev := restv2.AlertEvent{EventType: EventDeployment, Product: "APM", EntityType: "Application", EntityID: 42, EntityGroupID: 42}
	tests := []struct {
		r    AlertEventsRequest
		want bool
	}{
		{AlertEventsRequest{}, true},
		{AlertEventsRequest{EventType: "deployment", Product: "apm", EntityType: "APPLICATION"}, true},
		{AlertEventsRequest{EntityID: 42, EntityGroupID: 42}, true},
		{AlertEventsRequest{EntityID: 43}, false},
		{AlertEventsRequest{EventType: EventViolationOpen}, false},
		{AlertEventsRequest{Product: "BROWSER"}, false},
		{AlertEventsRequest{IncidentID: 5}, false},
	}
	for _, tt := range tests {
		if got := tt.r.matches(ev); got != tt.want {
			t.Errorf("%+v: %v, want %v", tt.r, got, tt.want)
		}
	}
}
