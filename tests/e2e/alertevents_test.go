package e2e

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

type alertEventsBody struct {
	Events []struct {
		ID            int64  `json:"id"`
		EventType     string `json:"event_type"`
		Product       string `json:"product"`
		EntityType    string `json:"entity_type"`
		EntityGroupID int64  `json:"entity_group_id"`
		EntityID      int64  `json:"entity_id"`
		Priority      string `json:"priority"`
		Description   string `json:"description"`
		Timestamp     int64  `json:"timestamp"`
	} `json:"recent_events"`
}

func alertEvents(t *testing.T, e *env, path string) (alertEventsBody, response) {
	t.Helper()
	r := e.get(t, path, key1)
	var b alertEventsBody
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	return b, r
}

// alerts_events answers REST's recent_events from NrAiIncident opens and closes and
// change-tracking deployments, newest first, paged with Link headers to the end.
func TestAlertEventsPagesIncidentsAndDeployments(t *testing.T) {
	e := newEnv(t)
	if r := e.do(t, http.MethodPost, "/v2/applications/314221522/deployments.json", key1, strings.NewReader(
		`{"deployment":{"revision":"ev-1","description":"release ev-1","user":"ci"}}`), "Content-Type", "application/json"); r.status != 201 {
		t.Fatalf("deployment: %d %s", r.status, r.body)
	}
	seen := map[int64]bool{}
	counts := map[string]int{}
	last := int64(1 << 62)
	next, pages := "/v2/alerts_events.json", 0
	for next != "" && pages < 10 {
		b, r := alertEvents(t, e, next)
		for _, ev := range b.Events {
			if seen[ev.ID] || ev.ID == 0 {
				t.Fatalf("event id %d twice or zero", ev.ID)
			}
			seen[ev.ID] = true
			if ev.Timestamp > last {
				t.Fatal("not newest first")
			}
			last = ev.Timestamp
			counts[ev.EventType]++
			if ev.Product != "APM" || ev.EntityType != "Application" || ev.EntityID == 0 || ev.EntityGroupID != ev.EntityID || ev.Description == "" {
				t.Fatalf("event %+v", ev)
			}
			if ev.EventType == "DEPLOYMENT" && (ev.EntityID != 314221522 || ev.Description != "release ev-1") {
				t.Fatalf("deployment event %+v", ev)
			}
			if ev.EventType != "DEPLOYMENT" && ev.Priority != "Critical" && ev.Priority != "Warning" {
				t.Fatalf("incident event %+v", ev)
			}
		}
		pages++
		next = links(t, r.header)["next"]
	}
	// The demo's 260 incidents of account 1000001 open once each; most have closed.
	if counts["VIOLATION_OPEN"] != 260 || counts["VIOLATION_CLOSE"] == 0 || counts["DEPLOYMENT"] != 1 || pages < 2 {
		t.Fatalf("%d pages, events %v", pages, counts)
	}
	if len(seen) != counts["VIOLATION_OPEN"]+counts["VIOLATION_CLOSE"]+1 {
		t.Fatalf("%d events, counts %v", len(seen), counts)
	}
}

// REST's filters narrow the events: event type, product and entity type (any case),
// entity and group id; the pages of a filtered list keep the filter.
func TestAlertEventsFilters(t *testing.T) {
	e := newEnv(t)
	e.do(t, http.MethodPost, "/v2/applications/314221522/deployments.json", key1, strings.NewReader(
		`{"deployment":{"revision":"ev-2"}}`), "Content-Type", "application/json")
	all, _ := alertEvents(t, e, "/v2/alerts_events.json")
	app := all.Events[0].EntityID
	tests := []struct {
		query string
		ok    func(etype, product, entityType string, entity int64) bool
	}{
		{"filter[event_type]=DEPLOYMENT", func(et, _, _ string, id int64) bool { return et == "DEPLOYMENT" && id == 314221522 }},
		{"filter[event_type]=violation_close", func(et, _, _ string, _ int64) bool { return et == "VIOLATION_CLOSE" }},
		{"filter[product]=apm&filter[entity_type]=application", func(_, p, t string, _ int64) bool { return p == "APM" && t == "Application" }},
		{"filter[entity_id]=" + strconv.FormatInt(app, 10), func(_, _, _ string, id int64) bool { return id == app }},
		{"filter[entity_group_id]=" + strconv.FormatInt(app, 10), func(_, _, _ string, id int64) bool { return id == app }},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			b, r := alertEvents(t, e, "/v2/alerts_events.json?"+tt.query)
			if len(b.Events) == 0 {
				t.Fatal("no events")
			}
			for _, ev := range b.Events {
				if !tt.ok(ev.EventType, ev.Product, ev.EntityType, ev.EntityID) {
					t.Fatalf("event %+v does not match %s", ev, tt.query)
				}
			}
			if next := links(t, r.header)["next"]; next != "" && !strings.Contains(next, "filter") {
				t.Fatalf("next link %s drops the filter", next)
			}
		})
	}
	for _, q := range []string{"filter[product]=SERVERS", "filter[entity_type]=Plugin", "filter[incident_id]=5"} {
		if b, _ := alertEvents(t, e, "/v2/alerts_events.json?"+q); len(b.Events) != 0 {
			t.Fatalf("%s: %d events, want none", q, len(b.Events))
		}
	}
	for _, q := range []string{"filter[entity_id]=abc", "filter[entity_group_id]=-1", "page=0"} {
		if r := e.get(t, "/v2/alerts_events.json?"+q, key1); r.status != 400 || !strings.Contains(string(r.body), "Invalid parameter") {
			t.Fatalf("%s: %d %s", q, r.status, r.body)
		}
	}
}

// The XML answer is REST's wrapper with one element per event.
func TestAlertEventsXML(t *testing.T) {
	e := newEnv(t)
	r := e.get(t, "/v2/alerts_events.xml?filter[event_type]=VIOLATION_OPEN", key1)
	wellFormed(t, r.body)
	if r.status != 200 || !strings.Contains(string(r.body), "<recent_events_response>") ||
		!strings.Contains(string(r.body), "<recent_event>") || !strings.Contains(string(r.body), "<event_type>VIOLATION_OPEN</event_type>") {
		t.Fatalf("%d %.500s", r.status, r.body)
	}
	if f := r.header.Get("X-V2bridge-Fidelity"); f != "approximate" {
		t.Fatalf("fidelity %q", f)
	}
}
