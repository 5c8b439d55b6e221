package sim

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/v2bridge/v2bridge/sim/model"
	"github.com/v2bridge/v2bridge/sim/nrdb"
)

// eventStore keeps the change events the mutations record; the NRQL engine reads them
// as ChangeTrackingEvent and Deployment rows. A recorded event becomes visible to NRQL
// only delay after it was recorded (ingest latency, see doc.go), measured on clock
// (wall time by default, independent of the simulator's fixed data clock).
type eventStore struct {
	mu    sync.RWMutex
	rows  []storedEvent
	seq   int64
	delay time.Duration
	clock func() time.Time
}

// storedEvent is one row and the (ingest clock) time from which NRQL sees it.
type storedEvent struct {
	row     nrdb.MapRow
	visible time.Time
}

func (s *eventStore) ingestNow() time.Time {
	if s.clock == nil {
		return time.Now()
	}
	return s.clock()
}

// add records r; it is visible to NRQL after the ingest delay.
func (s *eventStore) add(r nrdb.MapRow) {
	s.addVisible(r, s.ingestNow().Add(s.delay))
}

func (s *eventStore) addVisible(r nrdb.MapRow, visible time.Time) {
	s.mu.Lock()
	s.rows = append(s.rows, storedEvent{row: r, visible: visible})
	s.mu.Unlock()
}

// Scan implements nrdb.Source.
func (s *eventStore) Scan(_ context.Context, sc nrdb.Scan, fn func(nrdb.Row) bool) error {
	s.mu.RLock()
	rows := s.rows
	s.mu.RUnlock()
	now := s.ingestNow()
	for _, e := range rows {
		r := e.row
		acct, _ := r.Attrs["accountId"].(float64)
		if now.Before(e.visible) || !slices.Contains(sc.EventTypes, r.Type) || !slices.Contains(sc.Accounts, int(acct)) ||
			r.At.Before(sc.Begin) || !r.At.Before(sc.End) {
			continue
		}
		if !fn(r) {
			return nil
		}
	}
	return nil
}

// WithIngestDelay makes change events recorded by the mutations visible to NRQL only
// d after they were recorded, as NRDB's ingest pipeline does (doc.go, "Change
// tracking"); default 0 (visible at once).
func WithIngestDelay(d time.Duration) Option {
	return func(s *Server) { s.events.delay = d }
}

// WithIngestClock sets the clock the ingest delay is measured on (default time.Now);
// tests advance it to let recorded events arrive.
func WithIngestClock(now func() time.Time) Option {
	return func(s *Server) { s.events.clock = now }
}

// AddChangeEvent stores a change event of eventType (ChangeTrackingEvent or
// Deployment) with timestamp at in account accountID, already ingested (visible at
// once): tests seed history with it, such as Deployment events from before
// changeTrackingCreateEvent or more rows than one NRQL answer holds. attrs are the
// event's attributes (accountId is set from accountID).
func (s *Server) AddChangeEvent(accountID int, eventType string, at time.Time, attrs map[string]any) {
	a := make(map[string]any, len(attrs)+1)
	for k, v := range attrs {
		a[k] = v
	}
	a["accountId"] = float64(accountID)
	s.events.addVisible(nrdb.MapRow{Type: eventType, At: at, Attrs: a}, time.Time{})
}

// multiSource serves every event type from the first source that has it.
type multiSource []nrdb.Source

// Scan implements nrdb.Source.
func (m multiSource) Scan(ctx context.Context, sc nrdb.Scan, fn func(nrdb.Row) bool) error {
	stopped := false
	for _, s := range m {
		if err := s.Scan(ctx, sc, func(r nrdb.Row) bool {
			if !fn(r) {
				stopped = true
				return false
			}
			return true
		}); err != nil {
			return err
		}
		if stopped {
			return nil
		}
	}
	return nil
}

// changeTimeLimit is NerdGraph's rule for change-tracking timestamps.
const changeTimeLimit = 24 * time.Hour

// newID is the next change-tracking id: UUID-shaped, deterministic per simulator so
// test answers are reproducible.
func (s *eventStore) newID() string {
	s.mu.Lock()
	s.seq++
	n := s.seq
	s.mu.Unlock()
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
}

func (s *Server) changeTime(ts *int64) (time.Time, error) {
	now := s.now()
	if ts == nil {
		return now, nil
	}
	at := time.UnixMilli(*ts)
	if d := at.Sub(now); d > changeTimeLimit || d < -changeTimeLimit {
		return at, gqlError(classInvalidInput, "timestamp can not be more than 24 hours in the past or future; it must be epoch milliseconds")
	}
	return at, nil
}

func hasFlag(rules *model.ChangeTrackingDataHandlingRules, f model.ChangeTrackingValidationFlag) bool {
	return rules != nil && slices.Contains(rules.ValidationFlags, f)
}

// ChangeTrackingCreateEvent records a change event on the one entity its search matches.
func (r mutationResolver) ChangeTrackingCreateEvent(ctx context.Context, in model.ChangeTrackingCreateEventInput, rules *model.ChangeTrackingDataHandlingRules) (*model.ChangeTrackingCreateEventResponse, error) {
	req := requestFrom(ctx)
	kind := in.CategoryAndTypeData.Kind
	catType := model.ChangeTrackingCategoryType(strings.ToUpper(strings.ReplaceAll(kind.Category, " ", "_") + "__" + strings.ReplaceAll(kind.Type, " ", "_")))
	if !catType.IsValid() && !hasFlag(rules, model.ChangeTrackingValidationFlagAllowCustomCategoryOrType) {
		return nil, gqlError(classInvalidInput, "Unknown category and type %q/%q; set ALLOW_CUSTOM_CATEGORY_OR_TYPE for custom values", kind.Category, kind.Type)
	}
	deploy := strings.EqualFold(kind.Category, "deployment")
	var fields *model.ChangeTrackingDeploymentFieldsInput
	if cf := in.CategoryAndTypeData.CategoryFields; cf != nil {
		fields = cf.Deployment
	}
	if deploy && (fields == nil || fields.Version == "") {
		return nil, gqlError(classInvalidInput, "categoryFields.deployment.version is required for the Deployment category")
	}
	if !deploy {
		return nil, gqlError("", "change events of category %q are %s", kind.Category, UnsupportedMessage)
	}
	q, err := parseQuery(in.EntitySearch.Query)
	if err != nil {
		return nil, gqlError(classInvalidInput, "Invalid entity search query: %s", err.Error())
	}
	match := compile(q, compileOptions{})
	var found []*entity
	for _, e := range req.caller.entities {
		if match(e) {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		return nil, gqlError(classInvalidInput, "The entity search query must match exactly one entity; it matched %d", len(found))
	}
	at, err := r.s.changeTime(in.Timestamp)
	if err != nil {
		return nil, err
	}
	e := found[0]
	id := r.s.events.newID()
	attrs := map[string]any{
		"accountId": float64(e.accountID), "changeTrackingId": id, "category": kind.Category, "type": kind.Type,
		"version": fields.Version, "entity.guid": e.guid, "entity.name": e.name,
		"newrelic.source": "api.graphql.changeTrackingCreateEvent",
	}
	setOpt(attrs, "changelog", fields.Changelog)
	setOpt(attrs, "commit", fields.Commit)
	setOpt(attrs, "deepLink", fields.DeepLink)
	setOpt(attrs, "description", in.Description)
	setOpt(attrs, "shortDescription", in.ShortDescription)
	setOpt(attrs, "user", in.User)
	setOpt(attrs, "groupId", in.GroupID)
	r.s.events.add(nrdb.MapRow{Type: "ChangeTrackingEvent", At: at, Attrs: attrs})
	ev := &model.ChangeTrackingDeploymentEvent{
		Category: kind.Category, CategoryAndType: catType, ChangeTrackingID: id, Changelog: fields.Changelog,
		Commit: fields.Commit, DeepLink: fields.DeepLink, Description: in.Description, Entity: e.outline,
		GroupID: in.GroupID, ShortDescription: in.ShortDescription, Timestamp: at.UnixMilli(), Type: kind.Type,
		User: in.User, Version: fields.Version,
	}
	return &model.ChangeTrackingCreateEventResponse{ChangeTrackingEvent: ev, Messages: []string{}}, nil
}

// ChangeTrackingCreateDeployment records a Deployment event on an entity by guid.
func (r mutationResolver) ChangeTrackingCreateDeployment(ctx context.Context, rules *model.ChangeTrackingDataHandlingRules, in model.ChangeTrackingDeploymentInput) (*model.ChangeTrackingDeployment, error) {
	req := requestFrom(ctx)
	e, err := req.lookup(in.EntityGUID)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, gqlError(classInvalidInput, "Entity %s not found", in.EntityGUID)
	}
	if in.Version == "" {
		return nil, gqlError(classInvalidInput, "version is required")
	}
	at, err := r.s.changeTime(in.Timestamp)
	if err != nil {
		return nil, err
	}
	id := r.s.events.newID()
	attrs := map[string]any{
		"accountId": float64(e.accountID), "deploymentId": id, "version": in.Version, "entity.guid": e.guid,
		"entity.name": e.name, "appId": e.domainID, "newrelic.source": "api.graphql.changeTrackingCreateDeployment",
	}
	setOpt(attrs, "changelog", in.Changelog)
	setOpt(attrs, "commit", in.Commit)
	setOpt(attrs, "deepLink", in.DeepLink)
	setOpt(attrs, "description", in.Description)
	setOpt(attrs, "user", in.User)
	setOpt(attrs, "groupId", in.GroupID)
	r.s.events.add(nrdb.MapRow{Type: "Deployment", At: at, Attrs: attrs})
	_ = rules
	return &model.ChangeTrackingDeployment{
		Changelog: in.Changelog, Commit: in.Commit, DeepLink: in.DeepLink, DeploymentID: &id, DeploymentType: in.DeploymentType,
		Description: in.Description, EntityGUID: e.guid, GroupID: in.GroupID, Timestamp: at.UnixMilli(), User: in.User, Version: in.Version,
	}, nil
}

func setOpt(m map[string]any, k string, v *string) {
	if v != nil {
		m[k] = *v
	}
}
