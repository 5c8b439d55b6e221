package restv2

import "time"

// TimeLayout is REST v2's timestamp style: UTC with a numeric offset, never "Z", no
// fractional seconds ("2019-12-11T19:09:10+00:00").
const TimeLayout = "2006-01-02T15:04:05-07:00"

// FormatTime renders t in TimeLayout, in UTC.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// Application is REST v2's APM application object.
type Application struct {
	ID           int64
	Name         string
	Language     string
	HealthStatus string
	Reporting    bool
	// LastReportedAt is omitted when nil (always for non-reporting applications).
	LastReportedAt *time.Time
	// Summary is omitted when nil (non-reporting applications).
	Summary *ApplicationSummary
	// EndUser is omitted when nil (no browser monitoring).
	EndUser  *EndUserSummary
	Settings ApplicationSettings
	// Links is omitted when nil (exclude_links=true).
	Links *ApplicationLinks
}

// ApplicationSummary is application_summary: response time in ms, throughput in rpm.
type ApplicationSummary struct {
	ResponseTime  float64
	Throughput    float64
	ErrorRate     float64
	ApdexTarget   float64
	ApdexScore    float64
	HostCount     int64
	InstanceCount int64
}

// EndUserSummary is end_user_summary (browser): response time in seconds.
type EndUserSummary struct {
	ResponseTime float64
	Throughput   float64
	ApdexTarget  float64
}

// DefaultEndUserApdexThreshold is settings.end_user_apdex_threshold of an application
// without browser monitoring: REST v2 answered 7 (seconds) there, as recorded with
// enable_real_user_monitoring false in statianzo/hubot-newrelic2 test/samples/apps.coffee
// @ 5a2a2b0c5126c341a31e4358e18eea05c25412c2 (both applications).
const DefaultEndUserApdexThreshold = 7.0

// ApplicationSettings is settings; EndUserApdexThreshold is nil when there is no
// browser application to read it from, and then written as
// DefaultEndUserApdexThreshold.
type ApplicationSettings struct {
	AppApdexThreshold        float64
	EndUserApdexThreshold    *float64
	EnableRealUserMonitoring bool
	UseServerSideConfig      bool
}

// EndUserApdex is the end user Apdex threshold REST showed: the browser application's,
// else DefaultEndUserApdexThreshold.
func (s *ApplicationSettings) EndUserApdex() float64 {
	if s.EndUserApdexThreshold != nil {
		return *s.EndUserApdexThreshold
	}
	return DefaultEndUserApdexThreshold
}

// ApplicationLinks is links: instance and host ids.
type ApplicationLinks struct {
	ApplicationInstances []int64
	ApplicationHosts     []int64
}

// EncodeV2 writes the object's fields in REST v2's order.
func (a *Application) EncodeV2(e Encoder) {
	e.BeginObject("application")
	e.Int("id", a.ID)
	e.String("name", a.Name)
	e.String("language", a.Language)
	e.String("health_status", a.HealthStatus)
	e.Bool("reporting", a.Reporting)
	if a.LastReportedAt != nil {
		e.Time("last_reported_at", *a.LastReportedAt)
	}
	if s := a.Summary; s != nil {
		e.BeginObject("application_summary")
		e.Float("response_time", s.ResponseTime)
		e.Float("throughput", s.Throughput)
		e.Float("error_rate", s.ErrorRate)
		e.Float("apdex_target", s.ApdexTarget)
		e.Float("apdex_score", s.ApdexScore)
		e.Int("host_count", s.HostCount)
		e.Int("instance_count", s.InstanceCount)
		e.EndObject()
	}
	if u := a.EndUser; u != nil {
		e.BeginObject("end_user_summary")
		e.Float("response_time", u.ResponseTime)
		e.Float("throughput", u.Throughput)
		e.Float("apdex_target", u.ApdexTarget)
		// NerdGraph's apmBrowserSummary has no Apdex score; REST's had one
		// (tests/testdata/restv2/application_show.json).
		e.Null("apdex_score")
		e.EndObject()
	}
	e.BeginObject("settings")
	e.Float("app_apdex_threshold", a.Settings.AppApdexThreshold)
	e.Float("end_user_apdex_threshold", a.Settings.EndUserApdex())
	e.Bool("enable_real_user_monitoring", a.Settings.EnableRealUserMonitoring)
	e.Bool("use_server_side_config", a.Settings.UseServerSideConfig)
	e.EndObject()
	if l := a.Links; l != nil {
		e.BeginObject("links")
		encodeIDs(e, "application_instances", "application_instance", l.ApplicationInstances)
		encodeIDs(e, "servers", "server", nil)
		encodeIDs(e, "application_hosts", "application_host", l.ApplicationHosts)
		e.EndObject()
	}
	e.EndObject()
}

func encodeIDs(e Encoder, name, item string, ids []int64) {
	e.BeginArray(name, item)
	for _, id := range ids {
		e.Int(item, id)
	}
	e.EndArray()
}

// applicationLinkTemplates are the URL templates REST v2 put in the top-level links
// object of application responses (including its "/v2/application/" typo).
var applicationLinkTemplates = [...][2]string{
	{"application.application_host", "/v2/application/{application_id}/hosts/{host_id}"},
	{"application.application_hosts", "/v2/application/{application_id}/hosts?ids={host_ids}"},
	{"application.application_instance", "/v2/application/{application_id}/instances/{instance_id}"},
	{"application.application_instances", "/v2/application/{application_id}/instances?ids={instance_ids}"},
	{"application.server", "/v2/servers/{server_id}"},
	{"application.servers", "/v2/servers?ids={server_ids}"},
}

// ApplicationLinkTemplates are the top-level links of application responses, as (name,
// URL template) pairs in REST v2's order (a copy: the direct JSON writer,
// application_json.go, writes them as encodeApplicationLinkTemplates does).
func ApplicationLinkTemplates() [6][2]string { return applicationLinkTemplates }

func encodeApplicationLinkTemplates(e Encoder) {
	e.BeginObject("links")
	for _, kv := range applicationLinkTemplates {
		e.String(kv[0], kv[1])
	}
	e.EndObject()
}

// ApplicationList is the body of GET /v2/applications.
type ApplicationList struct {
	Applications []Application
	// ExcludeLinks drops the per-application and top-level links (exclude_links=true).
	ExcludeLinks bool
}

// Root is the XML root element.
func (*ApplicationList) Root() string { return "applications_response" }

// EncodeV2 writes {"applications":[...],"links":{...}}.
func (l *ApplicationList) EncodeV2(e Encoder) {
	e.BeginArray("applications", "application")
	for i := range l.Applications {
		l.Applications[i].EncodeV2(e)
	}
	e.EndArray()
	if !l.ExcludeLinks {
		encodeApplicationLinkTemplates(e)
	}
}

// ApplicationShow is the body of GET/PUT/DELETE /v2/applications/{id}.
type ApplicationShow struct {
	Application Application
	// RenderMemo keeps the rendered bytes of a show served from the entity cache.
	RenderMemo
}

// Root is the XML root element.
func (*ApplicationShow) Root() string { return "application_response" }

// EncodeV2 writes {"application":{...},"links":{...}}.
func (s *ApplicationShow) EncodeV2(e Encoder) {
	s.Application.EncodeV2(e)
	encodeApplicationLinkTemplates(e)
}

// HostSummary is application_summary of a host or instance.
type HostSummary struct {
	ResponseTime  float64
	Throughput    float64
	ErrorRate     float64
	ApdexScore    float64
	InstanceCount int64
}

// ApplicationHost is REST v2's application host; as an instance
// (Instance true) it also names its host link instead of instance links.
type ApplicationHost struct {
	ID              int64
	ApplicationName string
	Host            string
	Language        string
	HealthStatus    string
	Summary         HostSummary
	ApplicationID   int64
	InstanceIDs     []int64 // hosts
	HostID          int64   // instances
	Instance        bool
}

// EncodeV2 writes the host or instance object.
func (h *ApplicationHost) EncodeV2(e Encoder) {
	name := "application_host"
	if h.Instance {
		name = "application_instance"
	}
	e.BeginObject(name)
	e.Int("id", h.ID)
	e.String("application_name", h.ApplicationName)
	e.String("host", h.Host)
	e.String("language", h.Language)
	if h.Instance {
		// REST's instance carried its port (tests/testdata/restv2/application_instance_show.json,
		// and the instances test of ambitioninc/newrelic-api cited below); NerdGraph's
		// instance details have none.
		e.Null("port")
	}
	e.String("health_status", h.HealthStatus)
	e.BeginObject("application_summary")
	e.Float("response_time", h.Summary.ResponseTime)
	e.Float("throughput", h.Summary.Throughput)
	e.Float("error_rate", h.Summary.ErrorRate)
	e.Float("apdex_score", h.Summary.ApdexScore)
	e.Int("instance_count", h.Summary.InstanceCount)
	e.EndObject()
	e.BeginObject("links")
	e.Int("application", h.ApplicationID)
	if h.Instance {
		e.Int("application_host", h.HostID)
	} else {
		encodeIDs(e, "application_instances", "application_instance", h.InstanceIDs)
	}
	// links.server named the retired Servers product's server
	// (tests/testdata/restv2/application_hosts_list.json; for instances
	// ambitioninc/newrelic-api newrelic_api/tests/application_instances_tests.py
	// @ 18ff4409ba59c8e2b49302f4a723aef4cb711d8b): none now.
	e.Null("server")
	e.EndObject()
	e.EndObject()
}

func hostLinkTemplates(e Encoder, instance bool) {
	e.BeginObject("links")
	// As REST v2 wrote them, typos included ("/v2/application/", "{instance_id}").
	if instance {
		e.String("application_instance.application", "/v2/applications/{application_id}")
		e.String("application_instance.application_host", "/v2/application/{application_id}/hosts/{instance_id}")
		e.String("application_instance.server", "/v2/servers/{server_id}")
	} else {
		e.String("application_host.application", "/v2/applications/{application_id}")
		e.String("application_host.application_instances", "/v2/application/{application_id}/instances?ids={instance_ids}")
		e.String("application_host.application_instance", "/v2/application/{application_id}/instances/{instance_id}")
		e.String("application_host.server", "/v2/servers/{server_id}")
	}
	e.EndObject()
}

// ApplicationHostList is the body of GET .../hosts or .../instances.
type ApplicationHostList struct {
	Hosts    []ApplicationHost
	Instance bool
}

// Root is the XML root element.
func (l *ApplicationHostList) Root() string {
	if l.Instance {
		return "application_instances_response"
	}
	return "application_hosts_response"
}

// EncodeV2 writes {"application_hosts":[...],"links":{...}}.
func (l *ApplicationHostList) EncodeV2(e Encoder) {
	if l.Instance {
		e.BeginArray("application_instances", "application_instance")
	} else {
		e.BeginArray("application_hosts", "application_host")
	}
	for i := range l.Hosts {
		l.Hosts[i].EncodeV2(e)
	}
	e.EndArray()
	hostLinkTemplates(e, l.Instance)
}

// ApplicationHostShow is the body of GET .../hosts/{id} or .../instances/{id}.
type ApplicationHostShow struct {
	Host ApplicationHost
}

// Root is the XML root element.
func (s *ApplicationHostShow) Root() string {
	if s.Host.Instance {
		return "application_instance_response"
	}
	return "application_host_response"
}

// EncodeV2 writes {"application_host":{...},"links":{...}}.
func (s *ApplicationHostShow) EncodeV2(e Encoder) {
	s.Host.EncodeV2(e)
	hostLinkTemplates(e, s.Host.Instance)
}
