package translate

import (
	"slices"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// appFields is what the outline (search) and full (by guid) application selections
// have in common.
type appFields interface {
	GetGuid() string
	GetAccountId() int
	GetName() string
	GetReporting() bool
	GetAlertSeverity() ng.EntityAlertSeverity
	GetApplicationId() int
	GetLanguage() string
	GetSettings() *ng.OutlineSettings
	GetApmSummary() *ng.OutlineSummary
	GetApmBrowserSummary() *ng.OutlineBrowserStats
}

type browserInfo struct {
	apdexTarget *float64
	appID       int64
}

// appArena hands out the parts of a page's application objects (last report time,
// summary, links and host ids) from one allocation per kind for the page instead of
// one per application each: the page and its parts live and die together (the list
// cache keeps the page whole).
type appArena struct {
	times     []time.Time
	summaries []restv2.ApplicationSummary
	links     []restv2.ApplicationLinks
	ids       []int64
	hosts     *hostIDMemo // nil: each host id is hashed
}

func newAppArena(n int) *appArena {
	return &appArena{
		times:     make([]time.Time, 0, n),
		summaries: make([]restv2.ApplicationSummary, 0, n),
		links:     make([]restv2.ApplicationLinks, 0, n),
	}
}

// hostID is HostID, remembered by the arena's memo when it has one.
func (a *appArena) hostID(accountID, appID int64, host string) int64 {
	if a == nil {
		return HostID(accountID, appID, host)
	}
	return a.hosts.hostID(accountID, appID, host)
}

// time, summary and link return a pointer to a copy of their value, from the arena
// while it has room; a nil arena allocates, as for an application show.
func (a *appArena) time(t time.Time) *time.Time {
	if a == nil {
		return heapCopy(t)
	}
	return arenaPut(&a.times, t)
}

func (a *appArena) summary(s restv2.ApplicationSummary) *restv2.ApplicationSummary {
	if a == nil {
		return heapCopy(s)
	}
	return arenaPut(&a.summaries, s)
}

func (a *appArena) link(l restv2.ApplicationLinks) *restv2.ApplicationLinks {
	if a == nil {
		return heapCopy(l)
	}
	return arenaPut(&a.links, l)
}

// arenaPut appends v to *s while it has room and returns a pointer to the element, or a
// heap copy once *s is full (its elements must never move).
func arenaPut[T any](s *[]T, v T) *T {
	if len(*s) == cap(*s) {
		return heapCopy(v)
	}
	*s = append(*s, v)
	return &(*s)[len(*s)-1]
}

// heapCopy is a new copy of v (not &v: that would move v to the heap on every call).
func heapCopy[T any](v T) *T {
	p := new(T)
	*p = v
	return p
}

// hostIDs returns an empty slice with room for n ids, capped at n so that an append
// past it reallocates instead of writing into the next application's ids.
func (a *appArena) hostIDs(n int) []int64 {
	if a == nil || n == 0 {
		return []int64{}
	}
	if cap(a.ids)-len(a.ids) < n {
		a.ids = make([]int64, 0, max(256, n))
	}
	start := len(a.ids)
	a.ids = a.ids[:start+n]
	return a.ids[start : start : start+n]
}

func appIDOf(f appFields) int64 { return appIDFrom(int64(f.GetApplicationId()), f.GetGuid()) }

// appIDFrom is an application's REST v2 id: its applicationId, or when that is null (0)
// the domain id of its guid, or 0.
func appIDFrom(id int64, guid string) int64 {
	if id != 0 {
		return id
	}
	if guid != "" {
		if g, err := ParseGUID(guid); err == nil {
			if n, err := strconv.ParseInt(g.DomainID, 10, 64); err == nil {
				return n
			}
		}
	}
	return 0
}

// buildApplication maps one application entity to REST v2's object; summaryAll takes
// application_summary's throughput and response_time over all transactions.
func buildApplication(f appFields, accountID int64, browser *browserInfo, inv *appInventory, excludeLinks, summaryAll bool, arena *appArena) restv2.Application {
	id := appIDOf(f)
	a := restv2.Application{
		ID:       id,
		Name:     f.GetName(),
		Language: strings.ToLower(f.GetLanguage()),
	}
	a.Reporting = f.GetReporting()
	a.HealthStatus = severityHealth(a.Reporting, f.GetAlertSeverity())
	settings := f.GetSettings()
	var apdexTarget float64
	if settings != nil {
		apdexTarget = settings.ApdexTarget
		a.Settings.UseServerSideConfig = settings.ServerSideConfig
	}
	a.Settings.AppApdexThreshold = apdexTarget
	if browser != nil {
		a.Settings.EnableRealUserMonitoring = true
		a.Settings.EndUserApdexThreshold = browser.apdexTarget
	}
	if a.Reporting {
		if inv != nil && !inv.lastSeen.IsZero() {
			a.LastReportedAt = arena.time(inv.lastSeen.UTC().Truncate(time.Second))
		}
		if s := f.GetApmSummary(); s != nil {
			// Web transactions, or non-web ones for an application without web traffic:
			// REST's throughput page reads HttpDispatcher for a web application and
			// OtherTransaction/all for a non-web one (docs-website
			// .../application-examples-v2/get-average-throughput-app-v2.mdx). New Relic's
			// migration guide maps the summary to apmSummary's throughput and
			// responseTimeAverage, over all transactions (docs-website
			// src/content/docs/apis/rest-api-v2/migrate-to-nerdgraph.mdx): the operator's
			// summary_transactions: all.
			rt, tp := s.WebResponseTimeAverage, s.WebThroughput
			if tp <= 0 {
				rt, tp = s.NonWebResponseTimeAverage, s.NonWebThroughput
			}
			if summaryAll {
				rt, tp = s.ResponseTimeAverage, s.Throughput
			}
			// errorRate is already a percent, as the host summaries' 100×errors/calls: "the
			// percentage of responses to all transactions with an error" (schema description,
			// newrelic-client-go pkg/entities/types.go); tests/contracts
			// TestErrorRateIsAPercentEverywhere pins it.
			a.Summary = arena.summary(restv2.ApplicationSummary{
				ResponseTime:  figure(rt * 1000),
				Throughput:    figure(tp),
				ErrorRate:     figure(s.ErrorRate),
				ApdexTarget:   apdexTarget,
				ApdexScore:    apdexFigure(s.ApdexScore),
				HostCount:     int64(s.HostCount),
				InstanceCount: int64(s.InstanceCount),
			})
		}
		if bs := f.GetApmBrowserSummary(); bs != nil && browser != nil {
			a.EndUser = &restv2.EndUserSummary{
				ResponseTime: figure(bs.PageLoadTimeAverage),
				Throughput:   figure(bs.PageLoadThroughput),
				ApdexTarget:  deref(browser.apdexTarget),
			}
		}
	}
	if !excludeLinks {
		links := restv2.ApplicationLinks{ApplicationInstances: []int64{}, ApplicationHosts: []int64{}}
		if inv != nil {
			links.ApplicationInstances = inv.instances
			links.ApplicationHosts = arena.hostIDs(len(inv.hosts))
			for _, h := range inv.hosts {
				links.ApplicationHosts = append(links.ApplicationHosts, arena.hostID(accountID, id, h))
			}
			slices.Sort(links.ApplicationHosts)
		}
		a.Links = arena.link(links)
	}
	return a
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
