package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

type termJSON struct {
	Duration     string `json:"duration"`
	Operator     string `json:"operator"`
	Priority     string `json:"priority"`
	Threshold    string `json:"threshold"`
	TimeFunction string `json:"time_function"`
}

type nrqlConditionJSON struct {
	Type                      string     `json:"type"`
	ID                        int64      `json:"id"`
	Name                      string     `json:"name"`
	Enabled                   bool       `json:"enabled"`
	RunbookURL                string     `json:"runbook_url,omitempty"`
	BaselineDirection         string     `json:"baseline_direction,omitempty"`
	ViolationTimeLimitSeconds int64      `json:"violation_time_limit_seconds,omitempty"`
	Terms                     []termJSON `json:"terms"`
	Nrql                      struct {
		Query      string `json:"query"`
		SinceValue string `json:"since_value,omitempty"`
	} `json:"nrql"`
	EntityGUID string `json:"entity_guid"`
}

type v2Error struct {
	Error struct {
		Title    string   `json:"title"`
		Messages []string `json:"messages"`
	} `json:"error"`
}

func (e *env) nrqlConditions(t *testing.T, policy int64) map[int64]nrqlConditionJSON {
	t.Helper()
	r := e.get(t, fmt.Sprintf("/v2/alerts_nrql_conditions.json?policy_id=%d", policy), key1)
	var b struct {
		NrqlConditions []nrqlConditionJSON `json:"nrql_conditions"`
	}
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
		t.Fatalf("list %d: %d %s", policy, r.status, r.body)
	}
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "1" {
		t.Errorf("list: %s upstream calls, want 1", got)
	}
	out := map[int64]nrqlConditionJSON{}
	for _, c := range b.NrqlConditions {
		out[c.ID] = c
	}
	return out
}

// warm makes the account lookup of key1 so the next request shows its own round trips.
func (e *env) warm(t *testing.T) {
	t.Helper()
	if r := e.get(t, "/v2/alerts_policies.json", key1); r.status != 200 {
		t.Fatalf("warm-up: %d %s", r.status, r.body)
	}
}

func TestNrqlConditionsRoundTrip(t *testing.T) {
	e := newEnv(t)
	e.warm(t)
	seeded := e.nrqlConditions(t, 1001)
	c, ok := seeded[6101]
	if !ok {
		t.Fatalf("seeded condition 6101 missing: %v", seeded)
	}
	want := []termJSON{{"5", "above", "critical", "5", "all"}, {"5", "above", "warning", "2", "all"}}
	if fmt.Sprint(c.Terms) != fmt.Sprint(want) || c.Type != "static" || c.ViolationTimeLimitSeconds != 86400 ||
		c.RunbookURL == "" || !strings.Contains(c.Nrql.Query, "FROM Transaction") || c.EntityGUID == "" {
		t.Fatalf("6101 = %+v", c)
	}
	if b := seeded[6102]; b.Type != "baseline" || b.BaselineDirection != "upper_and_lower" {
		t.Errorf("baseline 6102 = %+v", b)
	}
	for id, c := range seeded {
		if _, other := e.nrqlConditions(t, 1002)[id]; other {
			t.Errorf("condition %d listed under two policies (%+v)", id, c)
		}
	}
	r := e.get(t, "/v2/alerts_nrql_conditions.json?policy_id=1001", key1)
	if !strings.Contains(string(r.body), `"threshold":"5"`) || !strings.Contains(string(r.body), `"duration":"5"`) {
		t.Errorf("terms must be strings: %s", r.body)
	}
	if x := e.get(t, "/v2/alerts_nrql_conditions.xml?policy_id=1001", key1); x.status != 200 {
		t.Errorf("xml %d", x.status)
	} else {
		wellFormed(t, x.body)
	}

	// Create (as client-go sends it: strings), list, update, list, delete, list.
	body := `{"nrql_condition":{"type":"static","name":"Slow checkout","enabled":true,"runbook_url":"https://rb.example.com/x",
		"value_function":"single_value","violation_time_limit_seconds":3600,
		"terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1.5","time_function":"any"}],
		"nrql":{"query":"SELECT average(duration) FROM Transaction","since_value":"3"}}}`
	r = e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", key1, strings.NewReader(body), "Content-Type", "application/json")
	var created struct {
		NrqlCondition nrqlConditionJSON `json:"nrql_condition"`
	}
	if err := json.Unmarshal(r.body, &created); err != nil || r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	nc := created.NrqlCondition
	if nc.ID == 0 || nc.Name != "Slow checkout" || nc.Nrql.SinceValue != "3" || nc.ViolationTimeLimitSeconds != 3600 ||
		fmt.Sprint(nc.Terms) != fmt.Sprint([]termJSON{{"5", "above", "critical", "1.5", "any"}}) {
		t.Fatalf("created %+v", nc)
	}
	listed, ok := e.nrqlConditions(t, 1002)[nc.ID]
	if got, _ := json.Marshal(listed); !ok || string(got) != string(mustJSON(t, nc)) {
		t.Fatalf("list after create: %s, created %+v", got, nc)
	}

	// Numbers where REST had strings are accepted too; only the fields sent change.
	upd := `{"nrql_condition":{"name":"Slow checkout (p)","terms":[{"duration":10,"operator":"above","priority":"critical","threshold":2,"time_function":"all"}]}}`
	r = e.do(t, http.MethodPut, fmt.Sprintf("/v2/alerts_nrql_conditions/%d.json", nc.ID), key1, strings.NewReader(upd), "Content-Type", "application/json")
	if r.status != 200 {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	after := e.nrqlConditions(t, 1002)[nc.ID]
	if after.Name != "Slow checkout (p)" || fmt.Sprint(after.Terms) != fmt.Sprint([]termJSON{{"10", "above", "critical", "2", "all"}}) ||
		after.RunbookURL != nc.RunbookURL || after.Nrql.Query != nc.Nrql.Query {
		t.Fatalf("after update %+v", after)
	}

	// A body naming its type costs one round trip (no read first).
	r = e.do(t, http.MethodPut, fmt.Sprintf("/v2/alerts_nrql_conditions/%d.json", nc.ID), key1,
		strings.NewReader(`{"nrql_condition":{"type":"static","enabled":false}}`), "Content-Type", "application/json")
	if r.status != 200 || r.header.Get("X-V2bridge-Upstream-Calls") != "1" || e.nrqlConditions(t, 1002)[nc.ID].Enabled {
		t.Fatalf("typed update: %d, %s upstream calls, %s", r.status, r.header.Get("X-V2bridge-Upstream-Calls"), r.body)
	}

	r = e.do(t, http.MethodDelete, fmt.Sprintf("/v2/alerts_nrql_conditions/%d.json", nc.ID), key1, nil)
	if err := json.Unmarshal(r.body, &created); err != nil || r.status != 200 || created.NrqlCondition.ID != nc.ID {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if _, still := e.nrqlConditions(t, 1002)[nc.ID]; still {
		t.Fatal("deleted condition still listed")
	}
	if r := e.do(t, http.MethodDelete, fmt.Sprintf("/v2/alerts_nrql_conditions/%d.json", nc.ID), key1, nil); r.status != 404 {
		t.Fatalf("second delete: %d %s", r.status, r.body)
	}

	// Baseline conditions go through the baseline mutations and keep their type.
	r = e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1003.json", key1, strings.NewReader(
		`{"nrql_condition":{"type":"baseline","name":"Queue depth","baseline_direction":"lower_only",
		"terms":[{"duration":"15","operator":"above","threshold":"3","time_function":"all"}],"nrql":{"query":"SELECT count(*) FROM Job"}}}`),
		"Content-Type", "application/json")
	if err := json.Unmarshal(r.body, &created); err != nil || r.status != 201 || created.NrqlCondition.Type != "baseline" ||
		created.NrqlCondition.BaselineDirection != "lower_only" || !created.NrqlCondition.Enabled {
		t.Fatalf("baseline create: %d %s", r.status, r.body)
	}
	r = e.do(t, http.MethodPut, fmt.Sprintf("/v2/alerts_nrql_conditions/%d.json", created.NrqlCondition.ID), key1,
		strings.NewReader(`{"nrql_condition":{"enabled":false,"baseline_direction":"upper_only"}}`), "Content-Type", "application/json")
	if err := json.Unmarshal(r.body, &created); err != nil || r.status != 200 || created.NrqlCondition.Enabled ||
		created.NrqlCondition.BaselineDirection != "upper_only" || created.NrqlCondition.Type != "baseline" {
		t.Fatalf("baseline update: %d %s", r.status, r.body)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNrqlConditionErrors(t *testing.T) {
	e := newEnv(t)
	e.warm(t)
	good := `{"nrql_condition":{"name":"x","terms":[{"duration":"5","operator":"above","threshold":"1","time_function":"all"}],"nrql":{"query":"SELECT count(*) FROM Transaction"}}}`
	tests := []struct {
		name, method, path, key, body string
		status                        int
		title, message                string
	}{
		{"list without policy_id", http.MethodGet, "/v2/alerts_nrql_conditions.json", key1, "", 400, "Missing parameter: policy_id", ""},
		{"list with a bad policy_id", http.MethodGet, "/v2/alerts_nrql_conditions.json?policy_id=abc", key1, "", 400, "Invalid parameter 'policy_id'", ""},
		{"not JSON", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, `{'nrql_condition':1}`, 400, "not valid JSON", ""},
		{"a value of the wrong kind", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, strings.Replace(good, `"name":"x"`, `"name":"x","enabled":"yes"`, 1), 422, "create the alert condition", "bool"},
		{"a term that is not a string or number", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, strings.Replace(good, `"duration":"5"`, `"duration":true`, 1), 422, "create the alert condition", "string or a number"},
		{"no wrapper", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, `{"name":"x"}`, 422, "create the alert condition", "nrql_condition"},
		{"no name", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, strings.Replace(good, `"name":"x",`, "", 1), 422, "create the alert condition", "name is required"},
		{"no query", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, strings.Replace(good, `"SELECT count(*) FROM Transaction"`, `""`, 1), 422, "create the alert condition", "query is required"},
		{"no terms", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, `{"nrql_condition":{"name":"x","nrql":{"query":"SELECT 1 FROM T"}}}`, 422, "create the alert condition", "at least one term"},
		{"bad operator", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, strings.Replace(good, `"above"`, `"over"`, 1), 422, "create the alert condition", "equal or not_equals"},
		{"value_function sum", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, strings.Replace(good, `"name"`, `"value_function":"sum","name"`, 1), 422, "create the alert condition", "aggregate in the NRQL query"},
		{"outlier", http.MethodPost, "/v2/alerts_nrql_conditions/policies/1001.json", key1, strings.Replace(good, `"name"`, `"type":"outlier","name"`, 1), 422, "create the alert condition", "outlier"},
		{"unknown policy", http.MethodPost, "/v2/alerts_nrql_conditions/policies/999999.json", key1, good, 404, "No Alerts policy was found for the given ID", ""},
		{"another account's policy", http.MethodPost, "/v2/alerts_nrql_conditions/policies/2001.json", key1, good, 404, "No Alerts policy was found for the given ID", ""},
		{"update unknown", http.MethodPut, "/v2/alerts_nrql_conditions/999999.json", key1, good, 404, "No Alerts condition was found with the given ID", ""},
		{"update changes the type", http.MethodPut, "/v2/alerts_nrql_conditions/6101.json", key1, `{"nrql_condition":{"type":"baseline"}}`, 422, "update the alert condition", "cannot be updated as a baseline"},
		{"another account's condition", http.MethodDelete, "/v2/alerts_nrql_conditions/6101.json", key2, "", 404, "No Alerts condition was found with the given ID", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body *strings.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			var r response
			if body != nil {
				r = e.do(t, tt.method, tt.path, tt.key, body, "Content-Type", "application/json")
			} else {
				r = e.do(t, tt.method, tt.path, tt.key, nil)
			}
			var b v2Error
			if err := json.Unmarshal(r.body, &b); err != nil || r.status != tt.status || !strings.Contains(b.Error.Title, tt.title) ||
				(tt.message != "" && (len(b.Error.Messages) == 0 || !strings.Contains(b.Error.Messages[0], tt.message))) {
				t.Fatalf("%d %s; want %d %q %q", r.status, r.body, tt.status, tt.title, tt.message)
			}
		})
	}
	// A refused write changed nothing.
	fresh := newEnv(t)
	fresh.warm(t)
	if n := len(e.nrqlConditions(t, 1001)); n != len(fresh.nrqlConditions(t, 1001)) {
		t.Errorf("refused writes changed policy 1001: %d conditions", n)
	}
}

func TestLegacyConditions(t *testing.T) {
	e := newEnv(t)
	e.warm(t)
	var b struct {
		Conditions []map[string]json.RawMessage `json:"conditions"`
	}
	r := e.get(t, "/v2/alerts_conditions.json?policy_id=1001", key1)
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 || len(b.Conditions) == 0 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "1" {
		t.Errorf("%s upstream calls, want 1", got)
	}
	if f := r.header.Get("X-V2bridge-Fidelity"); f != "approximate" {
		t.Errorf("fidelity %q", f)
	}
	types := map[string]bool{"apm_app_metric": true, "browser_metric": true, "mobile_metric": true, "servers_metric": true}
	for _, c := range b.Conditions {
		var typ string
		_ = json.Unmarshal(c["type"], &typ)
		if !types[typ] {
			t.Errorf("type %q", typ)
		}
		for _, kept := range []string{"entities", "metric", "condition_scope", "runbook_url"} {
			if _, ok := c[kept]; !ok {
				t.Errorf("%s is a field REST sent and must be present (null when not recoverable): %s", kept, r.body)
			}
		}
		for _, gone := range []string{"user_defined", "gc_metric"} {
			if _, ok := c[gone]; ok {
				t.Errorf("%s is not recoverable and must be omitted: %s", gone, r.body)
			}
		}
		var terms []termJSON
		if err := json.Unmarshal(c["terms"], &terms); err != nil || len(terms) == 0 {
			t.Errorf("terms %s: %v", c["terms"], err)
		}
	}
	golden(t, "alerts_conditions_1001.json", r.body)
	// NRQL conditions are not legacy conditions.
	if strings.Contains(string(r.body), `"id":6101`) {
		t.Error("an NRQL condition is listed as a legacy condition")
	}
	if r := e.get(t, "/v2/alerts_conditions.json", key1); r.status != 400 {
		t.Errorf("without policy_id: %d", r.status)
	}
	if r := e.do(t, http.MethodPost, "/v2/alerts_conditions/policies/1001.json", key1, strings.NewReader(`{}`)); r.status != 501 {
		t.Errorf("legacy create: %d", r.status)
	}
}

// TestLegacyConditionTypePerSourceProduct checks REST's type of every legacy condition
// of the demo data by its sourceProduct, the only origin asNrqlConditionsSearch gives:
// APM → apm_app_metric (key-transaction and JVM conditions are APM too and cannot be
// told apart), BROWSER → browser_metric, MOBILE → mobile_metric; an INFRASTRUCTURE
// condition of the same policy is not a REST /alerts_conditions condition and is left out.
func TestLegacyConditionTypePerSourceProduct(t *testing.T) {
	e := newEnv(t)
	e.warm(t)
	tests := []struct {
		policy string
		want   map[int64]string
	}{
		{policy: "1001", want: map[int64]string{6303: "browser_metric", 6304: "mobile_metric"}},
		{policy: "1004", want: map[int64]string{6301: "apm_app_metric", 6302: "apm_app_metric"}},
	}
	for _, tt := range tests {
		t.Run(tt.policy, func(t *testing.T) {
			r := e.get(t, "/v2/alerts_conditions.json?policy_id="+tt.policy, key1)
			var b struct {
				Conditions []struct {
					ID   int64  `json:"id"`
					Type string `json:"type"`
				} `json:"conditions"`
			}
			if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			got := map[int64]string{}
			for _, c := range b.Conditions {
				got[c.ID] = c.Type
			}
			if len(got) != len(tt.want) {
				t.Errorf("conditions %v, want %v", got, tt.want)
			}
			for id, typ := range tt.want {
				if got[id] != typ {
					t.Errorf("condition %d type %q, want %q", id, got[id], typ)
				}
			}
		})
	}
}

// The streaming settings of REST's create body (docs-website
// alerts/scale-automate/rest-api/rest-api-calls-alerts.mdx: slide_by,
// aggregation_method, aggregation_delay, aggregation_timer) reach NerdGraph and come
// back in the answer and the list, on create and on update; an unknown aggregation
// method is REST's 422, not dropped.
func TestNrqlConditionSignalSettings(t *testing.T) {
	e := newEnv(t)
	type signal struct {
		AggregationWindow string `json:"aggregation_window"`
		SlideBy           *int64 `json:"slide_by"`
		AggregationMethod string `json:"aggregation_method"`
		AggregationDelay  *int64 `json:"aggregation_delay"`
		AggregationTimer  *int64 `json:"aggregation_timer"`
		FillOption        string `json:"fill_option"`
	}
	type answer struct {
		NrqlCondition struct {
			ID     int64   `json:"id"`
			Signal *signal `json:"signal"`
		} `json:"nrql_condition"`
	}
	body := `{"nrql_condition":{"name":"streaming","enabled":true,"terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1","time_function":"all"}],
		"nrql":{"query":"SELECT count(*) FROM Transaction"},
		"signal":{"aggregation_window":"60","slide_by":30,"aggregation_method":"EVENT_FLOW","aggregation_delay":90,"fill_option":"none"}}}`
	r := e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", key1, strings.NewReader(body), "Content-Type", "application/json")
	var created answer
	if err := json.Unmarshal(r.body, &created); err != nil || r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	s := created.NrqlCondition.Signal
	if s == nil || s.AggregationWindow != "60" || s.SlideBy == nil || *s.SlideBy != 30 || s.AggregationMethod != "EVENT_FLOW" ||
		s.AggregationDelay == nil || *s.AggregationDelay != 90 || s.AggregationTimer != nil {
		t.Fatalf("created signal %s", r.body)
	}
	// update to the timer method; the list shows what NerdGraph now holds
	upd := `{"nrql_condition":{"type":"static","signal":{"aggregation_method":"event_timer","aggregation_timer":"45"}}}`
	id := created.NrqlCondition.ID
	r = e.do(t, http.MethodPut, fmt.Sprintf("/v2/alerts_nrql_conditions/%d.json", id), key1, strings.NewReader(upd), "Content-Type", "application/json")
	if r.status != 200 {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	r = e.get(t, "/v2/alerts_nrql_conditions.json?policy_id=1002", key1)
	var raw struct {
		NrqlConditions []struct {
			ID     int64   `json:"id"`
			Signal *signal `json:"signal"`
		} `json:"nrql_conditions"`
	}
	if err := json.Unmarshal(r.body, &raw); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range raw.NrqlConditions {
		if c.ID != id {
			continue
		}
		found = true
		if s := c.Signal; s == nil || s.AggregationMethod != "EVENT_TIMER" || s.AggregationTimer == nil || *s.AggregationTimer != 45 {
			t.Errorf("listed signal %+v", c.Signal)
		}
	}
	if !found {
		t.Fatalf("condition %d not listed: %s", id, r.body)
	}
	bad := strings.Replace(body, `"EVENT_FLOW"`, `"sliding"`, 1)
	r = e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", key1, strings.NewReader(bad), "Content-Type", "application/json")
	if r.status != 422 || !strings.Contains(string(r.body), "aggregation_method") {
		t.Fatalf("unknown aggregation method: %d %s", r.status, r.body)
	}
}
