package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

// AlertEventsRequest is a parsed GET /v2/alerts_events: REST's filters
// (filter[product], filter[entity_type], filter[entity_group_id], filter[entity_id],
// filter[event_type] and filter[incident_id], as newrelic-client-go pkg/alerts/events.go
// ListAlertEventsParams sends them) and the page.
type AlertEventsRequest struct {
	Product, EntityType, EventType string // case-insensitive; "" = any
	EntityGroupID, EntityID        int64  // 0 = any
	IncidentID                     int64  // 0 = any
	Page                           int
}

// The event types of the translated events: REST's violation opens and closes and
// its deployments (the alerts_events event types REST's API explorer listed:
// NOTIFICATION, DEPLOYMENT, VIOLATION_OPEN, VIOLATION_CLOSE, VIOLATION,
// INSTRUMENTATION; read in a third-party copy of the explorer's text, not in a New
// Relic repository, so a verify run on a real account is the check).
const (
	EventViolationOpen  = "VIOLATION_OPEN"
	EventViolationClose = "VIOLATION_CLOSE"
	EventDeployment     = "DEPLOYMENT"
)

// DefaultAlertEventWindow is how far back alert events are listed (REST listed an
// account's recent events; NRDB keeps them for its event retention).
const DefaultAlertEventWindow = 30 * 24 * time.Hour

// alertEventReads bounds the NRQL reads of one source of events (100,000 rows).
const alertEventReads = 20

// alertEventRead is every event of the window, newest first, and the caps the read
// met.
type alertEventRead struct {
	all  []restv2.AlertEvent
	caps []Cap
}

// AlertEvents answers GET /v2/alerts_events from what NerdGraph holds, as New Relic's
// end-of-life notice maps the endpoint (newrelic/docs-website
// src/content/eol/2026/07/eol-07-31-26-rest-api-v2.md: "most accounts use it for
// deployments and migrate to the NerdGraph change tracking API"; violations are
// NrAiIncident): the opens and closes of NrAiIncident and the deployments of
// ChangeTrackingEvent and Deployment, by NRQL, newest first. The events are read
// once per caller for ListTTL (the pages a client follows come from one read) and
// filtered here.
func (t *Translator) AlertEvents(ctx context.Context, c Caller, r AlertEventsRequest) (*restv2.AlertEventList, Paging, error) {
	key := c.cacheKey("alert_events")
	var read alertEventRead
	if v, ok := t.st.Lists.Get(key); ok {
		read = v.(alertEventRead)
	} else {
		now := t.now().UTC()
		since, until := now.Add(-DefaultAlertEventWindow), now.Truncate(time.Second).Add(time.Second)
		var err error
		if read, err = t.readAlertEvents(ctx, c, since, until); err != nil {
			return nil, Paging{}, err
		}
		t.st.Lists.Set(key, read)
	}
	noteCaps(ctx, read.caps)
	var kept []restv2.AlertEvent
	for _, e := range read.all {
		if r.matches(e) {
			kept = append(kept, e)
		}
	}
	items, paging := pageOf(kept, max(r.Page, 1), PageSize)
	return &restv2.AlertEventList{Events: items}, paging, nil
}

func (r AlertEventsRequest) matches(e restv2.AlertEvent) bool {
	return (r.Product == "" || strings.EqualFold(r.Product, e.Product)) &&
		(r.EntityType == "" || strings.EqualFold(r.EntityType, e.EntityType)) &&
		(r.EventType == "" || strings.EqualFold(r.EventType, e.EventType)) &&
		(r.EntityGroupID == 0 || r.EntityGroupID == e.EntityGroupID) &&
		(r.EntityID == 0 || r.EntityID == e.EntityID) &&
		(r.IncidentID == 0 || r.IncidentID == e.IncidentID)
}

// alertEventSource is one NRQL source of events: its query over a window and the
// event of one row (with the row's dedup key; ok false: not an event).
type alertEventSource struct {
	name  string
	query func(since, until time.Time) (string, error)
	event func(c Caller, raw json.RawMessage) (ev restv2.AlertEvent, key string, at int64, ok bool)
}

func alertEventSources() []alertEventSource {
	return []alertEventSource{
		{name: "incident events", query: func(since, until time.Time) (string, error) {
			var n NRQL
			n.Raw("SELECT timestamp, event, incidentId, title, priority, product, entity.guid FROM NrAiIncident "+
				"WHERE event IN ('open', 'close', 'Open', 'Close') ").Range(since, until).Raw(" LIMIT MAX")
			return n.Build()
		}, event: incidentEvent},
		{name: "deployment events", query: func(since, until time.Time) (string, error) {
			var n NRQL
			n.Raw("SELECT timestamp, deploymentId, changeTrackingId, version, description, entity.guid FROM ChangeTrackingEvent, Deployment "+
				"WHERE (eventType() = 'Deployment' OR category = 'Deployment') ").Range(since, until).Raw(" LIMIT MAX")
			return n.Build()
		}, event: deploymentEvent},
	}
}

// readAlertEvents reads every event of both sources in [since, until), newest first.
// A source whose read comes back full (5000 rows) is read again UNTIL its oldest row's
// millisecond + 1 (UNTIL is exclusive), rows already read dropped; after
// alertEventReads reads, or 5000 rows in one millisecond, the answer is declared.
func (t *Translator) readAlertEvents(ctx context.Context, c Caller, since, until time.Time) (alertEventRead, error) {
	var out alertEventRead
	for _, src := range alertEventSources() {
		events, complete, err := readBackwards(ctx, t.client, c.AccountID, since, until, alertEventReads, src.query,
			func(raw json.RawMessage) (restv2.AlertEvent, string, int64, bool) { return src.event(c, raw) })
		if err != nil {
			return out, fmt.Errorf("alert events: %s: %w", src.name, err)
		}
		out.all = append(out.all, events...)
		if !complete {
			out.caps = append(out.caps, CapAlertEvents)
		}
	}
	sort.SliceStable(out.all, func(i, j int) bool { return out.all[i].Timestamp > out.all[j].Timestamp })
	return out, nil
}

// incidentEvent is the VIOLATION_OPEN or VIOLATION_CLOSE of an NrAiIncident row
// (newrelic/docs-website src/data-dictionary/events/NrAiIncident/event.md: Open,
// Close, Muted, Acknowledge, Sent; product.md: APM, BROWSER, MOBILE, SYNTHETICS, ...,
// REST's product names).
func incidentEvent(c Caller, raw json.RawMessage) (restv2.AlertEvent, string, int64, bool) {
	var row struct {
		Timestamp  float64 `json:"timestamp"`
		Event      string  `json:"event"`
		IncidentID any     `json:"incidentId"`
		Title      string  `json:"title"`
		Priority   string  `json:"priority"`
		Product    string  `json:"product"`
		EntityGUID string  `json:"entity.guid"`
	}
	if json.Unmarshal(raw, &row) != nil {
		return restv2.AlertEvent{}, "", 0, false
	}
	at := int64(row.Timestamp)
	ev := restv2.AlertEvent{EventType: EventViolationOpen, Description: row.Title, Priority: capitalize(row.Priority), Timestamp: at}
	if strings.EqualFold(row.Event, "close") {
		ev.EventType = EventViolationClose
	}
	key := ev.EventType + "/" + fmt.Sprint(row.IncidentID) + "/" + strconv.FormatInt(at, 10)
	ev.ID = SurrogateID("alert_event", c.AccountID, key)
	entityOf(&ev, row.EntityGUID)
	if row.Product != "" {
		ev.Product = strings.ToUpper(row.Product)
	}
	return ev, key, at, true
}

// deploymentEvent is the DEPLOYMENT event of a ChangeTrackingEvent or Deployment row
// (the rows deployments.list reads): its description, else its version.
func deploymentEvent(c Caller, raw json.RawMessage) (restv2.AlertEvent, string, int64, bool) {
	var row struct {
		deploymentRow
		EntityGUID string `json:"entity.guid"`
	}
	if json.Unmarshal(raw, &row) != nil {
		return restv2.AlertEvent{}, "", 0, false
	}
	at := int64(row.Timestamp)
	key := deref(row.ChangeTrackingID)
	if row.DeploymentID != nil {
		key = *row.DeploymentID
	}
	if key == "" {
		key = string(raw)
	}
	ev := restv2.AlertEvent{EventType: EventDeployment, Description: deref(row.Description), Timestamp: at,
		ID: SurrogateID("alert_event", c.AccountID, "deployment/"+key)}
	if ev.Description == "" {
		ev.Description = deref(row.Version)
	}
	entityOf(&ev, row.EntityGUID)
	return ev, "deployment/" + key, at, true
}

// entityOf sets an event's product, entity type and ids from its entity's GUID, in
// the words of REST's filters (REST's API explorer text, as copied by a third party:
// products APM, BROWSER, MOBILE, SERVERS, PLUGINS, SYNTHETICS, ALERTS; entity types
// Application, Server, KeyTransaction, Plugin, MobileApplication, BrowserApplication,
// Monitor; "the group ID is normally the same as the entity ID", plugins aside). An
// entity whose id is not a number (a monitor's) has no entity_id.
func entityOf(ev *restv2.AlertEvent, guid string) {
	g, err := ParseGUID(guid)
	if err != nil {
		return
	}
	ev.Product, ev.EntityType = g.Domain, capitalize(strings.ReplaceAll(g.Type, "_", ""))
	switch {
	case g.Domain == DomainAPM && g.Type == TypeApp:
		ev.EntityType = "Application"
	case g.Domain == DomainAPM && g.Type == TypeKeyTx:
		ev.EntityType = "KeyTransaction"
	case g.Domain == DomainBrowser && g.Type == TypeApp:
		ev.EntityType = "BrowserApplication"
	case g.Domain == DomainMobile && g.Type == TypeApp:
		ev.EntityType = "MobileApplication"
	case g.Domain == "SYNTH":
		ev.Product, ev.EntityType = "SYNTHETICS", "Monitor"
	}
	if id, err := strconv.ParseInt(g.DomainID, 10, 64); err == nil && id > 0 {
		ev.EntityID, ev.EntityGroupID = id, id
	}
}
