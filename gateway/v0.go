package gateway

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
)

const v0ContentType = "application/xml; charset=utf-8"

// handleDeploymentV0 serves the legacy POST /deployments.xml that Capistrano, the Ruby
// agent's `newrelic deployments`, pyrelic and CI scripts send.
func handleDeploymentV0(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	p := rq.params
	field := func(k string) (string, bool) {
		if v, ok := p.Get("deployment[" + k + "]"); ok {
			return v, true
		}
		return p.Get(k) // PowerShell scripts send them unprefixed
	}
	opt := func(k string) *string {
		if v, ok := field(k); ok && v != "" {
			return &v
		}
		return nil
	}
	received := g.now().UTC().Truncate(time.Millisecond)
	in := restv2.DeploymentInput{Changelog: opt("changelog"), Description: opt("description"), User: opt("user")}
	in.Revision, _ = field("revision")
	if in.Revision == "" {
		in.Revision = received.Format(time.RFC3339)
	}
	var appID int64
	name, hasName := field("app_name")
	idText, hasID := field("application_id")
	switch {
	case hasID && idText != "":
		// The Ruby agent puts the application *name* in application_id.
		if n, err := strconv.ParseInt(idText, 10, 64); err == nil && n > 0 {
			appID = n
		} else {
			in.AppName = idText
		}
	case hasName && name != "":
		in.AppName = name
	default:
		return nil, restv2.Unprocessable("Deployment not recorded: give deployment[app_name] or deployment[application_id]")
	}
	key, err := idempotencyKey(rq)
	if err != nil {
		return nil, err
	}
	in.IdempotencyKey = key
	show, err := g.tr.CreateDeployment(ctx, rq.caller, appID, in, received, g.cfg.UseCreateDeployment)
	if err != nil {
		var ve *restv2.Error
		if errors.As(err, &ve) && ve.Status == restv2.StatusNotFound {
			app := in.AppName
			if app == "" {
				app = strconv.FormatInt(appID, 10)
			}
			return nil, restv2.NotFound("Deployment not recorded: Application " + app + " does not exist.")
		}
		return nil, err
	}
	d := show.Deployment
	if d.ApplicationID == 0 {
		d.ApplicationID = appID
	}
	return &result{status: restv2.StatusCreated, raw: v0Deployment(rq.caller.AccountID, d), rawType: v0ContentType}, nil
}

// v0Deployment renders the v0 answer: Rails-style typed, dasherized XML.
func v0Deployment(accountID int64, d restv2.Deployment) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<deployment>\n")
	typed := func(name, typ, v string) {
		b.WriteString("  <" + name + ` type="` + typ + `">` + v + "</" + name + ">\n")
	}
	text := func(name string, v *string) {
		if v == nil {
			b.WriteString("  <" + name + ` nil="true"></` + name + ">\n")
			return
		}
		b.WriteString("  <" + name + ">")
		_ = xml.EscapeText(&b, []byte(*v))
		b.WriteString("</" + name + ">\n")
	}
	typed("account-id", "integer", strconv.FormatInt(accountID, 10))
	typed("agent-id", "integer", strconv.FormatInt(d.ApplicationID, 10))
	text("changelog", d.Changelog)
	text("description", d.Description)
	typed("id", "integer", strconv.FormatInt(d.ID, 10))
	text("revision", &d.Revision)
	typed("timestamp", "datetime", restv2.FormatTime(d.Timestamp))
	text("user", d.User)
	b.WriteString("</deployment>\n")
	return b.Bytes()
}

// writeV0Error answers a legacy route's failure as <errors><error>...</error></errors>.
func (g *Gateway) writeV0Error(w http.ResponseWriter, r *http.Request, err error) {
	ve, cause := v2Error(err)
	if cause != nil && restv2.IsServerError(ve.Status) {
		if st := stateFrom(r.Context()); st != nil && st.internal == nil {
			st.internal = cause
		}
	}
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<errors>\n  <error>")
	title := ve.Title
	if !strings.HasPrefix(title, "Deployment not recorded") && ve.Status != restv2.StatusUnauthorized {
		title = "Deployment not recorded: " + title
	}
	_ = xml.EscapeText(&b, []byte(title))
	b.WriteString("</error>\n</errors>\n")
	if (ve.Status == restv2.StatusTooManyRequests || ve.Status == restv2.StatusServiceUnavailable) && w.Header().Get("Retry-After") == "" {
		secs := int(retryAfterOf(err).Round(time.Second) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	}
	g.writeRaw(w, r, ve.Status, v0ContentType, b.Bytes())
}
