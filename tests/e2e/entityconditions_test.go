package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

type nrqlCondBody struct {
	NrqlCondition struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Nrql struct {
			Query string `json:"query"`
		} `json:"nrql"`
	} `json:"nrql_condition"`
	Condition struct {
		ID   int64 `json:"id"`
		Nrql struct {
			Query string `json:"query"`
		} `json:"nrql"`
	} `json:"condition"`
	Conditions []struct {
		ID int64 `json:"id"`
	} `json:"conditions"`
	NrqlConditions []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"nrql_conditions"`
	Policies []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"policies"`
	Error *struct {
		Title string `json:"title"`
	} `json:"error"`
}

func decodeCond(t *testing.T, r response) nrqlCondBody {
	t.Helper()
	var b nrqlCondBody
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatalf("decode %d %s: %v", r.status, r.body, err)
	}
	return b
}

// entityProcedure runs the specification's procedure for changing a condition's
// entities (look up the entity id, the policy id by name, the policy's
// conditions, then add or remove the entity) and returns the entity and condition ids.
func entityProcedure(t *testing.T, e *env, appName, policyName, condList, condName string) (int64, int64) {
	t.Helper()
	apps := decode(t, e.get(t, "/v2/applications.json?filter[name]="+url.QueryEscape(appName), key1))
	var app int64
	for _, a := range apps.Applications {
		if a.Name == appName {
			app = a.ID
		}
	}
	pol := decodeCond(t, e.get(t, "/v2/alerts_policies.json?filter[name]="+url.QueryEscape(policyName), key1))
	var pid int64
	for _, p := range pol.Policies {
		if p.Name == policyName {
			pid = p.ID
		}
	}
	conds := decodeCond(t, e.get(t, "/v2/"+condList+".json?policy_id="+strconv.FormatInt(pid, 10), key1))
	var cid int64
	for _, c := range conds.NrqlConditions {
		if c.Name == condName {
			cid = c.ID
		}
	}
	for _, c := range conds.Conditions {
		cid = c.ID // the REST double answers one condition
	}
	if app == 0 || pid == 0 || cid == 0 {
		t.Fatalf("procedure lookups: application %d, policy %d, condition %d", app, pid, cid)
	}
	return app, cid
}

// The seed's entity-condition procedure works end to end through the translation in the
// demo: the four steps in order, on an NRQL condition whose WHERE clause lists apps.
func TestEntityConditionProcedure(t *testing.T) {
	e := newEnv(t)
	created := e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, strings.NewReader(
		`{"nrql_condition":{"name":"Apdex by app","enabled":true,"value_function":"single_value",
		"terms":[{"duration":"5","operator":"below","priority":"critical","threshold":"0.7","time_function":"all"}],
		"nrql":{"query":"SELECT apdex(duration, t: 0.5) FROM Transaction WHERE appId IN (924224343) AND transactionType = 'Web'"}}}`),
		"Content-Type", "application/json")
	if created.status != 201 {
		t.Fatalf("create: %d %s", created.status, created.body)
	}
	app, cid := entityProcedure(t, e, "100% Uptime Monitor", "Production apps", "alerts_nrql_conditions", "Apdex by app")
	path := "/v2/alerts_entity_conditions/" + strconv.FormatInt(app, 10) + ".json?entity_type=Application&condition_id=" + strconv.FormatInt(cid, 10)
	listed := func() bool {
		r := e.get(t, "/v2/alerts_entity_conditions/"+strconv.FormatInt(app, 10)+".json?entity_type=Application", key1)
		if r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		for _, c := range decodeCond(t, r).Conditions {
			if c.ID == cid {
				return true
			}
		}
		return false
	}
	if listed() {
		t.Fatal("the condition lists the application before PUT")
	}
	put := e.do(t, http.MethodPut, path, key1, nil, "Content-Type", "application/json")
	want := "SELECT apdex(duration, t: 0.5) FROM Transaction WHERE appId IN (924224343, 314221522) AND transactionType = 'Web'"
	if b := decodeCond(t, put); put.status != 200 || b.Condition.Nrql.Query != want {
		t.Fatalf("PUT: %d %s", put.status, put.body)
	}
	if !listed() {
		t.Fatal("GET does not list the condition after PUT")
	}
	// A second PUT changes nothing.
	if again := e.do(t, http.MethodPut, path, key1, nil); decodeCond(t, again).Condition.Nrql.Query != want {
		t.Fatalf("second PUT: %s", again.body)
	}
	del := e.do(t, http.MethodDelete, path, key1, nil)
	if b := decodeCond(t, del); del.status != 200 || strings.Contains(b.Condition.Nrql.Query, "314221522") {
		t.Fatalf("DELETE: %d %s", del.status, del.body)
	}
	if listed() {
		t.Fatal("GET lists the condition after DELETE")
	}
	// The list's only entity cannot be removed: IN () is not NRQL.
	only := strings.Replace(path, "/"+strconv.FormatInt(app, 10)+".json", "/924224343.json", 1)
	if r := e.do(t, http.MethodDelete, only, key1, nil); r.status != 409 || !strings.Contains(decodeCond(t, r).Error.Title, "empty IN list") {
		t.Fatalf("removing the last entity: %d %s", r.status, r.body)
	}
}

// Refusals: a condition whose WHERE clause has no entity list (409, never a rewrite),
// an unknown condition (404), REST's 406 for an unknown entity type, missing params.
func TestEntityConditionRefusals(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name, method, path string
		status             int
		title              string
	}{
		{"no entity in the WHERE clause", http.MethodPut, "/v2/alerts_entity_conditions/314221522.json?entity_type=Application&condition_id=6108",
			409, "names no entity list"},
		{"unknown condition", http.MethodPut, "/v2/alerts_entity_conditions/314221522.json?entity_type=Application&condition_id=999999",
			404, "No Alerts condition was found with the given ID"},
		{"legacy metric condition", http.MethodPut, "/v2/alerts_entity_conditions/314221522.json?entity_type=Application&condition_id=6301",
			501, "legacy metric condition"},
		{"bad entity type", http.MethodGet, "/v2/alerts_entity_conditions/314221522.json?entity_type=Nonsense", 406, "Bad entity type"},
		{"key transaction", http.MethodGet, "/v2/alerts_entity_conditions/3001.json?entity_type=KeyTransaction", 501, "entity.guid"},
		{"missing entity_type", http.MethodGet, "/v2/alerts_entity_conditions/314221522.json", 400, "Missing parameter: entity_type"},
		{"missing condition_id", http.MethodDelete, "/v2/alerts_entity_conditions/314221522.json?entity_type=Application", 400,
			"Missing parameter: condition_id"},
		{"synthetics write", http.MethodPost, "/v2/alerts_synthetics_conditions/policies/1001.json", 501, "SyntheticCheck"},
		{"external service", http.MethodGet, "/v2/alerts_external_service_conditions.json?policy_id=1001", 501, "retained on the REST API"},
		{"location failure", http.MethodGet, "/v2/alerts_location_failure_conditions/policies/1001.json", 501, "retained on the REST API"},
		{"legacy condition write", http.MethodPut, "/v2/alerts_conditions/6301.json", 501, "NRQL condition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.sim.RequestsByOperation()["NrqlConditionStaticUpdate"]
			r := e.do(t, tc.method, tc.path, key1, nil)
			b := decodeCond(t, r)
			if r.status != tc.status || b.Error == nil || !strings.Contains(b.Error.Title, tc.title) {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if after := e.sim.RequestsByOperation()["NrqlConditionStaticUpdate"]; after != before {
				t.Fatalf("a refused call wrote the condition (%d → %d updates)", before, after)
			}
		})
	}
}

// PUT appends the entity in the list's own kind: the id to appId, the GUID to
// entity.guid, the quoted name (NRQL string quoting) to appName.
func TestEntityConditionListKinds(t *testing.T) {
	e := newEnv(t)
	const guid = "MTAwMDAwMXxBUE18QVBQTElDQVRJT058MzE0MjIxNTIy" // 1000001|APM|APPLICATION|314221522
	for _, tc := range []struct{ name, where, want string }{
		{"appId", "appId IN (924224343)", "appId IN (924224343, 314221522)"},
		{"entity.guid", "entity.guid IN ('x')", "entity.guid IN ('x', '" + guid + "')"},
		{"appName", "appName IN ('O\\'Reilly Books')", "appName IN ('O\\'Reilly Books', '100% Uptime Monitor')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"nrql_condition": map[string]any{"name": "kinds " + tc.name,
				"terms": []map[string]string{{"duration": "5", "operator": "above", "priority": "critical", "threshold": "1", "time_function": "all"}},
				"nrql":  map[string]string{"query": "SELECT count(*) FROM Transaction WHERE " + tc.where}}})
			created := decodeCond(t, e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, bytes.NewReader(body),
				"Content-Type", "application/json"))
			put := e.do(t, http.MethodPut, "/v2/alerts_entity_conditions/314221522.json?entity_type=Application&condition_id="+
				strconv.FormatInt(created.NrqlCondition.ID, 10), key1, nil)
			if got := decodeCond(t, put).Condition.Nrql.Query; got != "SELECT count(*) FROM Transaction WHERE "+tc.want {
				t.Fatalf("%d %s", put.status, put.body)
			}
		})
	}
}

// The seed's procedure on the demo's own data, on a condition as people write it: the
// demo's "High error rate" names checkout-service by equality. GET lists it for that
// application; PUT for another application turns the equality into an IN list of two,
// the rest of the query byte for byte; DELETE takes it out again; removing the
// condition's only application is refused.
func TestEntityConditionProcedureOnEquality(t *testing.T) {
	e := newEnv(t)
	app, cid := entityProcedure(t, e, "checkout-service", "Production apps", "alerts_nrql_conditions", "High error rate")
	listed := func(id int64) bool {
		r := e.get(t, "/v2/alerts_entity_conditions/"+strconv.FormatInt(id, 10)+".json?entity_type=Application", key1)
		if r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		for _, c := range decodeCond(t, r).Conditions {
			if c.ID == cid {
				return true
			}
		}
		return false
	}
	if !listed(app) {
		t.Fatal("GET does not list the condition that names the application by equality")
	}
	const other = 924224343 // O'Reilly Books
	path := "/v2/alerts_entity_conditions/" + strconv.Itoa(other) + ".json?entity_type=Application&condition_id=" + strconv.FormatInt(cid, 10)
	put := e.do(t, http.MethodPut, path, key1, nil, "Content-Type", "application/json")
	want := "SELECT percentage(count(*), WHERE error IS true) FROM Transaction WHERE appName IN ('checkout-service', 'O\\'Reilly Books')"
	if b := decodeCond(t, put); put.status != 200 || b.Condition.Nrql.Query != want {
		t.Fatalf("PUT: %d %s", put.status, put.body)
	}
	if !listed(other) || !listed(app) {
		t.Fatal("after PUT the condition is not listed for both applications")
	}
	del := e.do(t, http.MethodDelete, path, key1, nil)
	if b := decodeCond(t, del); del.status != 200 || strings.Contains(b.Condition.Nrql.Query, "Uptime") {
		t.Fatalf("DELETE: %d %s", del.status, del.body)
	}
	only := "/v2/alerts_entity_conditions/" + strconv.FormatInt(app, 10) + ".json?entity_type=Application&condition_id=" + strconv.FormatInt(cid, 10)
	if r := e.do(t, http.MethodDelete, only, key1, nil); r.status != 409 {
		t.Fatalf("removing the only application: %d %s", r.status, r.body)
	}
}
