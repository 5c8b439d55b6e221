package e2e

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/graphql/sim"
	"github.com/v2bridge/v2bridge/graphql/sim/timeslice"
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
	var calls float64
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
		}
	}
	near(t, "host throughput", h0.ApplicationSummary.Throughput, float64(int64(calls/10*1000+0.5))/1000)

	// Host- and instance-scoped metric data work with these ids.
	for _, path := range []string{
		"/v2/applications/" + metricApp + "/hosts/" + strconv.FormatInt(h0.ID, 10) + "/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&summarize=true&from=2026-11-20T11:50:00Z&to=2026-11-20T12:00:00Z",
		"/v2/applications/" + metricApp + "/instances/" + strconv.FormatInt(instIDs[0], 10) + "/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&summarize=true&from=2026-11-20T11:50:00Z&to=2026-11-20T12:00:00Z",
	} {
		var b metricDataBody
		r := e.get(t, path, key1)
		if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 || len(b.MetricData.Found) != 1 {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
	}
	host := e.get(t, "/v2/applications/"+metricApp+"/hosts/"+strconv.FormatInt(h0.ID, 10)+"/metrics/data.json?names[]=HttpDispatcher&values[]=call_count&summarize=true&from=2026-11-20T11:50:00Z&to=2026-11-20T12:00:00Z", key1)
	var hb metricDataBody
	_ = json.Unmarshal(host.body, &hb)
	near(t, "host-scoped 10-minute call_count", hb.MetricData.Metrics[0].Timeslices[0].Values["call_count"], calls)
	golden(t, "application_hosts.json", e.get(t, "/v2/applications/"+metricApp+"/hosts.json", key1).body)
	golden(t, "application_instances.xml", e.get(t, "/v2/applications/"+metricApp+"/instances.xml", key1).body)
}
