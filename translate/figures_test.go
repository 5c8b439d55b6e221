package translate

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	gq "github.com/v2bridge/v2bridge/graphql"
	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestFigure: REST v2's published figures (figures.go), each the value it was
// rounded from, and the edges. The text is what the renderers write
// (strconv 'f', -1: the shortest text of the float).
func TestFigure(t *testing.T) {
	tests := []struct {
		give float64
		want string
	}{
		{99770, "99800"}, // extract-metric-timeslice-data.mdx: calls_per_minute of call_count 99770 in a minute
		{2.0 / 3, "0.667"},
		{1.0 / 3, "0.333"},
		{4567.8, "4570"},
		{0.00161812, "0.00162"},
		{0.0016, "0.0016"},
		{364.2, "364"},
		{85012.5, "85000"},
		{3.5, "3.5"},
		{0.29849, "0.298"},
		{999.6, "1000"},
		{0.9996, "1"},
		{-65.94, "-65.9"},
		{1e-20 * 1.23456, "0.0000000000000000000123"},
		{1.23456e-30, "0.00000000000000000000000000000123"},
		{1.23456e30, "1230000000000000000000000000000"},
		{0, "0"},
		{7, "7"},
		{0.5, "0.5"},
	}
	for _, tt := range tests {
		if got := strconv.FormatFloat(figure(tt.give), 'f', -1, 64); got != tt.want {
			t.Errorf("figure(%v) = %s, want %s", tt.give, got, tt.want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := figure(v); !(got == v || math.IsNaN(got) && math.IsNaN(v)) {
			t.Errorf("figure(%v) = %v", v, got)
		}
	}
}

// TestFigureMatchesDecimalRounding: over values of every magnitude figure equals the
// exact decimal rounding of the binary value to three significant digits (strconv's
// 'e' with 2 decimals), but at halves, where the product may round either way.
func TestFigureMatchesDecimalRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		v := math.Pow(10, r.Float64()*60-30) * (r.Float64() + 0.1)
		if i%2 == 1 {
			v = -v
		}
		want, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 2, 64), 64)
		got := figure(v)
		if got == want {
			continue
		}
		// a tie: the fourth significant digit and the rest are 5000…
		digits := strconv.FormatFloat(math.Abs(v), 'e', 12, 64)
		if digits[4:8] != "5000" && digits[4:8] != "4999" {
			t.Fatalf("figure(%v) = %v, want %v", v, got, want)
		}
	}
}

// TestApplicationFiguresAsREST: an application's summary shows NerdGraph's figures as
// REST did (figures.go): three significant digits, Apdex two decimals; the counts and
// the configured Apdex targets as they are.
func TestApplicationFiguresAsREST(t *testing.T) {
	target, endTarget := 0.4375, 7.0
	o := &ng.ApmOutline{Typename: "ApmApplicationEntityOutline", Guid: AppGUID(1, DomainAPM, 7), AccountId: 1, ApplicationId: 7,
		Name: "shop", Reporting: true, Language: "go", Settings: &ng.OutlineSettings{ApdexTarget: target},
		ApmSummary: &ng.OutlineSummary{WebResponseTimeAverage: 0.30412, WebThroughput: 4567.8, ErrorRate: 0.161812,
			ApdexScore: 0.97435, HostCount: 3, InstanceCount: 12345},
		ApmBrowserSummary: &ng.OutlineBrowserStats{PageLoadTimeAverage: 3.7312, PageLoadThroughput: 1.0 / 3}}
	a := buildApplication(o, 1, &browserInfo{apdexTarget: &endTarget, appID: 7}, nil, true, newAppArena(1))
	want := v2.ApplicationSummary{ResponseTime: 304, Throughput: 4570, ErrorRate: 0.162, ApdexTarget: target, ApdexScore: 0.97,
		HostCount: 3, InstanceCount: 12345}
	if a.Summary == nil || *a.Summary != want {
		t.Errorf("application_summary %+v, want %+v", a.Summary, want)
	}
	if u := a.EndUser; u == nil || *u != (v2.EndUserSummary{ResponseTime: 3.73, Throughput: 0.333, ApdexTarget: 7}) {
		t.Errorf("end_user_summary %+v, want 3.73, 0.333, 7", u)
	}
	if a.Settings.AppApdexThreshold != target {
		t.Errorf("app_apdex_threshold %v, want %v as configured", a.Settings.AppApdexThreshold, target)
	}
}

// TestMetricDataFiguresAsREST: the slice of docs-website's
// extract-metric-timeslice-data.mdx, from the sums it was computed from (99770 calls
// of 0.364122 s in a minute), comes out as published: call_count exact, every other
// value to three significant digits; an Apdex score to two decimals; raw=true as
// computed.
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
	ask := func(raw bool, names []string, values ...string) []v2.Timeslice {
		t.Helper()
		md, err := tr.MetricData(context.Background(), Caller{AccountID: 1}, MetricScope{AppID: 7}, MetricDataRequest{
			Names: names, Values: values, From: &from, To: &to, Raw: raw})
		if err != nil || len(md.Metrics) != len(names) {
			t.Fatalf("%v, %d metrics", err, len(md.Metrics))
		}
		var out []v2.Timeslice
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
	raw := ask(true, both)
	if s, want := valuesString(raw[0].Values), "[{count 99770 true} {total_call_time 36328.45 false} {total_exclusive_time 0 false} "+
		"{min_call_time 0.0035 false} {max_call_time 85.0123 false} {sum_of_squares 0 false}]"; s != want {
		t.Errorf("raw %s, want %s", s, want)
	}
}

// BenchmarkFigure: rounding NerdGraph's unrounded figures.
func BenchmarkFigure(b *testing.B) {
	values := []float64{0.9743589743589743, 304.1234567891, 4567.891234567, 0.0016181229773462784, 3.7312345678901,
		0.666666666666666, 12.345678901234, 99770.12345678}
	var sink float64
	for b.Loop() {
		for _, v := range values {
			sink += figure(v)
		}
	}
	_ = sink
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
	want := v2.MobileSummary{LaunchCount: 9792, Throughput: 71200, ResponseTime: 0.428, CallsPerSession: 7.27,
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
