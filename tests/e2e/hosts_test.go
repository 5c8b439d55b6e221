package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/nrdb"
	"github.com/v2bridge/v2bridge/sim/timeslice"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

type hostsBody struct {
	Hosts []struct {
		ID                 int64
		Host               string
		ApplicationName    string `json:"application_name"`
		ApplicationSummary struct {
			ResponseTime  float64 `json:"response_time"`
			Throughput    float64
			ErrorRate     float64 `json:"error_rate"`
			InstanceCount int64   `json:"instance_count"`
		} `json:"application_summary"`
		Links struct {
			Application          int64
			ApplicationInstances []int64 `json:"application_instances"`
			ApplicationHost      int64   `json:"application_host"`
		}
	}
}

func hostsOf(t *testing.T, e *env, path string) hostsBody {
	t.Helper()
	r := e.get(t, path, key1)
	if r.status != 200 {
		t.Fatalf("%s: %d %s", path, r.status, r.body)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &raw); err != nil {
		t.Fatal(err)
	}
	var b hostsBody
	list := raw["application_hosts"]
	if list == nil {
		list = raw["application_instances"]
	}
	if err := json.Unmarshal(list, &b.Hosts); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHostsAndInstances(t *testing.T) {
	e := newEnv(t)
	app := decode(t, e.get(t, "/v2/applications/"+metricApp+".json", key1))
	var show struct {
		Application struct {
			Links struct {
				ApplicationHosts     []int64 `json:"application_hosts"`
				ApplicationInstances []int64 `json:"application_instances"`
			}
		}
	}
	r := e.get(t, "/v2/applications/"+metricApp+".json", key1)
	if err := json.Unmarshal(r.body, &show); err != nil || app.Application == nil {
		t.Fatal(err)
	}
	hosts := hostsOf(t, e, "/v2/applications/"+metricApp+"/hosts.json")
	var hostIDs []int64
	for _, h := range hosts.Hosts {
		hostIDs = append(hostIDs, h.ID)
		if h.ApplicationName != app.Application.Name || h.Links.Application != app.Application.ID {
			t.Errorf("host %d: %+v", h.ID, h)
		}
	}
	slices.Sort(hostIDs)
	if !slices.Equal(hostIDs, show.Application.Links.ApplicationHosts) {
		t.Fatalf("host ids %v differ from the application's links %v", hostIDs, show.Application.Links.ApplicationHosts)
	}
	inst := hostsOf(t, e, "/v2/applications/"+metricApp+"/instances.json")
	var instIDs []int64
	for _, i := range inst.Hosts {
		instIDs = append(instIDs, i.ID)
		if !slices.Contains(hostIDs, i.Links.ApplicationHost) {
			t.Errorf("instance %d links to unknown host %d", i.ID, i.Links.ApplicationHost)
		}
	}
	if !slices.Equal(instIDs, show.Application.Links.ApplicationInstances) {
		t.Fatalf("instance ids %v differ from links %v", instIDs, show.Application.Links.ApplicationInstances)
	}

	// Ids are stable across gateway processes.
	if again := hostsOf(t, newEnv(t), "/v2/applications/"+metricApp+"/hosts.json"); again.Hosts[0].ID != hosts.Hosts[0].ID {
		t.Fatal("host id changed across processes")
	}

	// Show, filters, unknown ids.
	h0 := hosts.Hosts[0]
	r = e.get(t, "/v2/applications/"+metricApp+"/hosts/"+strconv.FormatInt(h0.ID, 10)+".json", key1)
	if r.status != 200 {
		t.Fatalf("host show: %d %s", r.status, r.body)
	}
	if got := hostsOf(t, e, "/v2/applications/"+metricApp+"/hosts.json?filter[hostname]="+h0.Host[:3]); len(got.Hosts) == 0 {
		t.Fatal("filter[hostname] found nothing")
	}
	if got := hostsOf(t, e, "/v2/applications/"+metricApp+"/instances.json?filter[ids]="+strconv.FormatInt(instIDs[0], 10)); len(got.Hosts) != 1 {
		t.Fatalf("filter[ids] on instances: %d", len(got.Hosts))
	}
	if r := e.get(t, "/v2/applications/"+metricApp+"/hosts/1.json", key1); r.status != 404 {
		t.Fatalf("unknown host: %d", r.status)
	}

	// The host's summary agrees with the simulator's raw timeslices for that host.
	data, _ := sim.ParseData(configs.DemoData())
	gen := timeslice.Generator{Seed: sim.DemoSeed}
	var calls, ingested float64 // the summary's last 10 minutes; 10 minutes all ingested, for metric data
	for _, a := range data.Accounts[0].APMApplications {
		if strconv.Itoa(a.ID) != metricApp {
			continue
		}
		for _, in := range a.Instances {
			if in.Host != h0.Host {
				continue
			}
			for m := clock.Add(-10 * time.Minute); m.Before(clock); m = m.Add(time.Minute) {
				calls += gen.Timeslice(int64(a.ID), in.ID, "HttpDispatcher", m, a.ApdexTarget).Count
			}
			for m := clock.Add(-15 * time.Minute); m.Before(clock.Add(-5 * time.Minute)); m = m.Add(time.Minute) {
				ingested += gen.Timeslice(int64(a.ID), in.ID, "HttpDispatcher", m, a.ApdexTarget).Count
			}
		}
	}
	near(t, "host throughput", h0.ApplicationSummary.Throughput, harness.Figure(calls/10))

	// Host- and instance-scoped metric data work with these ids.
	for _, path := range []string{
		"/v2/applications/" + metricApp + "/hosts/" + strconv.FormatInt(h0.ID, 10) + "/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&summarize=true&from=2026-11-20T11:45:00Z&to=2026-11-20T11:55:00Z",
		"/v2/applications/" + metricApp + "/instances/" + strconv.FormatInt(instIDs[0], 10) + "/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&summarize=true&from=2026-11-20T11:45:00Z&to=2026-11-20T11:55:00Z",
	} {
		var b metricDataBody
		r := e.get(t, path, key1)
		if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 || len(b.MetricData.Found) != 1 {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
	}
	host := e.get(t, "/v2/applications/"+metricApp+"/hosts/"+strconv.FormatInt(h0.ID, 10)+"/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&summarize=true&from=2026-11-20T11:45:00Z&to=2026-11-20T11:55:00Z", key1)
	var hb metricDataBody
	_ = json.Unmarshal(host.body, &hb)
	near(t, "host-scoped 10-minute call_count", hb.MetricData.Metrics[0].Timeslices[0].Values["call_count"], ingested)
	golden(t, "application_hosts.json", e.get(t, "/v2/applications/"+metricApp+"/hosts.json", key1).body)
	golden(t, "application_instances.xml", e.get(t, "/v2/applications/"+metricApp+"/instances.xml", key1).body)
}

// stoppedHosts is the demo's timeslice source with some hosts silent since a given
// minute: their rows after it are dropped.
type stoppedHosts struct {
	src  nrdb.Source
	last map[string]time.Time
}

func (s stoppedHosts) Scan(ctx context.Context, sc nrdb.Scan, fn func(nrdb.Row) bool) error {
	// It drops rows by their timestamp, so a series' last minute (Scan.Ends) may not be
	// its last row here: every minute is scanned.
	sc.Ends = false
	return s.src.Scan(ctx, sc, func(r nrdb.Row) bool {
		if h, ok := r.Get("host"); ok {
			if at, ok := s.last[h.(string)]; ok && r.Timestamp().After(at) {
				return true
			}
		}
		return fn(r)
	})
}

// newEnvStopped runs the gateway over the demo data whose metricApp instances last
// reported at the given times (by instance id); other applications report throughout.
func newEnvStopped(t *testing.T, last map[int64]time.Time) (*env, map[int64]string) {
	t.Helper()
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	var apps []timeslice.App
	stopped, hostOf := map[string]time.Time{}, map[int64]string{}
	for _, acct := range data.Accounts {
		for _, a := range acct.APMApplications {
			if !a.Reporting || len(a.Instances) == 0 {
				continue
			}
			app := timeslice.App{AccountID: acct.ID, AppID: int64(a.ID), AppName: a.Name, ApdexT: a.ApdexTarget,
				GUID: translate.AppGUID(int64(acct.ID), translate.DomainAPM, int64(a.ID))}
			for _, in := range a.Instances {
				app.Instances = append(app.Instances, timeslice.Instance{ID: in.ID, Host: in.Host})
				if at, ok := last[in.ID]; ok && strconv.Itoa(a.ID) == metricApp {
					stopped[in.Host], hostOf[in.ID] = at, in.Host
				}
			}
			apps = append(apps, app)
		}
	}
	if len(stopped) != len(last) {
		t.Fatalf("instances %v are not all on distinct hosts of application %s", last, metricApp)
	}
	src := stoppedHosts{src: timeslice.NewSource(timeslice.Generator{Seed: sim.DemoSeed}, apps), last: stopped}
	h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithNRQL(nrdb.NewRunner(src))}})
	return &env{sim: h.Sim, gw: h.Gateway}, hostOf
}

// Lists of hosts and instances "cover those that reported in approximately the last
// hour" (the specification, What the service does): a host whose agent last reported 20
// minutes ago is listed by hosts, instances and the application's links, with a summary
// over the 10-minute summary window (empty: nothing reported in it); one silent for 70
// minutes is not listed. Fails with a 10-minute membership window.
func TestHostsListThoseReportedInTheLastHour(t *testing.T) {
	const recent, gone = int64(773865519), int64(1663741264) // metricApp's two instances, on two hosts
	e, hostOf := newEnvStopped(t, map[int64]time.Time{recent: clock.Add(-20 * time.Minute), gone: clock.Add(-70 * time.Minute)})

	hosts := hostsOf(t, e, "/v2/applications/"+metricApp+"/hosts.json")
	if len(hosts.Hosts) != 1 || hosts.Hosts[0].Host != hostOf[recent] {
		t.Fatalf("hosts %+v, want only %s (reported 20 minutes ago; %s was silent for 70)", hosts.Hosts, hostOf[recent], hostOf[gone])
	}
	h := hosts.Hosts[0]
	if !slices.Equal(h.Links.ApplicationInstances, []int64{recent}) || h.ApplicationSummary.InstanceCount != 1 {
		t.Errorf("host links %v, instance_count %d: want [%d], 1", h.Links.ApplicationInstances, h.ApplicationSummary.InstanceCount, recent)
	}
	if s := h.ApplicationSummary; s.Throughput != 0 || s.ResponseTime != 0 || s.ErrorRate != 0 {
		t.Errorf("summary %+v of a host silent for the whole 10-minute summary window, want zeros", s)
	}
	inst := hostsOf(t, e, "/v2/applications/"+metricApp+"/instances.json")
	if len(inst.Hosts) != 1 || inst.Hosts[0].ID != recent || inst.Hosts[0].Links.ApplicationHost != h.ID {
		t.Fatalf("instances %+v, want only %d on host %d", inst.Hosts, recent, h.ID)
	}
	if r := e.get(t, "/v2/applications/"+metricApp+"/hosts/"+strconv.FormatInt(h.ID, 10)+".json", key1); r.status != 200 {
		t.Errorf("show of the host reported 20 minutes ago: %d %s", r.status, r.body)
	}

	var show struct {
		Application struct {
			LastReportedAt string `json:"last_reported_at"`
			Links          struct {
				ApplicationHosts     []int64 `json:"application_hosts"`
				ApplicationInstances []int64 `json:"application_instances"`
			}
		}
	}
	r := e.get(t, "/v2/applications/"+metricApp+".json", key1)
	if err := json.Unmarshal(r.body, &show); err != nil || r.status != 200 {
		t.Fatalf("application show: %d %s", r.status, r.body)
	}
	a := show.Application
	if !slices.Equal(a.Links.ApplicationHosts, []int64{h.ID}) || !slices.Equal(a.Links.ApplicationInstances, []int64{recent}) {
		t.Errorf("application links hosts %v instances %v, want [%d] [%d]", a.Links.ApplicationHosts, a.Links.ApplicationInstances, h.ID, recent)
	}
	if want := clock.Add(-20 * time.Minute); a.LastReportedAt == "" || !parseISO(t, a.LastReportedAt).Equal(want) {
		t.Errorf("last_reported_at %q, want %s", a.LastReportedAt, want.Format(time.RFC3339))
	}
}

func parseISO(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("timestamp %q: %v", s, err)
	}
	return at
}
