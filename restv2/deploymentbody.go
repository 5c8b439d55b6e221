package restv2

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
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
	// IdempotencyKey is the caller's Idempotency-Key header ("": none), not REST's: the
	// gateway's tool for retrying a write safely.
	IdempotencyKey string
}

// Deployment limits of REST v2: the longest revision, changelog, description and user it
// accepted.
const (
	maxRevision    = 127
	maxChangelog   = 65535
	maxDescription = 65535
	maxUser        = 31
)

// Validate applies REST v2's deployment rules before anything is sent; each failure is
// a 422 naming the field.
func (in DeploymentInput) Validate(now time.Time) error {
	bad := func(title string) error { return Unprocessable(title) }
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
		return t, Unprocessable("deployment.timestamp must be ISO 8601 in UTC, to the second, such as 2019-10-08T00:15:36Z")
	}
	if _, off := t.Zone(); off != 0 {
		return t, Unprocessable("deployment.timestamp must be in UTC (Z or +00:00)")
	}
	if t.Nanosecond() != 0 {
		return t, Unprocessable("deployment.timestamp must be given to the second, without fractions")
	}
	return t.UTC(), nil
}

// deploymentBody is {"deployment":{...}} (JSON) or <deployment>...</deployment> (XML);
// unknown fields are ignored, as REST v2 did.
type deploymentBody struct {
	Deployment *deploymentFields `json:"deployment"`
}

type deploymentFields struct {
	Revision    *string `json:"revision" xml:"revision"`
	Changelog   *string `json:"changelog" xml:"changelog"`
	Description *string `json:"description" xml:"description"`
	User        *string `json:"user" xml:"user"`
	Timestamp   *string `json:"timestamp" xml:"timestamp"`
}

// DecodeDeployment reads a deployment create: form parameters deployment[revision], ...
// (from p, when the body is empty or a form, IsFormBody), XML (a body that starts with
// '<') or JSON. The rules of Validate are not
// applied here: they need the time the request was received.
func DecodeDeployment(body []byte, contentType string, p Params) (DeploymentInput, error) {
	var in DeploymentInput
	body = bytes.TrimSpace(body)
	var b deploymentBody
	switch {
	case len(body) == 0 || IsFormBody(contentType, body):
		get := func(k string) *string {
			if v, ok := p.Get("deployment[" + k + "]"); ok {
				return &v
			}
			return nil
		}
		b.Deployment = &deploymentFields{get("revision"), get("changelog"), get("description"), get("user"), get("timestamp")}
	case body[0] == '<':
		var x struct {
			XMLName xml.Name `xml:"deployment"`
			deploymentFields
		}
		if err := xml.Unmarshal(body, &x); err != nil {
			return in, BadRequest("The request body is not a valid <deployment> XML document: " + err.Error())
		}
		b.Deployment = &x.deploymentFields
	default:
		if err := DecodeJSON(body, &b); err != nil {
			return in, bodyError(body, err, "The deployment has a value of the wrong kind")
		}
	}
	if b.Deployment == nil {
		return in, Unprocessable(`The request body needs a "deployment" object`)
	}
	d := b.Deployment
	if d.Revision != nil {
		in.Revision = *d.Revision
	}
	in.Changelog, in.Description, in.User = d.Changelog, d.Description, d.User
	if d.Timestamp != nil && *d.Timestamp != "" {
		ts, err := ParseDeploymentTimestamp(*d.Timestamp)
		if err != nil {
			return in, err
		}
		in.Timestamp = &ts
	}
	return in, nil
}
