package translate

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	gq "github.com/v2bridge/v2bridge/graphql"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// TestApplicationFiguresAsREST: an application's summary shows NerdGraph's figures as
// REST did (figures.go): three significant digits, Apdex two decimals; the counts and
// the configured Apdex targets as they are.
func TestApplicationFiguresAsREST(t *testing.T) {
	target, endTarget := 0.4375, 7.0
	o := &ng.ApmOutline{Typename: json.RawMessage(`"ApmApplicationEntityOutline"`), Guid: AppGUID(1, DomainAPM, 7), AccountId: 1, ApplicationId: 7,
		Name: "shop", Reporting: true, Language: json.RawMessage(`"go"`), Settings: &ng.OutlineSettings{ApdexTarget: target},
		ApmSummary: &ng.OutlineSummary{WebResponseTimeAverage: 0.30412, WebThroughput: 4567.8, ErrorRate: 0.161812,
			ApdexScore: 0.97435, HostCount: 3, InstanceCount: 12345},
		ApmBrowserSummary: &ng.OutlineBrowserStats{PageLoadTimeAverage: 3.7312, PageLoadThroughput: 1.0 / 3}}
	a := buildApplication(o, 1, &browserInfo{apdexTarget: &endTarget, appID: 7}, nil, true, false, newAppArena(1))
	want := restv2.ApplicationSummary{ResponseTime: 304, Throughput: 4570, ErrorRate: 0.162, ApdexTarget: target, ApdexScore: 0.97,
		HostCount: 3, InstanceCount: 12345}
	if a.Summary == nil || *a.Summary != want {
		t.Errorf("application_summary %+v, want %+v", a.Summary, want)
	}
	if u := a.EndUser; u == nil || *u != (restv2.EndUserSummary{ResponseTime: 3.73, Throughput: 0.333, ApdexTarget: 7}) {
		t.Errorf("end_user_summary %+v, want 3.73, 0.333, 7", u)
	}
	if a.Settings.AppApdexThreshold != target {
		t.Errorf("app_apdex_threshold %v, want %v as configured", a.Settings.AppApdexThreshold, target)
	}
}

// TestMetricDataFiguresAsREST: the slice of docs-website's
// extract-metric-timeslice-data.mdx, from the sums it was computed from (99770 calls
// of 0.364122 s in a minute), comes out as published: call_count exact, every other
// value to three significant digits; an Apdex score to two decimals; raw=true the
// values as computed (or, with metric_raw: fields, the timeslice's own fields).
func TestMetricDataFiguresAsREST(t *testing.T) {
	from := time.Date(2016, 1, 28, 18, 3, 0, 0, time.UTC)
	to := from.Add(time.Minute)
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		row := func(name string, c, s, ex, mn, mx float64) map[string]any {
			return map[string]any{"facet": name, "beginTimeSeconds": from.Unix(), "endTimeSeconds": to.Unix(),
				"c": c, "s": s, "ex": ex, "mn": mn, "mx": mx, "sq": 0.0}
		}
		rows := []map[string]any{row("HttpDispatcher", 99770, 36328.45, 0, 0.0035, 85.0123), row("Apdex", 40, 5, 3, 0.5, 0.5)}
		return map[string]any{"actor": map[string]any{"entity": map[string]any{"guid": vars["guid"], "accountId": 1},
			"account": map[string]any{"q0": map[string]any{"results": rows}}}}, nil
	}
	tr := New(f, Options{Now: func() time.Time { return to.Add(time.Hour) }})
	ask := func(raw bool, names []string, values ...string) []restv2.Timeslice {
		t.Helper()
		md, err := tr.MetricData(context.Background(), Caller{AccountID: 1}, MetricScope{AppID: 7}, metricdata.Request{
			Names: names, Values: values, From: &from, To: &to, Raw: raw})
		if err != nil || len(md.Metrics) != len(names) {
			t.Fatalf("%v, %d metrics", err, len(md.Metrics))
		}
		var out []restv2.Timeslice
		for _, m := range md.Metrics {
			out = append(out, m.Timeslices[0])
		}
		return out
	}
	both := []string{"HttpDispatcher", "Apdex"}
	got := ask(false, both, "average_response_time", "calls_per_minute", "call_count", "min_response_time", "max_response_time",
		"average_value", "total_call_time_per_minute", "score", "s", "threshold")
	if s, want := valuesString(got[0].Values), "[{average_response_time 364 false} {calls_per_minute 99800 false} {call_count 99770 true} "+
		"{min_response_time 3.5 false} {max_response_time 85000 false} {average_value 0.364 false} {total_call_time_per_minute 36300 false}]"; s != want {
		t.Errorf("HttpDispatcher %s, want %s", s, want)
	}
	// Apdex shares none of the first name's values (firstNameValues); asked alone, its own.
	if s := valuesString(got[1].Values); s != "[]" {
		t.Errorf("Apdex after HttpDispatcher %s, want none", s)
	}
	got = ask(false, []string{"Apdex"}, "score", "s", "threshold")
	if s, want := valuesString(got[0].Values), "[{score 0.89 false} {s 40 true} {threshold 0.5 false}]"; s != want {
		t.Errorf("Apdex %s, want %s", s, want)
	}
	// raw=true: the same values unformatted ("Return unformatted raw values").
	raw := ask(true, both, "average_response_time", "call_count", "max_response_time")
	if s, want := valuesString(raw[0].Values), "[{average_response_time 364.1219805552771 false} {call_count 99770 true} "+
		"{max_response_time 85012.3 false}]"; s != want {
		t.Errorf("raw %s, want %s", s, want)
	}
	// metric_raw: fields: the timeslice's own fields instead.
	tr = New(f, Options{Now: func() time.Time { return to.Add(time.Hour) }, MetricChoices: metricdata.Choices{RawFields: true}})
	raw = ask(true, both)
	if s, want := valuesString(raw[0].Values), "[{count 99770 true} {total_call_time 36328.45 false} {total_exclusive_time 0 false} "+
		"{min_call_time 0.0035 false} {max_call_time 85.0123 false} {sum_of_squares 0 false}]"; s != want {
		t.Errorf("raw fields %s, want %s", s, want)
	}
}

// TestMobileFiguresAsREST: the recorded mobile_summary of ambitioninc/newrelic-api
// (tests/testdata/restv2/mobile_application_show.json), from values NerdGraph's
// mobileSummary could hold for it, comes out as recorded: throughput, response time
// (seconds) and calls per session to three significant digits, the rates unrounded.
func TestMobileFiguresAsREST(t *testing.T) {
	launches, requests, sessions := 9792, 71193, 9792
	rate, seconds := 71193.4, 0.42813
	failed, remote := 1.2271918170353238, 0.10091960945281904
	id, name, reporting := 123456, "SampleApp", true
	m := buildMobile(mobileOutline{id: &id, name: &name, reporting: &reporting,
		summary: &ng.MobileSummary{AppLaunchCount: &launches, HttpRequestCount: &requests,
			MobileSessionCount: &sessions, HttpRequestRate: &rate, HttpResponseTimeAverage: &seconds,
			NetworkFailureRate: &failed, HttpErrorRate: &remote}})
	want := restv2.MobileSummary{LaunchCount: 9792, Throughput: 71200, ResponseTime: 0.428, CallsPerSession: 7.27,
		FailedCallRate: 1.2271918170353238, RemoteErrorRate: 0.10091960945281904}
	if m.Summary == nil || *m.Summary != want {
		t.Errorf("mobile_summary %+v, want %+v", m.Summary, want)
	}
}

// mobileOutline is a mobile application as buildMobile reads one.
type mobileOutline struct {
	id        *int
	name      *string
	reporting *bool
	summary   *ng.MobileSummary
}

func (o mobileOutline) GetGuid() *string                          { return nil }
func (o mobileOutline) GetAccountId() *int                        { return nil }
func (o mobileOutline) GetName() *string                          { return o.name }
func (o mobileOutline) GetReporting() *bool                       { return o.reporting }
func (o mobileOutline) GetAlertSeverity() *ng.EntityAlertSeverity { return nil }
func (o mobileOutline) GetApplicationId() *int                    { return o.id }
func (o mobileOutline) GetMobileSummary() *ng.MobileSummary       { return o.summary }

// A severity held by value maps like the pointer healthStatus takes, "" like null.
func TestSeverityHealth(t *testing.T) {
	for _, tt := range []struct {
		reporting bool
		sev       gq.EntityAlertSeverity
		want      string
	}{
		{true, gq.EntityAlertSeverityCritical, "red"},
		{true, gq.EntityAlertSeverityWarning, "orange"},
		{true, gq.EntityAlertSeverityNotAlerting, "green"},
		{true, gq.EntityAlertSeverityNotConfigured, "unknown"},
		{true, "", "unknown"},
		{false, gq.EntityAlertSeverityCritical, "gray"},
		{false, "", "gray"},
	} {
		if got := severityHealth(tt.reporting, tt.sev); got != tt.want {
			t.Errorf("severityHealth(%v, %q) = %q, want %q", tt.reporting, tt.sev, got, tt.want)
		}
	}
}
