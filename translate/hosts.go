package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// HostListRequest is a parsed GET .../hosts or .../instances.
type HostListRequest struct {
	Hostname string // filter[hostname]: case-insensitive substring
	IDs      []int64
	Page     int
}

// HostSummaryWindow is the window of a host's or instance's application_summary: REST
// v2 summarised hosts and instances over "the last 10 minutes" (the API explorer's
// notes). Membership
// is wider (InventoryWindow, one hour): a host that last reported 20 minutes ago is
// listed, with an empty summary.
const HostSummaryWindow = 10 * time.Minute

// hostStatsNRQL lists, per host or per agent instance, every member that reported in
// InventoryWindow and sums the metrics behind its summary over HostSummaryWindow only:
// each summary aggregate is a filter() on timestamp (epoch milliseconds, the Metric
// attribute NRQL compares as a number, as in `mod(timestamp/1000, 20)` of
// https://docs.newrelic.com/docs/new-relic-control/pipeline-control/nrql-functions).
// The instance count covers the membership window, like links.application_instances.
func hostStatsNRQL(appID int64, facet string, until time.Time) (string, error) {
	var n NRQL
	// The summary's ten minutes end where REST's metric data slices end (metricdata.IngestLag);
	// membership still reads the whole inventory window up to until.
	end := until.Add(-metricdata.IngestLag(false))
	since := end.Add(-HostSummaryWindow).UnixMilli()
	f := func(agg, name, alias string) {
		n.Raw("filter(" + agg + ", WHERE metricTimesliceName = ").Str(name).Raw(" AND timestamp >= ").Int(since).
			Raw(" AND timestamp < ").Int(end.UnixMilli()).Raw(") AS ").Str(alias).Raw(", ")
	}
	n.Raw("SELECT ")
	f("count(newrelic.timeslice.value)", "HttpDispatcher", "web_c")
	f("sum(newrelic.timeslice.value)", "HttpDispatcher", "web_s")
	f("count(newrelic.timeslice.value)", "OtherTransaction/all", "other_c")
	f("sum(newrelic.timeslice.value)", "OtherTransaction/all", "other_s")
	f("count(newrelic.timeslice.value)", "Errors/all", "errors")
	f("count(newrelic.timeslice.value)", "Apdex", "apdex_s")
	f("sum(newrelic.timeslice.value)", "Apdex", "apdex_t")
	f("sum(newrelic.timeslice.value['totalExclusive'])", "Apdex", "apdex_f")
	n.Raw("uniqueCount(realAgentId) AS 'instances' FROM Metric WHERE appId = ").Int(appID).
		Raw(" AND "+metricdata.Unscoped+" AND metricTimesliceName IN ").StrList([]string{"HttpDispatcher", "OtherTransaction/all", "Errors/all", "Apdex"}).
		Raw(" FACET "+facet+" ").Range(until.Add(-InventoryWindow), until).Raw(" LIMIT MAX")
	return n.Build()
}

type hostStats struct {
	Facet    any     `json:"facet"`
	Host     string  `json:"host"`
	Agent    any     `json:"realAgentId"`
	WebC     float64 `json:"web_c"`
	WebS     float64 `json:"web_s"`
	OtherC   float64 `json:"other_c"`
	OtherS   float64 `json:"other_s"`
	Errors   float64 `json:"errors"`
	ApdexS   float64 `json:"apdex_s"`
	ApdexT   float64 `json:"apdex_t"`
	ApdexF   float64 `json:"apdex_f"`
	Instance float64 `json:"instances"`
}

func (s hostStats) summary() restv2.HostSummary {
	minutes := HostSummaryWindow.Minutes()
	out := restv2.HostSummary{InstanceCount: int64(s.Instance)}
	c, total := s.WebC, s.WebS
	if c == 0 {
		c, total = s.OtherC, s.OtherS
	}
	if c > 0 {
		out.ResponseTime = figure(total / c * 1000)
		out.Throughput = figure(c / minutes)
	}
	if calls := s.WebC + s.OtherC; calls > 0 {
		out.ErrorRate = figure(100 * s.Errors / calls)
	}
	if n := s.ApdexS + s.ApdexT + s.ApdexF; n > 0 {
		out.ApdexScore = apdexFigure((s.ApdexS + s.ApdexT/2) / n)
	}
	return out
}

type appHosts struct {
	app       *restv2.ApplicationHost // template with application fields
	hosts     []restv2.ApplicationHost
	instances []restv2.ApplicationHost
}

func (t *Translator) appHosts(ctx context.Context, c Caller, appID int64) (*appHosts, error) {
	until := t.until()
	hq, err := hostStatsNRQL(appID, "host", until)
	if err != nil {
		return nil, err
	}
	iq, err := hostStatsNRQL(appID, "realAgentId, host", until)
	if err != nil {
		return nil, err
	}
	resp, err := ng.AppHosts(ctx, t.client, AppGUID(c.AccountID, DomainAPM, appID), int(c.AccountID), hq, iq)
	if err != nil {
		return nil, fmt.Errorf("application %d hosts: %w", appID, err)
	}
	ent := resp.GetActor().GetEntity()
	if ent == nil || !ent.IsApmApplication() || int64(ent.AccountId) != c.AccountID || appIDOf(ent) != appID {
		return nil, ErrApplicationNotFound()
	}
	tmpl := restv2.ApplicationHost{ApplicationName: ent.Name, Language: strings.ToLower(ent.GetLanguage()),
		HealthStatus: severityHealth(ent.Reporting, ent.GetAlertSeverity()), ApplicationID: appID}
	out := &appHosts{app: &tmpl}
	acct := resp.GetActor().GetAccount()
	if acct == nil {
		return out, nil
	}
	// FACET host and FACET realAgentId, host keep at most 5000 facets (translate/caps.go):
	// an application with more hosts or instances is served from those kept, declared.
	if acct.Instances != nil && len(acct.Instances.Results) >= MaxFacets || acct.Hosts != nil && len(acct.Hosts.Results) >= MaxFacets {
		noteCap(ctx, CapHosts)
	}
	instancesOf := map[string][]int64{}
	if acct.Instances != nil {
		for _, row := range acct.Instances.Results {
			var s hostStats
			if row == nil || json.Unmarshal(*row, &s) != nil {
				continue
			}
			id, ok := facetInt(s.Agent)
			if !ok {
				continue
			}
			h := tmpl
			h.Instance, h.ID, h.Host = true, id, s.Host
			h.HostID = HostID(c.AccountID, appID, s.Host)
			s.Instance = 1
			h.Summary = s.summary()
			out.instances = append(out.instances, h)
			instancesOf[s.Host] = append(instancesOf[s.Host], id)
		}
	}
	if acct.Hosts != nil {
		for _, row := range acct.Hosts.Results {
			var s hostStats
			if row == nil || json.Unmarshal(*row, &s) != nil || s.Host == "" {
				continue
			}
			h := tmpl
			h.ID, h.Host = HostID(c.AccountID, appID, s.Host), s.Host
			h.Summary = s.summary()
			h.InstanceIDs = instancesOf[s.Host]
			slices.Sort(h.InstanceIDs)
			if h.InstanceIDs == nil {
				h.InstanceIDs = []int64{}
			}
			out.hosts = append(out.hosts, h)
		}
	}
	sort.Slice(out.hosts, func(i, j int) bool { return out.hosts[i].Host < out.hosts[j].Host })
	sort.Slice(out.instances, func(i, j int) bool { return out.instances[i].ID < out.instances[j].ID })
	names := map[int64]string{}
	for _, h := range out.hosts {
		names[h.ID] = h.Host
	}
	t.st.Lists.Set(c.cacheKey("host-names", strconv.FormatInt(appID, 10)), names)
	instanceHosts := make(map[int64]string, len(out.instances))
	for _, h := range out.instances {
		instanceHosts[h.ID] = h.Host
	}
	t.st.Lists.Set(c.cacheKey("instance-hosts", strconv.FormatInt(appID, 10)), instanceHosts)
	return out, nil
}

// Hosts answers GET .../hosts (instances false) and GET .../instances (true).
func (t *Translator) Hosts(ctx context.Context, c Caller, appID int64, instances bool, r HostListRequest) (*restv2.ApplicationHostList, Paging, error) {
	if r.Page < 1 {
		r.Page = 1
	}
	ah, err := t.appHosts(ctx, c, appID)
	if err != nil {
		return nil, Paging{}, err
	}
	all := ah.hosts
	if instances {
		all = ah.instances
	}
	var kept []restv2.ApplicationHost
	for _, h := range all {
		if r.Hostname != "" && !containsFold(h.Host, r.Hostname) {
			continue
		}
		if len(r.IDs) > 0 && !slices.Contains(r.IDs, h.ID) {
			continue
		}
		kept = append(kept, h)
	}
	items, paging := pageOf(kept, r.Page, PageSize)
	return &restv2.ApplicationHostList{Hosts: items, Instance: instances}, paging, nil
}

// Host answers GET .../hosts/{id} and .../instances/{id}.
func (t *Translator) Host(ctx context.Context, c Caller, appID, id int64, instance bool) (*restv2.ApplicationHostShow, error) {
	ah, err := t.appHosts(ctx, c, appID)
	if err != nil {
		return nil, err
	}
	all := ah.hosts
	title := "No Application Host found with the given ID"
	if instance {
		all, title = ah.instances, TitleInstanceNotFound
	}
	for _, h := range all {
		if h.ID == id {
			return &restv2.ApplicationHostShow{Host: h}, nil
		}
	}
	return nil, restv2.NotFound(title)
}

// HostName resolves a host id of an application to its host name (for host-scoped
// metrics): from the cache the hosts routes fill, else one lookup.
func (t *Translator) HostName(ctx context.Context, c Caller, appID, hostID int64) (string, error) {
	key := c.cacheKey("host-names", strconv.FormatInt(appID, 10))
	if v, ok := t.st.Lists.Get(key); ok {
		if name, ok := v.(map[int64]string)[hostID]; ok {
			return name, nil
		}
	}
	if _, err := t.appHosts(ctx, c, appID); err != nil {
		return "", err
	}
	if v, ok := t.st.Lists.Get(key); ok {
		if name, ok := v.(map[int64]string)[hostID]; ok {
			return name, nil
		}
	}
	return "", restv2.NotFound("No Application Host found with the given ID")
}

// CheckInstance answers 404 with REST's title unless instanceID is one of the
// application's instances (application_instances.list's membership), for
// instance-scoped metrics: from the cache the hosts routes fill, else one lookup.
func (t *Translator) CheckInstance(ctx context.Context, c Caller, appID, instanceID int64) error {
	// The cached membership vouches for the answer (a replayed instance metric answer
	// holds only while it does).
	key := c.cacheKey("instance-hosts", strconv.FormatInt(appID, 10))
	if v, ok := vouchedGet(ctx, t.st.Lists, key, time.Time{}); ok {
		if _, ok := v.(map[int64]string)[instanceID]; ok {
			return nil
		}
	}
	if _, err := t.appHosts(ctx, c, appID); err != nil {
		return err
	}
	if v, ok := vouchedGet(ctx, t.st.Lists, key, time.Time{}); ok {
		if _, ok := v.(map[int64]string)[instanceID]; ok {
			return nil
		}
	}
	return restv2.NotFound(TitleInstanceNotFound)
}

// TitleInstanceNotFound is REST's 404 title for an unknown application instance.
const TitleInstanceNotFound = "No Application Instance found with the given ID"
