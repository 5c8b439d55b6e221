package translate

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

type mobileFields interface {
	GetGuid() *string
	GetAccountId() *int
	GetName() *string
	GetReporting() *bool
	GetAlertSeverity() *ng.EntityAlertSeverity
	GetApplicationId() *int
	GetMobileSummary() *ng.MobileSummary
}

// buildMobile maps a mobile application and its mobileSummary to REST's object. The
// one recorded REST answer with a mobile_summary (ambitioninc/newrelic-api
// newrelic_api/tests/mobile_applications_tests.py @ 7ba801ff, kept in
// tests/testdata/restv2/mobile_application_show.json) shows how REST wrote it:
//
//   - throughput 71200, response_time 0.428, calls_per_session 7.27 and interaction_time
//     0.298: three significant digits, as every other measured figure REST showed
//     (figures.go); failed_call_rate 1.2271918170353238 and remote_error_rate
//     0.10091960945281904 unrounded, as the docs' crash_rate 28.155339805825243
//     (docs-website .../mobile-examples-v2/mobile-crash-count-crash-rate-example-v2.mdx);
//   - response_time in seconds: 0.428 is a typical mobile HTTP response in seconds and
//     no mobile network answers in 0.428 ms. NerdGraph's httpResponseTimeAverage is
//     Seconds too (real schema, type MobileAppSummaryData), so it is passed through,
//     not × 1000 as APM's milliseconds are.
func buildMobile(f mobileFields) restv2.MobileApplication {
	m := restv2.MobileApplication{ID: int64(deref(f.GetApplicationId())), Name: deref(f.GetName()), Reporting: deref(f.GetReporting())}
	m.HealthStatus = healthStatus(m.Reporting, f.GetAlertSeverity())
	if s := f.GetMobileSummary(); s != nil && m.Reporting {
		sum := &restv2.MobileSummary{
			LaunchCount:     int64(deref(s.AppLaunchCount)),
			Throughput:      figure(deref(s.HttpRequestRate)),
			ResponseTime:    figure(deref(s.HttpResponseTimeAverage)),
			FailedCallRate:  deref(s.NetworkFailureRate),
			RemoteErrorRate: deref(s.HttpErrorRate),
		}
		if n := deref(s.MobileSessionCount); n > 0 {
			sum.CallsPerSession = figure(float64(deref(s.HttpRequestCount)) / float64(n))
		}
		m.Summary = sum
		m.Crash = &restv2.CrashSummary{SupportsCrashData: true, CrashCount: int64(deref(s.CrashCount)), CrashRate: deref(s.CrashRate)}
	}
	return m
}

// ListMobileApplications answers GET /v2/mobile_applications (one round trip a page).
func (t *Translator) ListMobileApplications(ctx context.Context, c Caller, page int) (*restv2.MobileApplicationList, Paging, error) {
	page = max(page, 1)
	query, err := EntitySearch(c.AccountID, DomainMobile, TypeApp).Build()
	if err != nil {
		return nil, Paging{}, err
	}
	var all []restv2.MobileApplication
	var cursor *string
	for {
		resp, err := ng.MobileSearch(ctx, t.client, query, cursor)
		if err != nil {
			return nil, Paging{}, fmt.Errorf("mobile applications: %w", err)
		}
		res := resp.GetActor().GetEntitySearch().GetResults()
		if res == nil {
			break
		}
		for _, e := range res.Entities {
			if f, ok := deref(e).(mobileFields); ok {
				all = append(all, buildMobile(f))
			}
		}
		if cursor = res.NextCursor; cursor == nil {
			break
		}
	}
	items, paging := pageOf(all, page, PageSize)
	return &restv2.MobileApplicationList{Applications: items}, paging, nil
}

// ShowMobileApplication answers GET /v2/mobile_applications/{id} (one round trip).
func (t *Translator) ShowMobileApplication(ctx context.Context, c Caller, id int64) (*restv2.MobileApplicationShow, error) {
	resp, err := ng.MobileShow(ctx, t.client, AppGUID(c.AccountID, DomainMobile, id))
	if err != nil {
		return nil, fmt.Errorf("mobile application %d: %w", id, err)
	}
	f, ok := deref(resp.GetActor().GetEntity()).(mobileFields)
	if !ok || f.GetAccountId() == nil || int64(*f.GetAccountId()) != c.AccountID {
		return nil, restv2.NotFound(TitleMobileNotFound)
	}
	return &restv2.MobileApplicationShow{Application: buildMobile(f)}, nil
}

// CreateMobileApplication answers POST /v2/mobile_applications (never retried); the
// answer adds the agent's application_token.
func (t *Translator) CreateMobileApplication(ctx context.Context, c Caller, name string) (*restv2.MobileApplicationShow, error) {
	if strings.TrimSpace(name) == "" {
		return nil, restv2.Unprocessable("mobile_application.name is required")
	}
	resp, err := ng.MobileCreate(ctx, t.client, int(c.AccountID), name)
	if err != nil {
		return nil, createError(err, "mobile application", "GET /v2/mobile_applications.json")
	}
	r := resp.AgentApplicationCreateMobile
	if r == nil {
		return nil, restv2.WriteOutcomeUnknown("mobile application", "GET /v2/mobile_applications.json")
	}
	g, err := ParseGUID(r.Guid)
	if err != nil {
		return nil, fmt.Errorf("created mobile application: %w", err)
	}
	id, _ := strconv.ParseInt(g.DomainID, 10, 64)
	token := r.ApplicationToken
	return &restv2.MobileApplicationShow{Application: restv2.MobileApplication{ID: id, Name: r.Name, HealthStatus: "gray", ApplicationToken: &token}}, nil
}
