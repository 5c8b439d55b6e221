package restv2

import (
	"math"
	"strconv"
)

// An application page (GET /v2/applications.json: 200 applications, about 75 members
// each) was a fifth of the page's CPU in the generic JSON encoder, most of it the
// encoder's per-member work: an interface call, the separator and container state,
// the member name quoted again. applicationListJSON and applicationShowJSON write the
// same bytes as EncodeV2 through the generic encoder (TestApplicationsJSONMatchesGeneric
// compares them on varied applications) with each run of constant bytes, names and
// punctuation, written at once. BenchmarkRenderApplicationList measures both.

// applicationListJSON is JSON(dst, l).
func applicationListJSON(b []byte, l *ApplicationList) []byte {
	b = append(b, `{"applications":[`...)
	for i := range l.Applications {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendApplication(b, &l.Applications[i])
	}
	b = append(b, ']')
	if !l.ExcludeLinks {
		b = appendApplicationLinks(b)
	}
	return append(b, '}')
}

// applicationShowJSON is JSON(dst, s).
func applicationShowJSON(b []byte, s *ApplicationShow) []byte {
	b = append(b, `{"application":`...)
	b = appendApplication(b, &s.Application)
	b = appendApplicationLinks(b)
	return append(b, '}')
}

// appendApplicationLinks appends the top-level links member.
func appendApplicationLinks(b []byte) []byte {
	b = append(b, `,"links":{`...)
	for i, kv := range ApplicationLinkTemplates() {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, kv[0])
		b = append(b, ':')
		b = appendJSONString(b, kv[1])
	}
	return append(b, '}')
}

// appendApplication appends the application object, as Application.EncodeV2 writes it.
func appendApplication(b []byte, a *Application) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, a.ID, 10)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, a.Name)
	b = append(b, `,"language":`...)
	b = appendJSONString(b, a.Language)
	b = append(b, `,"health_status":`...)
	b = appendJSONString(b, a.HealthStatus)
	b = append(b, `,"reporting":`...)
	b = strconv.AppendBool(b, a.Reporting)
	if a.LastReportedAt != nil {
		b = append(b, `,"last_reported_at":"`...)
		b = appendTime(b, *a.LastReportedAt)
		b = append(b, '"')
	}
	if s := a.Summary; s != nil {
		b = append(b, `,"application_summary":{"response_time":`...)
		b = appendJSONFloat(b, s.ResponseTime)
		b = append(b, `,"throughput":`...)
		b = appendJSONFloat(b, s.Throughput)
		b = append(b, `,"error_rate":`...)
		b = appendJSONFloat(b, s.ErrorRate)
		b = append(b, `,"apdex_target":`...)
		b = appendJSONFloat(b, s.ApdexTarget)
		b = append(b, `,"apdex_score":`...)
		b = appendJSONFloat(b, s.ApdexScore)
		b = append(b, `,"host_count":`...)
		b = strconv.AppendInt(b, s.HostCount, 10)
		b = append(b, `,"instance_count":`...)
		b = strconv.AppendInt(b, s.InstanceCount, 10)
		b = append(b, '}')
	}
	if u := a.EndUser; u != nil {
		b = append(b, `,"end_user_summary":{"response_time":`...)
		b = appendJSONFloat(b, u.ResponseTime)
		b = append(b, `,"throughput":`...)
		b = appendJSONFloat(b, u.Throughput)
		b = append(b, `,"apdex_target":`...)
		b = appendJSONFloat(b, u.ApdexTarget)
		b = append(b, `,"apdex_score":null}`...)
	}
	b = append(b, `,"settings":{"app_apdex_threshold":`...)
	b = appendJSONFloat(b, a.Settings.AppApdexThreshold)
	b = append(b, `,"end_user_apdex_threshold":`...)
	b = appendJSONFloat(b, a.Settings.EndUserApdex())
	b = append(b, `,"enable_real_user_monitoring":`...)
	b = strconv.AppendBool(b, a.Settings.EnableRealUserMonitoring)
	b = append(b, `,"use_server_side_config":`...)
	b = strconv.AppendBool(b, a.Settings.UseServerSideConfig)
	b = append(b, '}')
	if l := a.Links; l != nil {
		b = append(b, `,"links":{"application_instances":`...)
		b = appendIDs(b, l.ApplicationInstances)
		b = append(b, `,"servers":[],"application_hosts":`...)
		b = appendIDs(b, l.ApplicationHosts)
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendIDs appends ids as a JSON array.
func appendIDs(b []byte, ids []int64) []byte {
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return append(b, ']')
}

// appendJSONFloat appends v as jsonEncoder.Float writes it: null for NaN and the
// infinities, 0 for -0.
func appendJSONFloat(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	if v == 0 {
		v = 0 // -0 → 0
	}
	return appendFloat(b, v)
}
