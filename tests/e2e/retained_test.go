package e2e

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim/restdouble"
)

// With retained_alerts: passthrough the seed's entity-condition procedure reaches the
// REST API unchanged (the application lookup is translated, the alerts calls are
// forwarded), the answers carry no Sunset header (the namespaces are not retired) and
// their Link URLs point at the gateway.
func TestEntityConditionProcedurePassthrough(t *testing.T) {
	rest := restdouble.Start(t, []restdouble.Policy{{ID: 77, Name: "Production apps", IncidentPreference: "PER_POLICY"}},
		[]*restdouble.Condition{{ID: 501, PolicyID: 77, Type: "apm_app_metric", Name: "Apdex (Low)", Enabled: true,
			Entities: []string{"924224343"}, Metric: "apdex"}})
	e := newEnvWith(t, gateway.Config{RESTUpstream: rest.URL + "/v2", RetainedAlerts: gateway.ModePassthrough})
	opsBefore := e.sim.RequestsByOperation()

	app, cid := entityProcedure(t, e, "100% Uptime Monitor", "Production apps", "alerts_conditions", "")
	if cid != 501 {
		t.Fatalf("condition %d", cid)
	}
	path := "/v2/alerts_entity_conditions/" + strconv.FormatInt(app, 10) + ".json?entity_type=Application&condition_id=501"
	put := e.do(t, http.MethodPut, path, key1, nil, "Content-Type", "application/json")
	if put.status != 200 || !slices.Contains(rest.Condition(501).Entities, strconv.FormatInt(app, 10)) {
		t.Fatalf("PUT: %d %s; REST entities %v", put.status, put.body, rest.Condition(501).Entities)
	}
	del := e.do(t, http.MethodDelete, path, key1, nil)
	if del.status != 200 || slices.Contains(rest.Condition(501).Entities, strconv.FormatInt(app, 10)) {
		t.Fatalf("DELETE: %d %s; REST entities %v", del.status, del.body, rest.Condition(501).Entities)
	}
	for _, r := range []response{put, del} {
		if r.header.Get("Sunset") != "" || r.header.Get("Deprecation") != "" || r.header.Get("X-V2bridge-Mode") != "passthrough" {
			t.Fatalf("retained answer headers: %v", r.header)
		}
	}
	// What reached REST: the alerts calls, method, path and query unchanged, with the key.
	var got []string
	for _, r := range rest.Requests() {
		if r.APIKey != key1 {
			t.Fatalf("REST got key %q", r.APIKey)
		}
		got = append(got, r.Method+" "+r.Path+"?"+r.RawQuery)
	}
	want := []string{
		"GET /v2/alerts_policies.json?filter[name]=Production+apps",
		"GET /v2/alerts_conditions.json?policy_id=77",
		"PUT /v2/alerts_entity_conditions/314221522.json?entity_type=Application&condition_id=501",
		"DELETE /v2/alerts_entity_conditions/314221522.json?entity_type=Application&condition_id=501",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("REST received:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// NerdGraph answered only the application lookup.
	for op, n := range e.sim.RequestsByOperation() {
		if strings.Contains(op, "Condition") || strings.Contains(op, "Polic") {
			if n != opsBefore[op] {
				t.Fatalf("NerdGraph got %s on a retained namespace", op)
			}
		}
	}
	// A list's Link points at the gateway; the not-retired passthrough keeps Sunset.
	pol := e.get(t, "/v2/alerts_policies.json", key1)
	if l := pol.header.Get("Link"); !strings.Contains(l, e.gw.URL+"/v2/alerts_policies.json") || strings.Contains(l, rest.URL) {
		t.Fatalf("Link not rewritten: %q", l)
	}
	// Unrouted paths of a retained namespace are forwarded too (no generic 404).
	if r := e.get(t, "/v2/alerts_synthetics_conditions.json?policy_id=77", key1); r.status != 404 ||
		!strings.Contains(string(r.body), "Route not found") || len(rest.Requests()) != 6 {
		t.Fatalf("synthetics: %d %s, REST requests %d", r.status, r.body, len(rest.Requests()))
	}
}
