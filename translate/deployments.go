package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// DeploymentInput is a deployment to record, as REST v2 received it.
type DeploymentInput struct {
	Revision    string
	Changelog   *string
	Description *string
	User        *string
	// Timestamp is the caller's time (nil: the time the request was received).
	Timestamp *time.Time
	// AppName selects the application by exact name instead of id (legacy v0).
	AppName string
}

// Deployment limits of REST v2 (REFERENCE.md §3.3).
const (
	maxRevision    = 127
	maxChangelog   = 65535
	maxDescription = 65535
	maxUser        = 31
	// DeploymentWindow is how far back deployments are listed (REST listed all
	// history; change events live in NRDB's retention).
	DeploymentWindow = 90 * 24 * time.Hour
)

// Validate applies REST v2's deployment rules before anything is sent; each failure is
// a 422 naming the field.
func (in DeploymentInput) Validate(now time.Time) error {
	bad := func(title string) error { return &v2.Error{Status: 422, Title: title} }
	if strings.TrimSpace(in.Revision) == "" {
		return bad("deployment.revision is required")
	}
	fields := []struct {
		name string
		v    *string
		max  int
	}{{"revision", &in.Revision, maxRevision}, {"changelog", in.Changelog, maxChangelog},
		{"description", in.Description, maxDescription}, {"user", in.User, maxUser}}
	for _, f := range fields {
		if f.v == nil {
			continue
		}
		if !utf8.ValidString(*f.v) {
			return bad(fmt.Sprintf("deployment.%s is not valid UTF-8", f.name))
		}
		if n := utf8.RuneCountInString(*f.v); n > f.max {
			return bad(fmt.Sprintf("deployment.%s is too long: %d characters, at most %d", f.name, n, f.max))
		}
		for _, r := range *f.v {
			if r > 0xFFFF {
				return bad(fmt.Sprintf("deployment.%s contains a 4-byte UTF-8 character (such as an emoji), which is not allowed", f.name))
			}
		}
	}
	if in.Timestamp != nil && in.Timestamp.After(now) {
		return bad("deployment.timestamp is in the future")
	}
	return nil
}

// ParseDeploymentTimestamp reads REST v2's deployment timestamp: ISO 8601, in UTC, to
// the second ("2019-10-08T00:15:36Z" or "...+00:00").
func ParseDeploymentTimestamp(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return t, &v2.Error{Status: 422, Title: "deployment.timestamp must be ISO 8601 in UTC, to the second, such as 2019-10-08T00:15:36Z"}
	}
	if _, off := t.Zone(); off != 0 {
		return t, &v2.Error{Status: 422, Title: "deployment.timestamp must be in UTC (Z or +00:00)"}
	}
	if t.Nanosecond() != 0 {
		return t, &v2.Error{Status: 422, Title: "deployment.timestamp must be given to the second, without fractions"}
	}
	return t.UTC(), nil
}

// ErrWriteOutcomeUnknown is the answer when a write may have reached NerdGraph but no
// answer came back: the gateway never retries it (it may have been applied).
func ErrWriteOutcomeUnknown(status int, what, check string) *v2.Error {
	return &v2.Error{Status: status, Title: "No answer from New Relic NerdGraph; the " + what +
		" may have been recorded. Check with " + check + " before sending it again"}
}

// CreateDeployment records a deployment (never retried; see ErrWriteOutcomeUnknown).
// legacy chooses changeTrackingCreateDeployment over changeTrackingCreateEvent.
func (t *Translator) CreateDeployment(ctx context.Context, c Caller, appID int64, in DeploymentInput, received time.Time, legacy bool) (*v2.DeploymentShow, error) {
	if err := in.Validate(received); err != nil {
		return nil, err
	}
	if in.Timestamp != nil {
		// REST required a caller's timestamp to be later than the latest deployment.
		list, err := t.deployments(ctx, c, appID)
		if err != nil {
			return nil, err
		}
		if len(list) > 0 && !in.Timestamp.After(list[0].Timestamp) {
			return nil, &v2.Error{Status: 422, Title: "deployment.timestamp must be later than the application's most recent deployment (" +
				v2.FormatTime(list[0].Timestamp) + ")"}
		}
	}
	at := received
	if in.Timestamp != nil {
		at = *in.Timestamp
	}
	ms := at.UnixMilli()
	guid := AppGUID(c.AccountID, DomainAPM, appID)
	d := v2.Deployment{Revision: in.Revision, Changelog: in.Changelog, Description: in.Description, User: in.User, ApplicationID: appID}
	if legacy && in.AppName == "" {
		resp, err := ng.DeploymentCreate(ctx, t.client, ng.ChangeTrackingDeploymentInput{
			EntityGuid: guid, Version: in.Revision, Changelog: in.Changelog, Description: in.Description, User: in.User, Timestamp: &ms,
		})
		if err != nil {
			return nil, writeError(err, appID)
		}
		dep := resp.ChangeTrackingCreateDeployment
		if dep == nil {
			return nil, ErrWriteOutcomeUnknown(502, "deployment", "GET .../deployments.json")
		}
		d.ID = SurrogateID("deployment", c.AccountID, deref(dep.DeploymentId))
		d.Timestamp = time.UnixMilli(dep.Timestamp).UTC()
		return &v2.DeploymentShow{Deployment: d}, nil
	}
	var query string
	if in.AppName != "" {
		// Legacy v0 named the application; the search must match exactly one.
		q, err := EntitySearch(c.AccountID, DomainAPM, TypeApp).Eq("name", in.AppName).Build()
		if err != nil {
			return nil, &v2.Error{Status: 422, Title: "Invalid application name: " + err.Error()}
		}
		query = q
	} else {
		q, err := QuoteSearch(guid)
		if err != nil {
			return nil, err
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
		return nil, writeError(err, appID)
	}
	ev := resp.GetChangeTrackingCreateEvent().GetChangeTrackingEvent()
	if ev == nil || *ev == nil {
		return nil, ErrWriteOutcomeUnknown(502, "deployment", "GET .../deployments.json")
	}
	d.ID = SurrogateID("deployment", c.AccountID, (*ev).GetChangeTrackingId())
	d.Timestamp = time.UnixMilli((*ev).GetTimestamp()).UTC()
	if ent := (*ev).GetEntity(); ent != nil && *ent != nil {
		if f, ok := (*ent).(interface{ GetApplicationId() *int }); ok && f.GetApplicationId() != nil {
			d.ApplicationID = int64(*f.GetApplicationId())
		}
	}
	return &v2.DeploymentShow{Deployment: d}, nil
}

// writeError maps a failed mutation: answers that may hide an applied write say so.
func writeError(err error, appID int64) error {
	var ge *ng.Error
	if !errors.As(err, &ge) {
		return err
	}
	switch ge.Kind {
	case ng.KindTimeout:
		return ErrWriteOutcomeUnknown(504, "deployment", "GET /v2/applications/"+fmt.Sprint(appID)+"/deployments.json")
	case ng.KindTransport, ng.KindServer:
		return ErrWriteOutcomeUnknown(502, "deployment", "GET /v2/applications/"+fmt.Sprint(appID)+"/deployments.json")
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
		return &v2.Error{Status: 422, Title: "Deployment not recorded: " + msg}
	}
	return err
}

// ListDeployments answers GET .../deployments, newest first.
func (t *Translator) ListDeployments(ctx context.Context, c Caller, appID int64, page int) (*v2.DeploymentList, Paging, error) {
	all, err := t.deployments(ctx, c, appID)
	if err != nil {
		return nil, Paging{}, err
	}
	page = max(page, 1)
	items, paging := pageOf(all, page, PageSize)
	return &v2.DeploymentList{Deployments: items}, paging, nil
}

func (t *Translator) deployments(ctx context.Context, c Caller, appID int64) ([]v2.Deployment, error) {
	guid := AppGUID(c.AccountID, DomainAPM, appID)
	until := t.now().UTC().Add(time.Minute).Truncate(time.Minute)
	var n NRQL
	n.Raw("SELECT timestamp, deploymentId, changeTrackingId, version, changelog, description, user FROM ChangeTrackingEvent, Deployment WHERE entity.guid = ").
		Str(guid).Raw(" AND (eventType() = 'Deployment' OR category = 'Deployment') ").Range(until.Add(-DeploymentWindow), until).Raw(" LIMIT MAX")
	q, err := n.Build()
	if err != nil {
		return nil, err
	}
	resp, err := ng.Deployments(ctx, t.client, guid, int(c.AccountID), q)
	if err != nil {
		return nil, fmt.Errorf("deployments of %d: %w", appID, err)
	}
	ent := resp.GetActor().GetEntity()
	if ent == nil || *ent == nil || (*ent).GetAccountId() == nil || int64(*(*ent).GetAccountId()) != c.AccountID {
		return nil, ErrApplicationNotFound()
	}
	var out []v2.Deployment
	if acct := resp.GetActor().GetAccount(); acct != nil && acct.Deployments != nil {
		for _, row := range acct.Deployments.Results {
			if row == nil {
				continue
			}
			var r struct {
				Timestamp        float64 `json:"timestamp"`
				DeploymentID     *string `json:"deploymentId"`
				ChangeTrackingID *string `json:"changeTrackingId"`
				Version          string  `json:"version"`
				Changelog        *string `json:"changelog"`
				Description      *string `json:"description"`
				User             *string `json:"user"`
			}
			if err := json.Unmarshal(*row, &r); err != nil {
				return nil, fmt.Errorf("deployment row: %w", err)
			}
			key := deref(r.ChangeTrackingID)
			if r.DeploymentID != nil {
				key = *r.DeploymentID
			}
			out = append(out, v2.Deployment{
				ID: SurrogateID("deployment", c.AccountID, key), Revision: r.Version, Changelog: r.Changelog,
				Description: r.Description, User: r.User, ApplicationID: appID,
				Timestamp: time.UnixMilli(int64(r.Timestamp)).UTC(),
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp.After(out[j].Timestamp) })
	return out, nil
}
