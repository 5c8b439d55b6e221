package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

func compareCount(t *testing.T, m *gateway.Metrics, route, result string) float64 {
	t.Helper()
	return testutil.ToFloat64(m.CompareCounter(route, result))
}

func waitCount(t *testing.T, m *gateway.Metrics, route, result string, want float64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for compareCount(t, m, route, result) < want {
		if time.Now().After(deadline) {
			t.Fatalf("compare %s/%s = %v, want %v", route, result, compareCount(t, m, route, result), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCompareMode(t *testing.T) {
	const path = "/v2/applications/314221522.json"
	translated := newEnv(t).get(t, path, key1).body

	rest := newFakeREST(t)
	m := gateway.NewMetrics()
	h := harness.Start(t, gateway.Config{RESTUpstream: rest.srv.URL + "/v2", Metrics: m,
		Modes: map[string]gateway.Mode{"applications.show": gateway.ModeCompare, "deployments.create": gateway.ModeCompare}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	e.get(t, "/v2/applications.json", key1) // resolve the account

	// Identical answers match; the caller gets the REST body unchanged.
	rest.bodies[path] = translated
	r := e.get(t, path, key1)
	if !bytes.Equal(r.body, translated) {
		t.Fatalf("caller got %s", r.body)
	}
	waitCount(t, m, "applications.show", "match", 1)

	// A truly different answer is counted as a difference.
	rest.bodies[path] = bytes.Replace(translated, []byte(`"name":"100% Uptime Monitor"`), []byte(`"name":"Renamed"`), 1)
	r = e.get(t, path, key1)
	if !bytes.Contains(r.body, []byte("Renamed")) {
		t.Fatal("the caller did not get the primary (REST) body")
	}
	waitCount(t, m, "applications.show", "diff", 1)

	// Reordered-identical and within-tolerance bodies match too.
	rest.bodies[path] = bytes.Replace(translated, []byte(`"app_apdex_threshold":0.1,`), []byte(`"app_apdex_threshold":0.102,`), 1)
	if bytes.Equal(rest.bodies[path], translated) {
		t.Fatal("tolerance case did not change the body")
	}
	e.get(t, path, key1)
	waitCount(t, m, "applications.show", "match", 2)

	// A write on a compare route reaches exactly one side.
	before := e.sim.RequestsByOperation()["DeploymentCreateEvent"]
	rest.bodies["/v2/applications/314221522/deployments.json"] = []byte(`{"deployment":{"id":1}}`)
	r = e.do(t, http.MethodPost, "/v2/applications/314221522/deployments.json", key1,
		strings.NewReader(`{"deployment":{"revision":"r"}}`), "Content-Type", "application/json")
	time.Sleep(100 * time.Millisecond)
	if r.status != 201 || e.sim.RequestsByOperation()["DeploymentCreateEvent"] != before {
		t.Fatalf("POST on a compare route: %d, NerdGraph mutations %d → %d", r.status, before, e.sim.RequestsByOperation()["DeploymentCreateEvent"])
	}
}

// A slow secondary never delays the caller; it is cancelled at its deadline.
func TestCompareSlowSecondary(t *testing.T) {
	rest := newFakeREST(t)
	const path = "/v2/applications/314221522.json"
	rest.bodies[path] = []byte(`{"application":{"id":314221522}}`)
	slow := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("API-Key") != "" && r.ContentLength > 0 {
				time.Sleep(1500 * time.Millisecond)
			}
			next.ServeHTTP(w, r)
		})
	}
	m := gateway.NewMetrics()
	h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithMiddleware(slow)}, Gateway: gateway.Config{
		RESTUpstream: rest.srv.URL + "/v2", Metrics: m,
		Modes: map[string]gateway.Mode{"applications.show": gateway.ModeCompare}}, Migrate: migrate.Config{Compare: migrate.CompareSettings{Timeout: 300 * time.Millisecond}}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	start := time.Now()
	r := e.get(t, path, key1, "X-Account-ID", "1000001")
	if took := time.Since(start); r.status != 200 || took > 200*time.Millisecond {
		t.Fatalf("caller waited %v (status %d)", took, r.status)
	}
	waitCount(t, m, "applications.show", "timeout", 1)
}

// Arrays are compared by id: a reordered list matches.
func TestCompareReorderedList(t *testing.T) {
	const path = "/v2/applications.json"
	var list struct {
		Applications []json.RawMessage `json:"applications"`
		Links        json.RawMessage   `json:"links"`
	}
	if err := json.Unmarshal(newEnv(t).get(t, path+"?filter[name]=checkout", key1).body, &list); err != nil || len(list.Applications) < 2 {
		t.Fatalf("%v %d", err, len(list.Applications))
	}
	slices.Reverse(list.Applications)
	reordered, _ := json.Marshal(list)
	rest := newFakeREST(t)
	rest.bodies[path] = reordered
	m := gateway.NewMetrics()
	h := harness.Start(t, gateway.Config{RESTUpstream: rest.srv.URL + "/v2", Metrics: m,
		Modes: map[string]gateway.Mode{"applications.list": gateway.ModeCompare}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	e.get(t, path+"?filter[name]=checkout", key1, "X-Account-ID", "1000001")
	waitCount(t, m, "applications.list", "match", 1)
}
