package restv2

import "time"

// Deployment is REST v2's deployment object.
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
	// The specification's deployment object: changelog is "string or absent",
	// description "string or null" (no recorded answer shows either missing).
	if d.Changelog != nil {
		e.String("changelog", *d.Changelog)
	}
	optString(e, "description", d.Description)
	optString(e, "user", d.User)
	e.Time("timestamp", d.Timestamp)
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

// BrowserApplication is REST v2's browser application.
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

// MobileApplication is REST v2's mobile application.
type MobileApplication struct {
	ID           int64
	Name         string
	HealthStatus string
	Reporting    bool
	Summary      *MobileSummary
	Crash        *CrashSummary
	// ApplicationToken is only in the answer to a create (the agent needs it).
	ApplicationToken *string
}

// MobileSummary is mobile_summary (response time in ms, throughput in requests a minute).
type MobileSummary struct {
	LaunchCount     int64
	Throughput      float64
	ResponseTime    float64
	CallsPerSession float64
	FailedCallRate  float64
	RemoteErrorRate float64
}

// CrashSummary is crash_summary.
type CrashSummary struct {
	SupportsCrashData bool
	CrashCount        int64
	CrashRate         float64
}

// EncodeV2 writes the mobile application object.
func (m *MobileApplication) EncodeV2(e Encoder) {
	e.BeginObject("mobile_application")
	e.Int("id", m.ID)
	e.String("name", m.Name)
	e.String("health_status", m.HealthStatus)
	e.Bool("reporting", m.Reporting)
	if s := m.Summary; s != nil {
		// active_users, interaction_time and unresolved_crash_count: REST's recorded
		// mobile application has them (ambitioninc/newrelic-api
		// newrelic_api/tests/mobile_applications_tests.py @ 7ba801ff); NerdGraph's
		// mobileSummary does not.
		e.BeginObject("mobile_summary")
		e.Null("active_users")
		e.Int("launch_count", s.LaunchCount)
		e.Float("throughput", s.Throughput)
		e.Float("response_time", s.ResponseTime)
		e.Float("calls_per_session", s.CallsPerSession)
		e.Null("interaction_time")
		e.Float("failed_call_rate", s.FailedCallRate)
		e.Float("remote_error_rate", s.RemoteErrorRate)
		e.EndObject()
	}
	if c := m.Crash; c != nil {
		e.BeginObject("crash_summary")
		e.Bool("supports_crash_data", c.SupportsCrashData)
		e.Null("unresolved_crash_count")
		e.Int("crash_count", c.CrashCount)
		e.Float("crash_rate", c.CrashRate)
		e.EndObject()
	}
	if m.ApplicationToken != nil {
		e.String("application_token", *m.ApplicationToken)
	}
	e.EndObject()
}

// MobileApplicationList is the body of GET /v2/mobile_applications.
type MobileApplicationList struct{ Applications []MobileApplication }

// Root is the XML root element.
func (*MobileApplicationList) Root() string { return "mobile_applications_response" }

// EncodeV2 writes {"mobile_applications":[...]}.
func (l *MobileApplicationList) EncodeV2(e Encoder) {
	e.BeginArray("mobile_applications", "mobile_application")
	for i := range l.Applications {
		l.Applications[i].EncodeV2(e)
	}
	e.EndArray()
}

// MobileApplicationShow is the body of GET (and POST) /v2/mobile_applications/{id}.
type MobileApplicationShow struct{ Application MobileApplication }

// Root is the XML root element.
func (*MobileApplicationShow) Root() string { return "mobile_application_response" }

// EncodeV2 writes {"mobile_application":{...}}.
func (s *MobileApplicationShow) EncodeV2(e Encoder) { s.Application.EncodeV2(e) }

// Policy is REST v2's alert policy. created_at/updated_at (epoch milliseconds in
// newrelic/newrelic-client-go pkg/alerts/policies_test.go
// @ f3da608ac5b1dc8eeda23aee0a7e7ad009ad1055, list, show, create, update and delete
// alike) are not exposed by NerdGraph: null.
type Policy struct {
	ID                 int64
	IncidentPreference string
	Name               string
}

// EncodeV2 writes the policy object.
func (p *Policy) EncodeV2(e Encoder) {
	e.BeginObject("policy")
	e.Int("id", p.ID)
	e.String("incident_preference", p.IncidentPreference)
	e.String("name", p.Name)
	e.Null("created_at")
	e.Null("updated_at")
	e.EndObject()
}

// PolicyList is the body of GET /v2/alerts_policies.
type PolicyList struct{ Policies []Policy }

// Root is the XML root element.
func (*PolicyList) Root() string { return "policies_response" }

// EncodeV2 writes {"policies":[...]}.
func (l *PolicyList) EncodeV2(e Encoder) {
	e.BeginArray("policies", "policy")
	for i := range l.Policies {
		l.Policies[i].EncodeV2(e)
	}
	e.EndArray()
}

// PolicyShow is the body of a created, updated or deleted policy.
type PolicyShow struct{ Policy Policy }

// Root is the XML root element.
func (*PolicyShow) Root() string { return "policy_response" }

// EncodeV2 writes {"policy":{...}}.
func (s *PolicyShow) EncodeV2(e Encoder) { s.Policy.EncodeV2(e) }

// Violation is REST v2's alert violation (alerts times are epoch milliseconds).
type Violation struct {
	ID            int64
	Label         string
	Duration      int64 // seconds
	PolicyName    string
	ConditionName string
	Priority      string
	OpenedAt      int64
	ClosedAt      *int64
	EntityProduct string
	EntityType    string
	EntityID      int64
	EntityName    string
	PolicyID      int64
	ConditionID   int64
}

// EncodeV2 writes the violation object.
func (v *Violation) EncodeV2(e Encoder) {
	e.BeginObject("violation")
	e.Int("id", v.ID)
	e.String("label", v.Label)
	e.Int("duration", v.Duration)
	e.String("policy_name", v.PolicyName)
	e.String("condition_name", v.ConditionName)
	e.String("priority", v.Priority)
	e.Int("opened_at", v.OpenedAt)
	if v.ClosedAt != nil {
		e.Int("closed_at", *v.ClosedAt)
	}
	e.BeginObject("entity")
	e.String("product", v.EntityProduct)
	e.String("type", v.EntityType)
	// REST's entity carried the legacy group_id (ambitioninc/newrelic-api
	// newrelic_api/tests/alert_violations_tests.py
	// @ 7e8439e581c71fb13eaa510044067dfd0387ec40); NerdGraph has no such field.
	e.Null("group_id")
	e.Int("id", v.EntityID)
	e.String("name", v.EntityName)
	e.EndObject()
	e.BeginObject("links")
	e.Int("policy_id", v.PolicyID)
	e.Int("condition_id", v.ConditionID)
	e.EndObject()
	e.EndObject()
}

// ViolationList is the body of GET /v2/alerts_violations.
type ViolationList struct{ Violations []Violation }

// Root is the XML root element.
func (*ViolationList) Root() string { return "violations_response" }

// EncodeV2 writes {"violations":[...]}.
func (l *ViolationList) EncodeV2(e Encoder) {
	e.BeginArray("violations", "violation")
	for i := range l.Violations {
		l.Violations[i].EncodeV2(e)
	}
	e.EndArray()
}

// Incident is REST v2's alert incident (epoch-millisecond times).
type Incident struct {
	ID                 int64
	OpenedAt           int64
	ClosedAt           *int64
	IncidentPreference string
	PolicyID           int64
	Violations         []int64
	ExcludeViolations  bool
}

// EncodeV2 writes the incident object.
func (i *Incident) EncodeV2(e Encoder) {
	e.BeginObject("incident")
	e.Int("id", i.ID)
	e.Int("opened_at", i.OpenedAt)
	if i.ClosedAt != nil {
		e.Int("closed_at", *i.ClosedAt)
	}
	if i.IncidentPreference != "" {
		e.String("incident_preference", i.IncidentPreference)
	}
	e.BeginObject("links")
	if !i.ExcludeViolations {
		encodeIDs(e, "violations", "violation", i.Violations)
	}
	e.Int("policy_id", i.PolicyID)
	e.EndObject()
	e.EndObject()
}

// IncidentList is the body of GET /v2/alerts_incidents.
type IncidentList struct{ Incidents []Incident }

// Root is the XML root element.
func (*IncidentList) Root() string { return "incidents_response" }

// EncodeV2 writes {"incidents":[...]}.
func (l *IncidentList) EncodeV2(e Encoder) {
	e.BeginArray("incidents", "incident")
	for i := range l.Incidents {
		l.Incidents[i].EncodeV2(e)
	}
	e.EndArray()
}
