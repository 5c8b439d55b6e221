package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

// The caps tests run the gateway against a simulator holding one large account (the
// demo data plus sim.WithLargeAccount), big enough to exceed NRDB's limits (5000
// facets, 10,000 uniques() values: translate/caps.go): each read either reads past it or declares it with
// X-V2bridge-Degraded.

const keyLarge = "NRAK-LARGE-ACCOUNT"

type capsEnv struct {
	*env
	large   sim.LargeAccount
	metrics *gateway.Metrics
}

func newCapsEnv(t *testing.T, l sim.LargeAccount, more ...sim.Option) *capsEnv {
	t.Helper()
	l.ID, l.Key = 3000001, keyLarge
	m := gateway.NewMetrics()
	// The simulator computes thousands of instances' timeslices per query (an hour of
	// them for host membership), which under -race on a loaded 2-core machine can take
	// longer than the default 30 s a NerdGraph call: these tests bound counts, not time.
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{Metrics: m, RequestTimeout: 5 * time.Minute},
		UpstreamTimeout: 4 * time.Minute, Sim: append([]sim.Option{sim.WithLargeAccount(l)}, more...)})
	return &capsEnv{env: &env{sim: h.Sim, gw: h.Gateway}, large: l, metrics: m}
}

// getAll follows rel="next" from url and returns every page's body.
func (e *capsEnv) getAll(t *testing.T, url, key string) []response {
	t.Helper()
	var out []response
	for next := url; next != ""; next = links(t, out[len(out)-1].header)["next"] {
		r := e.get(t, next, key)
		if r.status != 200 {
			t.Fatalf("GET %s: %d %s", next, r.status, r.body)
		}
		out = append(out, r)
		if len(out) > 200 {
			t.Fatal("more than 200 pages")
		}
	}
	return out
}

// More incidents than NRDB's 5000 facets in the 30-day window: every one is listed,
// newest first, without a degraded signal. On a single FACET incidentId LIMIT MAX read
// 5000 come back, and with latest(title) first NRDB picks them by frequency (closed
// incidents, two events each) so the newest open ones are the ones lost.
func TestCapsViolationsReadPastFacetLimit(t *testing.T) {
	e := newCapsEnv(t, sim.LargeAccount{Apps: 1, InstancesPerApp: 1, Incidents: 5600})
	want := e.large.Incidents + 7 // and the 7 the demo adds to every other account
	seen := map[int64]bool{}
	last := int64(1 << 62)
	pages := e.getAll(t, "/v2/alerts_violations.json", keyLarge)
	// The key's accounts, then two reads of the window for the first page (5000, then
	// the rest); none after.
	if got := pages[0].header.Get("X-V2bridge-Upstream-Calls"); got != "3" {
		t.Errorf("page 1 cost %s round trips, want 3", got)
	}
	if got := pages[1].header.Get("X-V2bridge-Upstream-Calls"); got != "0" {
		t.Errorf("page 2 cost %s round trips, want 0", got)
	}
	for _, r := range pages {
		if d := r.header.Get("X-V2bridge-Degraded"); d != "" {
			t.Fatalf("degraded: %s", d)
		}
		var b violationsBody
		if err := json.Unmarshal(r.body, &b); err != nil {
			t.Fatal(err)
		}
		for _, v := range b.Violations {
			if seen[v.ID] {
				t.Fatalf("violation %d twice", v.ID)
			}
			seen[v.ID] = true
			if v.OpenedAt > last {
				t.Fatalf("violation %d not newest first", v.ID)
			}
			last = v.OpenedAt
		}
	}
	if len(seen) != want {
		t.Fatalf("%d violations listed, want %d", len(seen), want)
	}
	// The newest incident (open, one event) is there.
	if id := int64(3000001%1000*1_000_000 + 1); !seen[id] {
		t.Fatalf("newest incident %d missing", id)
	}
}

type capsApps struct {
	Applications []struct {
		ID    int64 `json:"id"`
		Links struct {
			Instances []int64 `json:"application_instances"`
			Hosts     []int64 `json:"application_hosts"`
		} `json:"links"`
	} `json:"applications"`
	Application *struct {
		ID    int64 `json:"id"`
		Links struct {
			Instances []int64 `json:"application_instances"`
			Hosts     []int64 `json:"application_hosts"`
		} `json:"links"`
	} `json:"application"`
}

// The account-wide inventory of 11 applications with 500 instances each: 5500
// (application, host, instance) triples, but one row per application (FACET appId with
// uniques() lists), so one read holds it all. Every application's links list all its
// instances and hosts, on the plain list and on the filter[host] list, without a
// degraded signal.
func TestCapsInventoryReadPastFacetLimit(t *testing.T) {
	e := newCapsEnv(t, sim.LargeAccount{Apps: 11, InstancesPerApp: 500, ReportingFor: 4 * time.Minute})
	r := e.get(t, "/v2/applications.json", keyLarge)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if d := r.header.Get("X-V2bridge-Degraded"); d != "" {
		t.Fatalf("degraded: %s", d)
	}
	// The key's accounts, then AppList with the whole inventory (a facet per instance
	// made this 5: the inventory cut, read again for the 11, then for 5 and 6).
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "2" {
		t.Errorf("the list cost %s round trips, want 2", got)
	}
	var b capsApps
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Applications) != e.large.Apps {
		t.Fatalf("%d applications, want %d", len(b.Applications), e.large.Apps)
	}
	for _, a := range b.Applications {
		if len(a.Links.Instances) != e.large.InstancesPerApp || len(a.Links.Hosts) != e.large.InstancesPerApp/2 {
			t.Errorf("application %d: %d instances, %d hosts; want %d, %d", a.ID, len(a.Links.Instances), len(a.Links.Hosts),
				e.large.InstancesPerApp, e.large.InstancesPerApp/2)
		}
	}
	// filter[host] matches on the inventory: the last application's hosts are found.
	r = e.get(t, "/v2/applications.json?filter[host]=large-0010-", keyLarge)
	b = capsApps{}
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if len(b.Applications) != 1 || b.Applications[0].ID != int64(e.large.LargeAppID(10)) {
		t.Fatalf("filter[host]: %s", r.body)
	}
}

// One application with more agent instances than 5000 facets can hold: the instances
// list answers with the 5000 NRDB kept and says so (X-V2bridge-Degraded,
// v2bridge_degraded_total). The show lists every instance: its inventory is a uniques()
// list per application (10,000 values), not a facet per instance.
func TestCapsOneApplicationBeyondFacetLimitIsDeclared(t *testing.T) {
	e := newCapsEnv(t, sim.LargeAccount{Apps: 1, InstancesPerApp: 5004, ReportingFor: 4 * time.Minute})
	id := e.large.LargeAppID(0)
	r := e.get(t, fmt.Sprintf("/v2/applications/%d.json", id), keyLarge)
	var b capsApps
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 || b.Application == nil {
		t.Fatalf("show: %d %s", r.status, r.body)
	}
	if d := r.header.Get("X-V2bridge-Degraded"); d != "" || len(b.Application.Links.Instances) != 5004 {
		t.Errorf("show: %d instances, degraded %q; want 5004, none", len(b.Application.Links.Instances), d)
	}
	e.checkDeclared(t, fmt.Sprintf("/v2/applications/%d/instances.json", id), "application_instances.list", translate.CapHosts)
}

// One application with more agent instances than uniques() keeps (10,000): the show
// answers with the first 10,000 NRDB met and says so.
func TestCapsOneApplicationBeyondUniquesLimitIsDeclared(t *testing.T) {
	e := newCapsEnv(t, sim.LargeAccount{Apps: 1, InstancesPerApp: translate.MaxUniques + 4, ReportingFor: 4 * time.Minute})
	id := e.large.LargeAppID(0)
	e.checkDeclared(t, fmt.Sprintf("/v2/applications/%d.json", id), "applications.show", translate.CapInventory)
}

// checkDeclared gets url and fails t unless the answer is a 200 that declares cap, in
// its header and in the route's v2bridge_degraded_total.
func (e *capsEnv) checkDeclared(t *testing.T, url, route string, cap translate.Cap) {
	t.Helper()
	r := e.get(t, url, keyLarge)
	if r.status != 200 {
		t.Fatalf("%s: %d %s", url, r.status, r.body)
	}
	if d := r.header.Get("X-V2bridge-Degraded"); !strings.Contains(d, string(cap)) {
		t.Errorf("%s: X-V2bridge-Degraded %q, want it to name %q", url, d, cap)
	}
	// The counter moves after the answer is written (the middleware's deferred
	// accounting): give it a moment.
	n := 0.0
	for wait := 0; wait < 100; wait++ {
		if n = testutil.ToFloat64(e.metrics.DegradedCounter(route, string(cap))); n != 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n != 1 {
		t.Errorf("%s: v2bridge_degraded_total{route=%q} = %v, want 1", url, route, n)
	}
}

// uniques() keeps at most 10000 values: a metric-name read that gets 10000 back may
// have lost some, and says so.
func TestCapsMetricNamesAtUniquesLimitAreDeclared(t *testing.T) {
	names := make([]any, translate.MaxUniques)
	for i := range names {
		names[i] = fmt.Sprintf("Custom/large/%05d", i)
	}
	runner := sim.NRQLRunnerFunc(func(_ context.Context, _ []int, q string, now time.Time) ([]map[string]any, time.Time, time.Time, error) {
		if strings.Contains(q, "uniques(metricTimesliceName") {
			return []map[string]any{{"names": names}}, now.Add(-time.Hour), now, nil
		}
		return nil, now.Add(-time.Hour), now, nil
	})
	e := newCapsEnv(t, sim.LargeAccount{}, sim.WithNRQL(runner))
	r := e.get(t, "/v2/applications/314221522/metrics.json", key1)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if d := r.header.Get("X-V2bridge-Degraded"); d != string(translate.CapMetricNames) {
		t.Fatalf("X-V2bridge-Degraded %q, want %q", d, translate.CapMetricNames)
	}
}

// More alert policies than one policiesSearch page (100): every incident's
// incident_preference comes from its policy, on every page.
func TestCapsIncidentsReadEveryPolicyPage(t *testing.T) {
	e := newCapsEnv(t, sim.LargeAccount{Apps: 1, InstancesPerApp: 1, Incidents: 300, Policies: 150, IncidentEvery: time.Hour})
	n := 0
	for _, r := range e.getAll(t, "/v2/alerts_incidents.json", keyLarge) {
		var b struct {
			Incidents []struct {
				ID         int64  `json:"id"`
				Preference string `json:"incident_preference"`
				Links      struct {
					PolicyID int64 `json:"policy_id"`
				} `json:"links"`
			} `json:"incidents"`
		}
		if err := json.Unmarshal(r.body, &b); err != nil {
			t.Fatal(err)
		}
		for _, in := range b.Incidents {
			n++
			if in.Preference == "" {
				t.Fatalf("incident %d (policy %d) has no incident_preference", in.ID, in.Links.PolicyID)
			}
		}
	}
	if n == 0 {
		t.Fatal("no incidents")
	}
}

// More than 5000 incidents whose last events share one millisecond cannot be split by
// time: the violations are served from the 5000 NRDB kept, and the answer says so on
// every page.
func TestCapsViolationsUnsplittableAreDeclared(t *testing.T) {
	e := newCapsEnv(t, sim.LargeAccount{Apps: 1, InstancesPerApp: 1, Incidents: 5100, IncidentEvery: time.Nanosecond})
	n := 0
	for _, r := range e.getAll(t, "/v2/alerts_violations.json", keyLarge) {
		if d := r.header.Get("X-V2bridge-Degraded"); d != string(translate.CapViolations) {
			t.Fatalf("X-V2bridge-Degraded %q, want %q", d, translate.CapViolations)
		}
		var b violationsBody
		if err := json.Unmarshal(r.body, &b); err != nil {
			t.Fatal(err)
		}
		n += len(b.Violations)
	}
	if n < translate.MaxFacets || n >= e.large.Incidents+7 {
		t.Fatalf("%d violations listed, want at least %d and fewer than %d", n, translate.MaxFacets, e.large.Incidents+7)
	}
}

// Entity searches give 200 entities a page: every search the gateway makes follows
// the cursors. 250 APM applications with injected browsers, 250 key transactions and
// 250 mobile applications: page 2 of the application list has RUM on (the browser
// search of AppList followed past its first page), and every list holds all 250.
func TestCapsEntitySearchCursorsFollowed(t *testing.T) {
	e := newCapsEnv(t, sim.LargeAccount{Apps: 250, InstancesPerApp: 1, Browsers: true, KeyTransactions: true, Mobile: 250})
	var rum struct {
		Applications []struct {
			ID       int64 `json:"id"`
			Settings struct {
				RUM bool `json:"enable_real_user_monitoring"`
			} `json:"settings"`
		} `json:"applications"`
	}
	r := e.get(t, "/v2/applications.json?page=2", keyLarge)
	if err := json.Unmarshal(r.body, &rum); err != nil || r.status != 200 || len(rum.Applications) != 50 {
		t.Fatalf("page 2: %d %.300s", r.status, r.body)
	}
	for _, a := range rum.Applications {
		if !a.Settings.RUM {
			t.Fatalf("application %d on page 2 has RUM off", a.ID)
		}
	}
	for _, c := range []struct{ url, key string }{
		{"/v2/browser_applications.json", "browser_applications"},
		{"/v2/key_transactions.json", "key_transactions"},
		{"/v2/mobile_applications.json", "mobile_applications"},
	} {
		n := 0
		for _, r := range e.getAll(t, c.url, keyLarge) {
			var b map[string]json.RawMessage // the list, and the links block of some
			var items []json.RawMessage
			if err := json.Unmarshal(r.body, &b); err != nil {
				t.Fatalf("%s: %v", c.url, err)
			}
			if err := json.Unmarshal(b[c.key], &items); err != nil {
				t.Fatalf("%s: %s: %v", c.url, c.key, err)
			}
			n += len(items)
		}
		if n != 250 {
			t.Errorf("%s: %d listed, want 250", c.url, n)
		}
	}
}
