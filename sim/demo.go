package sim

import (
	"strconv"
	"time"

	"github.com/v2bridge/v2bridge/sim/model"
	"github.com/v2bridge/v2bridge/sim/nrdb"
	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// DemoSeed seeds the demo's metric generator.
const DemoSeed = 20270731

// metricSource builds the Metric rows of every reporting APM application in data, and
// of those that stopped (StoppedAgo) up to their stop. start is when the simulator
// started (the relative times of the data count back from it); opts are the source's
// (timeslice.IngestedBy).
func metricSource(data *Data, seed uint64, start time.Time, opts ...timeslice.Option) *timeslice.Source {
	var apps []timeslice.App
	start = start.UTC().Truncate(time.Minute)
	for _, acct := range data.Accounts {
		for _, a := range acct.APMApplications {
			if !a.Reporting && a.StoppedAgo <= 0 || a.Reporting && len(a.Instances) == 0 {
				continue
			}
			app := timeslice.App{
				AccountID: acct.ID,
				AppID:     int64(a.ID),
				AppName:   a.Name,
				GUID:      entityGUID(acct.ID, "APM", "APPLICATION", strconv.Itoa(a.ID)),
				ApdexT:    a.ApdexTarget,
				Names:     a.MetricNames,
			}
			for _, in := range a.Instances {
				app.Instances = append(app.Instances, timeslice.Instance{ID: in.ID, Host: in.Host, Since: in.ReportingSince})
			}
			if !a.Reporting {
				app.Stopped = start.Add(-a.StoppedAgo.Truncate(time.Minute))
				app.Instances = []timeslice.Instance{{ID: int64(a.ID), Host: "retired-" + strconv.Itoa(a.ID) + ".example.net"}}
			}
			for name, ago := range a.StoppedMetrics {
				if app.NameStopped == nil {
					app.NameStopped = map[string]time.Time{}
				}
				app.NameStopped[name] = start.Add(-ago.Truncate(time.Minute))
			}
			for _, g := range a.Gaps {
				from := start.Add(-g.Ago.Truncate(time.Minute))
				app.Gaps = append(app.Gaps, timeslice.Span{From: from, To: from.Add(g.Length.Truncate(time.Minute))})
			}
			apps = append(apps, app)
		}
		for _, m := range acct.MobileApplications {
			if !m.Reporting {
				continue
			}
			apps = append(apps, timeslice.App{
				AccountID: acct.ID, AppID: int64(m.ID), AppName: m.Name,
				GUID:      entityGUID(acct.ID, "MOBILE", "APPLICATION", strconv.Itoa(m.ID)),
				Instances: []timeslice.Instance{{ID: int64(m.ID), Host: "mobile"}},
				Names:     mobileMetricNames,
			})
		}
	}
	return timeslice.NewSource(timeslice.Generator{Seed: seed}, apps, opts...)
}

// DemoMetrics is the NRQL engine over the demo's Metric rows alone (the rows NewDemo
// serves for FROM Metric with the clock now, started at now()), for tests that run
// New Relic's published NRQL beside the gateway's answer.
func DemoMetrics(data *Data, now func() time.Time) *nrdb.Runner {
	return nrdb.NewRunner(metricSource(data, DemoSeed, now(), timeslice.IngestedBy(now)))
}

// mobileMetricNames are the timeslice metrics of the demo's mobile applications.
var mobileMetricNames = []string{"Mobile/Crash/All", "Session/Start", "Mobile/Activity/Name/MainActivity", "External/all"}

// SummaryWindow is the window of the demo's apmSummary: the minutes that ended in the
// last SummaryWindow, as far as NRDB holds them. REST v2 showed "a rolling three- to
// four-minute average" that "will not match" metric data over a range (newrelic/docs-website
// src/content/docs/apis/rest-api-v2/application-examples-v2/summary-data-examples-v2.mdx);
// NerdGraph does not document its window.
const SummaryWindow = 5 * time.Minute

// withDemoNRQL is the NRQL engine over the data's generated metrics, unless the caller
// chose a runner, and apmSummary computed from the same metrics so summaries and metric
// data agree.
func withDemoNRQL(data *Data) Option {
	return func(s *Server) {
		src := metricSource(data, DemoSeed, s.now(), timeslice.IngestedBy(s.now))
		if s.nrql == nil {
			s.nrql = nrdb.NewRunner(multiSource{src, &s.events})
		}
		addDemoIncidents(&s.events, data, s.now())
		if s.summary == nil {
			s.summary = func(accountID int, appID int64, now time.Time) *model.ApmApplicationSummaryData {
				return demoSummary(src, accountID, appID, now)
			}
		}
	}
}

// demoSummary derives apmSummary from the timeslices of the last SummaryWindow that
// NRDB holds at now, as an NRQL query over that window reads them (the newest minutes
// hold only the instances whose data arrived: timeslice.Source.IngestedTotals): web from
// HttpDispatcher, non-web from OtherTransaction/all, error rate from Errors/all over
// all transactions (percent), Apdex from the Apdex s/t/f counts. Throughputs are per
// minute of the window, as NRQL's rate() over it.
func demoSummary(src *timeslice.Source, accountID int, appID int64, now time.Time) *model.ApmApplicationSummaryData {
	to := now.UTC().Truncate(time.Minute)
	t, ok := src.IngestedTotals(accountID, appID, to.Add(-SummaryWindow), to, now, "HttpDispatcher", "OtherTransaction/all", "Errors/all", "Apdex")
	if !ok {
		return nil
	}
	minutes := SummaryWindow.Minutes()
	web, other, errs, apdex := t["HttpDispatcher"], t["OtherTransaction/all"], t["Errors/all"], t["Apdex"]
	div := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	total := web.Count + other.Count
	return &model.ApmApplicationSummaryData{
		WebThroughput:             ptr(web.Count / minutes),
		WebResponseTimeAverage:    ptr(div(web.Total, web.Count)),
		NonWebThroughput:          ptr(other.Count / minutes),
		NonWebResponseTimeAverage: ptr(div(other.Total, other.Count)),
		Throughput:                ptr(total / minutes),
		ResponseTimeAverage:       ptr(div(web.Total+other.Total, total)),
		ErrorRate:                 ptr(100 * div(errs.Count, total)),
		ApdexScore:                ptr(div(apdex.Count+apdex.Total/2, apdex.Count+apdex.Total+apdex.TotalExclusive)),
	}
}

// addDemoIncidents records NrAiIncident events for the demo: 260 incidents on account
// 1000001's first APM applications over the last week (most closed, some still open),
// enough to page REST's violations, and a few on account 1000002.
func addDemoIncidents(ev *eventStore, data *Data, now time.Time) {
	conds := []struct{ name, title string }{{"Apdex (Low)", "Apdex < 0.7 for at least 5 minutes"}, {"Error rate (High)", "Error percentage > 5%"},
		{"Response time", "Response time > 1 s for at least 10 minutes"}}
	for _, acct := range data.Accounts {
		n := 260
		if acct.ID != 1000001 {
			n = 7
		}
		if len(acct.APMApplications) == 0 || len(acct.AlertPolicies) == 0 {
			continue
		}
		for i := 0; i < n; i++ {
			app := acct.APMApplications[i%len(acct.APMApplications)]
			pol := acct.AlertPolicies[i%len(acct.AlertPolicies)]
			c := conds[i%len(conds)]
			opened := now.Add(-time.Duration(i*37+5) * time.Minute).Truncate(time.Second)
			id := strconv.Itoa(acct.ID%1000*100000 + i + 1)
			priority := "critical"
			if i%3 == 1 {
				priority = "warning"
			}
			base := map[string]any{
				"accountId": float64(acct.ID), "incidentId": id, "title": c.title + " on '" + app.Name + "'",
				"conditionName": c.name, "policyName": pol.Name, "priority": priority,
				"conditionId": float64(5000 + i%len(conds)), "policyId": float64(pol.ID),
				"entity.guid": entityGUID(acct.ID, "APM", "APPLICATION", strconv.Itoa(app.ID)), "entity.name": app.Name,
				"entity.type": "APPLICATION", "openTime": float64(opened.UnixMilli()),
			}
			open := map[string]any{"event": "open"}
			for k, v := range base {
				open[k] = v
			}
			ev.add(nrdb.MapRow{Type: "NrAiIncident", At: opened, Attrs: open})
			if i%10 == 3 {
				continue // still open
			}
			closed := opened.Add(time.Duration(5+i%40) * time.Minute)
			if !closed.Before(now) {
				continue
			}
			cl := map[string]any{"event": "close", "closeTime": float64(closed.UnixMilli())}
			for k, v := range base {
				cl[k] = v
			}
			ev.add(nrdb.MapRow{Type: "NrAiIncident", At: closed, Attrs: cl})
		}
	}
}
