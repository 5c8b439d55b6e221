package e2e

import (
	"strconv"
	"testing"
)

// Every metrics route that names an entity answers an id it does not know with REST's
// 404 and title, as the entity's own show does: an instance id not among the
// application's instances, a host id not among its hosts, a mobile application id
// with the mobile show's "No Mobile Application found" (an application's title
// otherwise). A known instance answers 200.
func TestMetricRoutesAnswerUnknownIDsWithRESTsNotFound(t *testing.T) {
	e := newEnv(t)
	const (
		app      = "No Application found with the given ID"
		host     = "No Application Host found with the given ID"
		instance = "No Application Instance found with the given ID"
		mobile   = "No Mobile Application found with the given ID"
	)
	base := "/v2/applications/" + metricApp
	for _, tt := range []struct{ path, title string }{
		{base + "/instances/1.json", instance},
		{base + "/instances/1/metrics.json", instance},
		{base + "/instances/1/metrics/data.json?names[]=HttpDispatcher", instance},
		{base + "/hosts/1.json", host},
		{base + "/hosts/1/metrics.json", host},
		{base + "/hosts/1/metrics/data.json?names[]=HttpDispatcher", host},
		{"/v2/applications/1/metrics.json", app},
		{"/v2/applications/1/metrics/data.json?names[]=HttpDispatcher", app},
		{"/v2/mobile_applications/1.json", mobile},
		{"/v2/mobile_applications/1/metrics.json", mobile},
		{"/v2/mobile_applications/1/metrics/data.json?names[]=Session/Start", mobile},
	} {
		r := e.get(t, tt.path, key1)
		if b := decode(t, r); r.status != 404 || b.Error == nil || b.Error.Title != tt.title {
			t.Errorf("%s: %d %s, want 404 %q", tt.path, r.status, r.body, tt.title)
		}
	}
	inst := hostsOf(t, e, base+"/instances.json")
	if len(inst.Hosts) == 0 {
		t.Fatal("no instances")
	}
	id := strconv.FormatInt(inst.Hosts[0].ID, 10)
	for _, p := range []string{base + "/instances/" + id + "/metrics.json", base + "/instances/" + id + "/metrics/data.json?names[]=HttpDispatcher"} {
		if r := e.get(t, p, key1); r.status != 200 {
			t.Errorf("%s: %d %s", p, r.status, r.body)
		}
	}
}
