package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
)

// DeploymentWindow is how far back deployments are listed (REST listed all history;
// change events live in NRDB's retention).
const DeploymentWindow = 90 * 24 * time.Hour

// CreateDeployment records a deployment (never retried; see restv2.WriteOutcomeUnknown).
// legacy chooses changeTrackingCreateDeployment over changeTrackingCreateEvent.
// Identical concurrent requests share one write, and a retry of a write whose outcome
// is unknown looks it up before sending again (see writeoutcome.go).
func (t *Translator) CreateDeployment(ctx context.Context, c Caller, appID int64, in restv2.DeploymentInput, received time.Time, legacy bool) (*restv2.DeploymentShow, error) {
	if err := in.Validate(received); err != nil {
		return nil, err
	}
	app := strconv.FormatInt(appID, 10)
	if in.AppName != "" {
		app = "name:" + in.AppName
	}
	ts := ""
	if in.Timestamp != nil {
		ts = in.Timestamp.UTC().Format(time.RFC3339)
	}
	hash := contentHash(app, in.Revision, optPart(in.Changelog), optPart(in.Description), optPart(in.User), ts)
	key := c.cacheKey("deployment-attempt", app, hash)
	if in.IdempotencyKey != "" {
		key = c.cacheKey("idempotency-key", in.IdempotencyKey)
	}
	v, err := t.once(ctx, key, hash, in.IdempotencyKey != "",
		func(ctx context.Context, prev state.Previous) (any, error, bool, int64) {
			if prevSent, prevMs := prev.Sent, prev.Ms; !prevSent.IsZero() {
				// The previous identical attempt's outcome is unknown: look it up first.
				d, err := t.findDeployment(ctx, c, appID, in, prevMs)
				if err != nil {
					return nil, err, true, 0
				}
				if d != nil {
					t.st.Deploys.Remember(recentKey(c, d.ApplicationID), *d, t.now())
					return &restv2.DeploymentShow{Deployment: *d}, nil, false, 0
				}
				if wait := DeploymentSettle - t.now().Sub(prevSent); wait > 0 {
					return nil, errOutcomePending("deployment", time.UnixMilli(prevMs).UTC(), wait), true, 0
				}
			}
			show, sentMs, unknown, err := t.createDeployment(ctx, c, appID, in, received, legacy)
			return show, err, unknown, sentMs
		})
	if err != nil {
		return nil, err
	}
	return v.(*restv2.DeploymentShow), nil
}

// findDeployment looks up the deployment an unknown attempt may have recorded: the
// gateway sent its timestamp (ms), so it is the row of that millisecond with the same
// content. nil: not (yet) in NRQL.
func (t *Translator) findDeployment(ctx context.Context, c Caller, appID int64, in restv2.DeploymentInput, ms int64) (*restv2.Deployment, error) {
	if appID == 0 {
		id, err := t.appIDByName(ctx, c, in.AppName)
		if err != nil || id == 0 {
			return nil, err
		}
		appID = id
	}
	at := time.UnixMilli(ms)
	rows, _, err := t.deploymentRowsIn(ctx, c, appID, at, at.Add(time.Millisecond), MaxFacets)
	if err != nil {
		return nil, err
	}
	for _, d := range rows {
		if d.Timestamp.UnixMilli() == ms && d.Revision == in.Revision && deref(d.Changelog) == deref(in.Changelog) &&
			deref(d.Description) == deref(in.Description) && deref(d.User) == deref(in.User) {
			return &d, nil
		}
	}
	return nil, nil
}

// appIDByName is the id of the caller's APM application named exactly name (0: none
// or more than one, as the legacy v0 write requires exactly one).
func (t *Translator) appIDByName(ctx context.Context, c Caller, name string) (int64, error) {
	q, err := EntitySearch(c.AccountID, DomainAPM, TypeApp).Eq("name", name).Build()
	if err != nil {
		return 0, restv2.Unprocessable("Invalid application name: " + err.Error())
	}
	page, err := t.appListPage(ctx, c, q, nil, nil)
	if err != nil {
		return 0, err
	}
	var id int64
	for _, a := range page.apps {
		if a.GetName() != name || a.GetApplicationId() == 0 {
			continue
		}
		if id != 0 {
			return 0, nil
		}
		id = int64(a.GetApplicationId())
	}
	return id, nil
}

// createDeployment sends the mutation once. sentMs is the timestamp sent (0: nothing
// sent); unknown says the mutation may have been applied although err is set.
func (t *Translator) createDeployment(ctx context.Context, c Caller, appID int64, in restv2.DeploymentInput, received time.Time, legacy bool) (show *restv2.DeploymentShow, sentMs int64, unknown bool, err error) {
	if in.AppName == "" {
		// Check-then-write is serialised per application within this replica (and across
		// the fleet with a store, state.Deploys), so two concurrent POSTs cannot both
		// pass the "later than the latest" rule.
		unlock, err := t.st.Deploys.Lock(ctx, c.AccountID, appID)
		if err != nil {
			return nil, 0, false, fmt.Errorf("wait for another deployment of %d: %w", appID, err)
		}
		defer unlock()
		if in.Timestamp != nil {
			if err := t.checkLaterThanLatest(ctx, c, appID, *in.Timestamp); err != nil {
				return nil, 0, false, err
			}
		}
	}
	at := received
	if in.Timestamp != nil {
		at = *in.Timestamp
	}
	ms := at.UnixMilli()
	guid := AppGUID(c.AccountID, DomainAPM, appID)
	d := restv2.Deployment{Revision: in.Revision, Changelog: in.Changelog, Description: in.Description, User: in.User, ApplicationID: appID}
	if legacy && in.AppName == "" {
		resp, err := ng.DeploymentCreate(ctx, t.client, ng.ChangeTrackingDeploymentInput{
			EntityGuid: guid, Version: in.Revision, Changelog: in.Changelog, Description: in.Description, User: in.User, Timestamp: &ms,
		})
		if err != nil {
			return nil, ms, outcomeUnknown(err), writeError(err, appID)
		}
		dep := resp.ChangeTrackingCreateDeployment
		if dep == nil {
			return nil, ms, true, restv2.WriteOutcomeUnknown("deployment", deploymentCheck(appID))
		}
		d.ID = SurrogateID("deployment", c.AccountID, deref(dep.DeploymentId))
		d.Timestamp = time.UnixMilli(dep.Timestamp).UTC()
		t.st.Deploys.Remember(recentKey(c, d.ApplicationID), d, t.now())
		return &restv2.DeploymentShow{Deployment: d}, ms, false, nil
	}
	var query string
	if in.AppName != "" {
		// Legacy v0 named the application; the search must match exactly one.
		q, err := EntitySearch(c.AccountID, DomainAPM, TypeApp).Eq("name", in.AppName).Build()
		if err != nil {
			return nil, 0, false, restv2.Unprocessable("Invalid application name: " + err.Error())
		}
		query = q
	} else {
		q, err := QuoteSearch(guid)
		if err != nil {
			return nil, 0, false, err
		}
		query = "id = " + q
	}
	resp, err := ng.DeploymentCreateEvent(ctx, t.client, ng.ChangeTrackingCreateEventInput{
		CategoryAndTypeData: ng.ChangeTrackingCategoryRelatedInput{
			Kind:           ng.ChangeTrackingCategoryAndTypeInput{Category: "Deployment", Type: "Basic"},
			CategoryFields: &ng.ChangeTrackingCategoryFieldsInput{Deployment: &ng.ChangeTrackingDeploymentFieldsInput{Version: in.Revision, Changelog: in.Changelog}},
		},
		EntitySearch: ng.ChangeTrackingEntitySearchInput{Query: query},
		Description:  in.Description, User: in.User, Timestamp: &ms,
	})
	if err != nil {
		return nil, ms, outcomeUnknown(err), writeError(err, appID)
	}
	// changeTrackingCreateEvent and its changeTrackingEvent are nullable: a null with no
	// error leaves the outcome unknown, never a nil dereference.
	created := resp.GetChangeTrackingCreateEvent()
	if created == nil || created.GetChangeTrackingEvent() == nil {
		return nil, ms, true, restv2.WriteOutcomeUnknown("deployment", deploymentCheck(appID))
	}
	ev := created.GetChangeTrackingEvent()
	d.ID = SurrogateID("deployment", c.AccountID, ev.ChangeTrackingId)
	d.Timestamp = time.UnixMilli(ev.Timestamp).UTC()
	if ev.Entity != nil && ev.Entity.ApplicationId != nil {
		d.ApplicationID = int64(*ev.Entity.ApplicationId)
	}
	if d.ApplicationID != 0 {
		t.st.Deploys.Remember(recentKey(c, d.ApplicationID), d, t.now())
	}
	return &restv2.DeploymentShow{Deployment: d}, ms, false, nil
}

// deploymentCheck is how a caller finds out whether a deployment with an unknown
// outcome was recorded: the list, which shows it only once NRDB has ingested it (this
// replica does not know it was recorded, so cannot merge it in).
func deploymentCheck(appID int64) string {
	path := "GET .../deployments.json"
	if appID != 0 {
		path = "GET /v2/applications/" + strconv.FormatInt(appID, 10) + "/deployments.json"
	}
	return path + " (a new deployment can take a few minutes to be listed)"
}

// writeError maps a failed mutation: answers that may hide an applied write say so.
func writeError(err error, appID int64) error {
	var ge *ng.Error
	if !errors.As(err, &ge) {
		return err
	}
	if !outcomeUnknown(err) && ge.Kind == ng.KindTransport {
		return restv2.BadGateway("Deployment not recorded: New Relic NerdGraph could not be reached; try again later")
	}
	switch ge.Kind {
	case ng.KindTimeout:
		return restv2.WriteTimedOut("deployment", deploymentCheck(appID))
	case ng.KindTransport, ng.KindServer:
		return restv2.WriteOutcomeUnknown("deployment", deploymentCheck(appID))
	case ng.KindInvalid, ng.KindNotFound:
		for _, e := range ge.Errors {
			if strings.Contains(e.Message, "matched 0") || strings.Contains(e.Message, "not found") {
				return ErrApplicationNotFound()
			}
		}
		msg := "rejected by New Relic"
		if len(ge.Errors) > 0 {
			msg = ge.Errors[0].Message
		}
		return restv2.Unprocessable("Deployment not recorded: " + msg)
	}
	return err
}

// Reading deployments back (NRDB limits and how they are read through):
//
//   - A raw NRQL SELECT returns at most 5000 rows (LIMIT MAX), newest first. A busy
//     application can have more deployments in DeploymentWindow; when an answer is
//     full, the next read asks for the rows up to and including the oldest millisecond
//     seen (UNTIL oldest+1 ms), dropping the rows already read, until an answer is not
//     full. At most deploymentReads reads are made; a list cut there, or stuck on more
//     than 5000 deployments in one millisecond, is answered with what was read and
//     declared with CapDeployments (the gateway's X-V2bridge-Degraded header).
//   - Change events reach NRQL some time after NerdGraph acknowledges them (ingest
//     latency). The deployments this replica recorded are remembered for
//     DeploymentMemory per caller and application: they are merged into lists until
//     NRQL returns them (same surrogate id, so never twice) and count as the latest
//     deployment for REST's "later than the most recent deployment" rule.
//   - changeTrackingSearch (actor.changeTracking, filter accountIds/query/timeWindow/
//     limit) is not used: it returns ChangeTrackingEvent rows only, so deployments
//     recorded with changeTrackingCreateDeployment (the Deployment event type) would be
//     missing (newrelic/docs-website src/content/docs/change-tracking/query-data.mdx
//     names deploymentSearch for those); its filter has no cursor, so more than one
//     answer's worth is read by splitting the time window exactly as with NRQL; its
//     answer size is documented only as "1,000 change events per query by default"
//     with no maximum; its query language is documented only by examples (no quoting
//     rules to build it safely from an application guid); and nothing documents that
//     it sees an event sooner than NRQL does, so it would not remove the ingest race.

// deploymentReads bounds the NRQL reads of one deployments list (100,000 rows).
const deploymentReads = 20

// DeploymentMemory is how long a replica remembers the deployments it recorded: far
// longer than NRDB's ingest latency (New Relic's own streaming alerts wait 2 minutes
// for late data by default: docs-website
// src/content/docs/alerts/create-alert/fine-tune/streaming-alerts-key-terms-concepts.mdx).
const DeploymentMemory = 10 * time.Minute

// DeploymentListing is one page of an application's deployments.
type DeploymentListing struct {
	Doc    *restv2.DeploymentList
	Paging Paging
}

// ListDeployments answers GET .../deployments, newest first.
func (t *Translator) ListDeployments(ctx context.Context, c Caller, appID int64, page int) (*DeploymentListing, error) {
	all, err := t.deployments(ctx, c, appID)
	if err != nil {
		return nil, err
	}
	page = max(page, 1)
	items, paging := pageOf(all, page, PageSize)
	return &DeploymentListing{Doc: &restv2.DeploymentList{Deployments: items}, Paging: paging}, nil
}

// checkLaterThanLatest applies REST's rule that a caller's timestamp be later than the
// application's latest deployment: the newest NRQL row or the newest deployment this
// replica recorded, whichever is later (NRQL may not have that one yet).
func (t *Translator) checkLaterThanLatest(ctx context.Context, c Caller, appID int64, ts time.Time) error {
	rows, _, err := t.deploymentRows(ctx, c, appID, t.deploymentsUntil(), 1)
	if err != nil {
		return err
	}
	var latest time.Time
	if len(rows) > 0 {
		latest = rows[0].Timestamp
	}
	recalled, _ := t.st.Deploys.Recalled(recentKey(c, appID), t.now()) // the bound drops the oldest, never the latest
	for _, d := range recalled {
		if d.Timestamp.After(latest) {
			latest = d.Timestamp
		}
	}
	if !latest.IsZero() && !ts.After(latest) {
		return restv2.Unprocessable("deployment.timestamp must be later than the application's most recent deployment (" +
			restv2.FormatTime(latest) + ")")
	}
	return nil
}

func (t *Translator) deploymentsUntil() time.Time {
	return t.now().UTC().Add(time.Minute).Truncate(time.Minute)
}

// deployments reads every deployment of the window (see the notes above), merges the
// ones this replica recorded that NRQL does not have yet, and sorts newest first.
func (t *Translator) deployments(ctx context.Context, c Caller, appID int64) ([]restv2.Deployment, error) {
	until := t.deploymentsUntil()
	since := until.Add(-DeploymentWindow)
	seen := map[string]bool{}
	var out []restv2.Deployment
	for read := 1; ; read++ {
		rows, keys, err := t.deploymentRows(ctx, c, appID, until, MaxFacets)
		if err != nil {
			return nil, err
		}
		for i, d := range rows {
			if !seen[keys[i]] {
				seen[keys[i]] = true
				out = append(out, d)
			}
		}
		if len(rows) < MaxFacets {
			break
		}
		next := rows[len(rows)-1].Timestamp.Add(time.Millisecond)
		if read == deploymentReads || !next.Before(until) || !next.After(since) {
			noteCap(ctx, CapDeployments)
			break
		}
		until = next
	}
	ids := make(map[int64]bool, len(out))
	for _, d := range out {
		ids[d.ID] = true
	}
	recalled, cut := t.st.Deploys.Recalled(recentKey(c, appID), t.now())
	if cut {
		noteCap(ctx, CapRecentDeployments)
	}
	for _, d := range recalled {
		if !ids[d.ID] && !d.Timestamp.Before(since) {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp.After(out[j].Timestamp) })
	return out, nil
}

// deploymentRow is one NRQL row of either event type. Both carry the deployment's
// version in `version`: the Deployment event type documents it (docs-website
// src/data-dictionary/events/Deployment/version.md; there is no `revision`
// attribute), and changeTrackingCreateEvent stores categoryFields.deployment.version
// under it (src/content/docs/change-tracking/change-tracking-events.mdx). A Deployment
// row is identified by deploymentId, a ChangeTrackingEvent row by changeTrackingId.
type deploymentRow struct {
	Timestamp        float64 `json:"timestamp"`
	DeploymentID     *string `json:"deploymentId"`
	ChangeTrackingID *string `json:"changeTrackingId"`
	Version          *string `json:"version"`
	Changelog        *string `json:"changelog"`
	Description      *string `json:"description"`
	User             *string `json:"user"`
}

// deploymentRows reads the newest limit deployments before until (and after
// until-DeploymentWindow-1m), newest first, with a dedup key per row.
func (t *Translator) deploymentRows(ctx context.Context, c Caller, appID int64, until time.Time, limit int) ([]restv2.Deployment, []string, error) {
	return t.deploymentRowsIn(ctx, c, appID, t.deploymentsUntil().Add(-DeploymentWindow), until, limit)
}

// deploymentRowsIn is deploymentRows between since and until.
func (t *Translator) deploymentRowsIn(ctx context.Context, c Caller, appID int64, since, until time.Time, limit int) ([]restv2.Deployment, []string, error) {
	guid := AppGUID(c.AccountID, DomainAPM, appID)
	var n NRQL
	n.Raw("SELECT timestamp, deploymentId, changeTrackingId, version, changelog, description, user FROM ChangeTrackingEvent, Deployment WHERE entity.guid = ").
		Str(guid).Raw(" AND (eventType() = 'Deployment' OR category = 'Deployment') ").Range(since, until)
	if limit >= MaxFacets {
		n.Raw(" LIMIT MAX")
	} else {
		n.Raw(" LIMIT ").Int(int64(limit))
	}
	q, err := n.Build()
	if err != nil {
		return nil, nil, err
	}
	resp, err := ng.Deployments(ctx, t.client, guid, int(c.AccountID), q)
	if err != nil {
		return nil, nil, fmt.Errorf("deployments of %d: %w", appID, err)
	}
	ent := resp.GetActor().GetEntity()
	if ent.GetAccountId() == nil || int64(*ent.GetAccountId()) != c.AccountID {
		return nil, nil, ErrApplicationNotFound()
	}
	acct := resp.GetActor().GetAccount()
	if acct == nil || acct.Deployments == nil {
		return nil, nil, nil
	}
	out := make([]restv2.Deployment, 0, len(acct.Deployments.Results))
	keys := make([]string, 0, len(acct.Deployments.Results))
	for _, raw := range acct.Deployments.Results {
		if raw == nil {
			continue
		}
		var r deploymentRow
		if err := json.Unmarshal(*raw, &r); err != nil {
			return nil, nil, fmt.Errorf("deployment row: %w", err)
		}
		key := deref(r.ChangeTrackingID)
		if r.DeploymentID != nil {
			key = *r.DeploymentID
		}
		dedup := key
		if dedup == "" {
			dedup = string(*raw) // no id: the row itself
		}
		out = append(out, restv2.Deployment{
			ID: SurrogateID("deployment", c.AccountID, key), Revision: deref(r.Version), Changelog: r.Changelog,
			Description: r.Description, User: r.User, ApplicationID: appID,
			Timestamp: time.UnixMilli(int64(r.Timestamp)).UTC(),
		})
		keys = append(keys, dedup)
	}
	return out, keys, nil
}

// recentKey is the deployment ledger's key of c's deployments of appID.
func recentKey(c Caller, appID int64) string {
	return c.cacheKey("deployments", strconv.FormatInt(appID, 10))
}
