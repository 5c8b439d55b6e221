package v2

import "time"

// Deployment is REST v2's deployment object (REFERENCE.md §4.3).
type Deployment struct {
	ID            int64
	Revision      string
	Changelog     *string
	Description   *string
	User          *string
	Timestamp     time.Time
	ApplicationID int64
}

func optString(e Encoder, name string, v *string) {
	if v == nil {
		e.Null(name)
		return
	}
	e.String(name, *v)
}

// EncodeV2 writes the deployment object.
func (d *Deployment) EncodeV2(e Encoder) {
	e.BeginObject("deployment")
	e.Int("id", d.ID)
	e.String("revision", d.Revision)
	optString(e, "changelog", d.Changelog)
	optString(e, "description", d.Description)
	optString(e, "user", d.User)
	e.String("timestamp", FormatTime(d.Timestamp))
	e.BeginObject("links")
	e.Int("application", d.ApplicationID)
	e.EndObject()
	e.EndObject()
}

func deploymentLinks(e Encoder) {
	e.BeginObject("links")
	e.String("deployment.agent", "/v2/applications/{application_id}")
	e.EndObject()
}

// DeploymentShow is the body of a created deployment.
type DeploymentShow struct{ Deployment Deployment }

// Root is the XML root element.
func (*DeploymentShow) Root() string { return "deployment_response" }

// EncodeV2 writes {"deployment":{...},"links":{...}}.
func (s *DeploymentShow) EncodeV2(e Encoder) {
	s.Deployment.EncodeV2(e)
	deploymentLinks(e)
}

// DeploymentList is the body of GET .../deployments.
type DeploymentList struct{ Deployments []Deployment }

// Root is the XML root element.
func (*DeploymentList) Root() string { return "deployments_response" }

// EncodeV2 writes {"deployments":[...],"links":{...}}.
func (l *DeploymentList) EncodeV2(e Encoder) {
	e.BeginArray("deployments", "deployment")
	for i := range l.Deployments {
		l.Deployments[i].EncodeV2(e)
	}
	e.EndArray()
	deploymentLinks(e)
}

// BrowserApplication is REST v2's browser application (REFERENCE.md §4.5).
type BrowserApplication struct {
	ID                   int64
	Name                 string
	BrowserMonitoringKey string
	LoaderScript         string
}

// EncodeV2 writes the browser application object.
func (b *BrowserApplication) EncodeV2(e Encoder) {
	e.BeginObject("browser_application")
	e.Int("id", b.ID)
	e.String("name", b.Name)
	e.String("browser_monitoring_key", b.BrowserMonitoringKey)
	e.String("loader_script", b.LoaderScript)
	e.EndObject()
}

// BrowserApplicationList is the body of GET /v2/browser_applications.
type BrowserApplicationList struct{ Applications []BrowserApplication }

// Root is the XML root element.
func (*BrowserApplicationList) Root() string { return "browser_applications_response" }

// EncodeV2 writes {"browser_applications":[...]}.
func (l *BrowserApplicationList) EncodeV2(e Encoder) {
	e.BeginArray("browser_applications", "browser_application")
	for i := range l.Applications {
		l.Applications[i].EncodeV2(e)
	}
	e.EndArray()
}

// BrowserApplicationShow is the body of POST /v2/browser_applications.
type BrowserApplicationShow struct{ Application BrowserApplication }

// Root is the XML root element.
func (*BrowserApplicationShow) Root() string { return "browser_application_response" }

// EncodeV2 writes {"browser_application":{...}}.
func (s *BrowserApplicationShow) EncodeV2(e Encoder) { s.Application.EncodeV2(e) }
