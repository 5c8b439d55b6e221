package e2e

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// A writable resource as a client library sees it: read returns the object (JSON: the
// decoded object; XML: the object's element), write sends a whole object back (PUT,
// or POST for deployments, which have no PUT).
type rmwCase struct {
	name string
	// setup creates what the case works on and returns its read path (with {f}), its
	// write method and path (with {f}), and the wrapper key of the object.
	setup func(t *testing.T, e *env) (read, method, write, wrapper string)
	// pick is the object in a JSON read (a list is searched by id).
	pick func(t *testing.T, body []byte) map[string]any
	// field is the dotted JSON path changed by the modify step and its new value;
	// xmlOld/xmlNew are the same change in the XML read.
	field string
	value any
	// sent, when set, is what the write sends for value (a string, as clients in
	// dynamic languages send booleans and numbers).
	sent           any
	xmlOld, xmlNew string
	// also are fields derived from field that change with it (JSON path → value; XML
	// old → new element).
	also    map[string]any
	xmlAlso [][2]string
	// drop are fields left out of what is written: a deployment's timestamp must be
	// later than the application's latest (REST's rule, applied by
	// translate/deployments.go), so a deployment made from a read one leaves its
	// timestamp to the server.
	drop []string
	// xmlAnchor: xmlOld is replaced after its first occurrence (the object's name).
	xmlAnchor string
	// xmlBody: the write accepts the XML object element as its body (else the JSON
	// object is sent to the .xml URL).
	xmlBody bool
	// compareNewest: the write creates (deployments), so the newest object of the
	// read is compared with what was sent, without id and timestamp.
	compareNewest bool
}

func jsonObject(wrapper string) func(*testing.T, []byte) map[string]any {
	return func(t *testing.T, b []byte) map[string]any {
		t.Helper()
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("not JSON: %v: %s", err, b)
		}
		o, ok := v[wrapper].(map[string]any)
		if !ok {
			t.Fatalf("no %q object: %s", wrapper, b)
		}
		return o
	}
}

// jsonListItem is the item of a list whose id is *id (the first when *id is 0).
func jsonListItem(list string, id *float64) func(*testing.T, []byte) map[string]any {
	return func(t *testing.T, b []byte) map[string]any {
		t.Helper()
		var v map[string]json.RawMessage
		var items []map[string]any
		if err := json.Unmarshal(b, &v); err != nil || json.Unmarshal(v[list], &items) != nil {
			t.Fatalf("not a list: %v: %s", err, b)
		}
		for _, o := range items {
			if *id == 0 || o["id"] == *id {
				return o
			}
		}
		t.Fatalf("no %s item %v: %s", list, *id, b)
		return nil
	}
}

func setPath(o map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		o = o[k].(map[string]any)
	}
	o[keys[len(keys)-1]] = v
}

func clone(o map[string]any) map[string]any {
	b, _ := json.Marshal(o)
	var c map[string]any
	_ = json.Unmarshal(b, &c)
	return c
}

// xmlElement is the first <name>...</name> element of b.
func xmlElement(t *testing.T, b []byte, name string) string {
	t.Helper()
	s := string(b)
	i, j := strings.Index(s, "<"+name+">"), strings.LastIndex(s, "</"+name+">")
	if i < 0 || j < i {
		t.Fatalf("no <%s> element: %s", name, b)
	}
	return s[i : j+len(name)+3]
}

func rmwCases() []rmwCase {
	var policyID, conditionID float64
	return []rmwCase{
		{name: "application settings", field: "settings.app_apdex_threshold", value: 0.25,
			also:    map[string]any{"application_summary.apdex_target": 0.25},
			xmlAlso: [][2]string{{"<apdex_target>0.1</apdex_target>", "<apdex_target>0.25</apdex_target>"}},
			xmlOld:  "<app_apdex_threshold>0.1</app_apdex_threshold>", xmlNew: "<app_apdex_threshold>0.25</app_apdex_threshold>", xmlBody: true,
			setup: func(*testing.T, *env) (string, string, string, string) {
				return "/v2/applications/314221522.{f}", http.MethodPut, "/v2/applications/314221522.{f}", "application"
			}, pick: jsonObject("application")},
		{name: "application name", field: "name", value: "Uptime Monitor renamed",
			xmlOld: "<name>100% Uptime Monitor</name>", xmlNew: "<name>Uptime Monitor renamed</name>", xmlBody: true,
			setup: func(*testing.T, *env) (string, string, string, string) {
				return "/v2/applications/314221522.{f}", http.MethodPut, "/v2/applications/314221522.{f}", "application"
			}, pick: jsonObject("application")},
		{name: "application end user apdex", field: "settings.end_user_apdex_threshold", value: 3.5, sent: "3.5", xmlBody: true,
			also:   map[string]any{"end_user_summary.apdex_target": 3.5},
			xmlOld: "<end_user_apdex_threshold>4.0</end_user_apdex_threshold>", xmlNew: "<end_user_apdex_threshold>3.5</end_user_apdex_threshold>",
			xmlAlso: [][2]string{{"<apdex_target>4.0</apdex_target>", "<apdex_target>3.5</apdex_target>"}},
			setup: func(*testing.T, *env) (string, string, string, string) {
				return "/v2/applications/924224343.{f}", http.MethodPut, "/v2/applications/924224343.{f}", "application"
			}, pick: jsonObject("application")},
		{name: "policy", field: "name", value: "rmw renamed",
			xmlOld: "<name>rmw</name>", xmlNew: "<name>rmw renamed</name>",
			setup: func(t *testing.T, e *env) (string, string, string, string) {
				r := e.do(t, http.MethodPost, "/v2/alerts_policies.json", key1, strings.NewReader(`{"policy":{"name":"rmw","incident_preference":"PER_POLICY"}}`), "Content-Type", "application/json")
				policyID = jsonObject("policy")(t, r.body)["id"].(float64)
				return "/v2/alerts_policies.{f}", http.MethodPut, "/v2/alerts_policies/" + ftoa(policyID) + ".{f}", "policy"
			}, pick: jsonListItem("policies", &policyID)},
		{name: "nrql condition", field: "enabled", value: false, sent: "false", xmlAnchor: "<name>rmw</name>",
			xmlOld: "<enabled>true</enabled>", xmlNew: "<enabled>false</enabled>",
			setup: func(t *testing.T, e *env) (string, string, string, string) {
				r := e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", key1, strings.NewReader(
					`{"nrql_condition":{"name":"rmw","enabled":true,"terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1","time_function":"all"}],`+
						`"nrql":{"query":"SELECT count(*) FROM Transaction WHERE appId IN (314221522)"}}}`), "Content-Type", "application/json")
				conditionID = jsonObject("nrql_condition")(t, r.body)["id"].(float64)
				return "/v2/alerts_nrql_conditions.{f}?policy_id=1002", http.MethodPut, "/v2/alerts_nrql_conditions/" + ftoa(conditionID) + ".{f}", "nrql_condition"
			}, pick: jsonListItem("nrql_conditions", &conditionID)},
		{name: "nrql condition as an entity condition", field: "name", value: "rmw entity renamed",
			xmlOld: "<name>rmw entity</name>", xmlNew: "<name>rmw entity renamed</name>",
			setup: func(t *testing.T, e *env) (string, string, string, string) {
				r := e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", key1, strings.NewReader(
					`{"nrql_condition":{"name":"rmw entity","enabled":true,"terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1","time_function":"all"}],`+
						`"nrql":{"query":"SELECT count(*) FROM Transaction WHERE appId IN (924224343)"}}}`), "Content-Type", "application/json")
				conditionID = jsonObject("nrql_condition")(t, r.body)["id"].(float64)
				return "/v2/alerts_entity_conditions/924224343.{f}?entity_type=Application", http.MethodPut, "/v2/alerts_nrql_conditions/" + ftoa(conditionID) + ".{f}", "nrql_condition"
			}, pick: jsonListItem("conditions", &conditionID)},
		{name: "nrql condition 6103 (above_or_equals)", field: "enabled", value: false, xmlAnchor: "<id>6103</id>",
			xmlOld: "<enabled>true</enabled>", xmlNew: "<enabled>false</enabled>",
			setup: func(*testing.T, *env) (string, string, string, string) {
				conditionID = 6103
				return "/v2/alerts_nrql_conditions.{f}?policy_id=1001", http.MethodPut, "/v2/alerts_nrql_conditions/6103.{f}", "nrql_condition"
			}, pick: jsonListItem("nrql_conditions", &conditionID)},
		{name: "deployment", field: "revision", value: "rmw-2", compareNewest: true, xmlBody: true, drop: []string{"timestamp"},
			xmlOld: "<revision>rmw-1</revision>", xmlNew: "<revision>rmw-2</revision>",
			setup: func(t *testing.T, e *env) (string, string, string, string) {
				e.do(t, http.MethodPost, "/v2/applications/314221522/deployments.json", key1, strings.NewReader(
					`{"deployment":{"revision":"rmw-1","changelog":"c","description":"d","user":"u"}}`), "Content-Type", "application/json")
				return "/v2/applications/314221522/deployments.{f}", http.MethodPost, "/v2/applications/314221522/deployments.{f}", "deployment"
			}, pick: func(t *testing.T, b []byte) map[string]any {
				// The deployment with the modified revision once written, else the first.
				var v struct{ Deployments []map[string]any }
				if err := json.Unmarshal(b, &v); err != nil || len(v.Deployments) == 0 {
					t.Fatalf("no deployments: %v: %s", err, b)
				}
				for _, d := range v.Deployments {
					if d["revision"] == "rmw-2" {
						return d
					}
				}
				return v.Deployments[0]
			}},
	}
}

// operatorRMWCases are a read-modify-write of an NRQL condition per operator REST's
// field glossary lists for NRQL conditions (newrelic/docs-website
// src/content/docs/alerts/scale-automate/rest-api/alerts-conditions-api-field-names.mdx).
func operatorRMWCases() []rmwCase {
	var out []rmwCase
	for _, op := range []string{"above", "above_or_equals", "below", "below_or_equals", "equal", "not_equals"} {
		var id float64
		name := "rmw " + op
		out = append(out, rmwCase{name: "nrql condition operator " + op, field: "name", value: name + " renamed",
			xmlOld: "<name>" + name + "</name>", xmlNew: "<name>" + name + " renamed</name>",
			setup: func(t *testing.T, e *env) (string, string, string, string) {
				r := e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", key1, strings.NewReader(
					`{"nrql_condition":{"name":"`+name+`","enabled":true,"terms":[{"duration":"5","operator":"`+op+`","priority":"critical","threshold":"1","time_function":"all"}],`+
						`"nrql":{"query":"SELECT count(*) FROM Transaction"}}}`), "Content-Type", "application/json")
				if r.status != http.StatusCreated {
					t.Fatalf("creating a condition with operator %s: %d %s", op, r.status, r.body)
				}
				o := jsonObject("nrql_condition")(t, r.body)
				if terms, _ := o["terms"].([]any); len(terms) != 1 || terms[0].(map[string]any)["operator"] != op {
					t.Fatalf("created terms %v, want operator %s", o["terms"], op)
				}
				id = o["id"].(float64)
				return "/v2/alerts_nrql_conditions.{f}?policy_id=1002", http.MethodPut, "/v2/alerts_nrql_conditions/" + ftoa(id) + ".{f}", "nrql_condition"
			}, pick: jsonListItem("nrql_conditions", &id)})
	}
	return out
}

// replaceAfter replaces the first old after the first anchor in s.
func replaceAfter(s, anchor, old, new string) string {
	i := strings.Index(s, anchor)
	if i < 0 {
		i = 0
	}
	return s[:i] + strings.Replace(s[i:], old, new, 1)
}

func ftoa(f float64) string { b, _ := json.Marshal(f); return string(b) }

// What a client reads it can write back unchanged, and a read-modify-write of one
// field changes only that field: for every writable resource, JSON and XML.
func TestReadModifyWriteChangesOnlyTheField(t *testing.T) {
	for _, c := range append(rmwCases(), operatorRMWCases()...) {
		t.Run(c.name+".json", func(t *testing.T) {
			e := newEnv(t)
			read, method, write, wrapper := c.setup(t, e)
			read, write = strings.ReplaceAll(read, "{f}", "json"), strings.ReplaceAll(write, "{f}", "json")
			get := func() map[string]any {
				r := e.get(t, read, key1)
				if r.status != 200 {
					t.Fatalf("GET %s: %d %s", read, r.status, r.body)
				}
				return c.pick(t, r.body)
			}
			send := func(o map[string]any) {
				for _, k := range c.drop {
					delete(o, k)
				}
				b, _ := json.Marshal(map[string]any{wrapper: o})
				r := e.do(t, method, write, key1, strings.NewReader(string(b)), "Content-Type", "application/json")
				if r.status >= 300 {
					t.Fatalf("%s %s %s: %d %s", method, write, b, r.status, r.body)
				}
			}
			before := get()
			send(clone(before))
			if after := get(); !c.compareNewest && !reflect.DeepEqual(before, after) {
				t.Fatalf("writing back what was read changed it:\nbefore %v\nafter  %v", before, after)
			}
			modified := clone(before)
			sent := clone(before)
			setPath(sent, c.field, c.value)
			if c.sent != nil {
				setPath(sent, c.field, c.sent)
			}
			send(sent)
			setPath(modified, c.field, c.value)
			for k, v := range c.also {
				setPath(modified, k, v)
			}
			after := get()
			if c.compareNewest {
				for _, k := range []string{"id", "timestamp"} {
					delete(modified, k)
					delete(after, k)
				}
			}
			if !reflect.DeepEqual(modified, after) {
				t.Fatalf("changing %s:\nwant %v\ngot  %v", c.field, modified, after)
			}
		})
		t.Run(c.name+".xml", func(t *testing.T) {
			e := newEnv(t)
			read, method, write, wrapper := c.setup(t, e)
			jsonRead, jsonWrite := strings.ReplaceAll(read, "{f}", "json"), strings.ReplaceAll(write, "{f}", "json")
			read, write = strings.ReplaceAll(read, "{f}", "xml"), strings.ReplaceAll(write, "{f}", "xml")
			get := func() string {
				r := e.get(t, read, key1)
				if r.status != 200 {
					t.Fatalf("GET %s: %d %s", read, r.status, r.body)
				}
				return string(r.body)
			}
			send := func(xmlBody string, modify bool) {
				var body, ct string
				if c.xmlBody {
					body, ct = xmlBody, "application/xml"
					for _, k := range c.drop {
						if i, j := strings.Index(body, "<"+k+">"), strings.Index(body, "</"+k+">"); i >= 0 && j > i {
							body = body[:i] + body[j+len(k)+3:]
						}
					}
				} else {
					o := c.pick(t, e.get(t, jsonRead, key1).body)
					for _, k := range c.drop {
						delete(o, k)
					}
					if modify {
						setPath(o, c.field, c.value)
						if c.sent != nil {
							setPath(o, c.field, c.sent)
						}
					}
					b, _ := json.Marshal(map[string]any{wrapper: o})
					body, ct = string(b), "application/json"
				}
				_ = jsonWrite
				r := e.do(t, method, write, key1, strings.NewReader(body), "Content-Type", ct)
				if r.status >= 300 {
					t.Fatalf("%s %s %s: %d %s", method, write, body, r.status, r.body)
				}
				if !strings.HasPrefix(string(r.body), "<?xml") {
					t.Fatalf("%s %s answered %s", method, write, r.body)
				}
			}
			before := get()
			if !strings.Contains(before, c.xmlOld) {
				t.Fatalf("the read has no %s: %s", c.xmlOld, before)
			}
			var element string
			if c.xmlBody {
				element = xmlElement(t, []byte(before), wrapper)
			}
			send(element, false)
			if after := get(); !c.compareNewest && after != before {
				t.Fatalf("writing back what was read changed it:\nbefore %s\nafter  %s", before, after)
			}
			send(replaceAfter(element, c.xmlAnchor, c.xmlOld, c.xmlNew), true)
			after := get()
			if c.compareNewest {
				if !strings.Contains(after, c.xmlNew) || strings.Count(after, "<deployment>") != 3 {
					t.Fatalf("the created deployment is not listed: %s", after)
				}
				return
			}
			want := replaceAfter(before, c.xmlAnchor, c.xmlOld, c.xmlNew)
			for _, a := range c.xmlAlso {
				want = strings.Replace(want, a[0], a[1], 1)
			}
			if after != want {
				t.Fatalf("changing %s:\nwant %s\ngot  %s", c.field, want, after)
			}
		})
	}
}

// The entity condition write (PUT /v2/alerts_entity_conditions/{entity_id}, no body):
// adding an entity the condition already names changes nothing; adding another changes
// only the query's entity list, JSON and XML.
func TestEntityConditionWriteChangesOnlyTheEntities(t *testing.T) {
	for _, format := range []string{"json", "xml"} {
		t.Run(format, func(t *testing.T) {
			e := newEnv(t)
			r := e.do(t, http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", key1, strings.NewReader(
				`{"nrql_condition":{"name":"rmw entities","enabled":true,"terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1","time_function":"all"}],`+
					`"nrql":{"query":"SELECT count(*) FROM Transaction WHERE appId IN (924224343)"}}}`), "Content-Type", "application/json")
			id := jsonObject("nrql_condition")(t, r.body)["id"].(float64)
			get := func(entity string) map[string]any {
				return jsonListItem("conditions", &id)(t, e.get(t, "/v2/alerts_entity_conditions/"+entity+".json?entity_type=Application", key1).body)
			}
			put := func(entity string) {
				r := e.do(t, http.MethodPut, "/v2/alerts_entity_conditions/"+entity+"."+format+"?entity_type=Application&condition_id="+ftoa(id), key1, nil)
				if r.status != 200 {
					t.Fatalf("PUT %s: %d %s", entity, r.status, r.body)
				}
			}
			before := get("924224343")
			put("924224343")
			if after := get("924224343"); !reflect.DeepEqual(before, after) {
				t.Fatalf("adding an entity already named changed the condition:\nbefore %v\nafter  %v", before, after)
			}
			put("314221522")
			after := get("314221522")
			query, _ := after["nrql"].(map[string]any)["query"].(string)
			if !strings.Contains(query, "314221522") || !strings.Contains(query, "924224343") {
				t.Fatalf("the query does not name both entities: %q", query)
			}
			want := clone(before)
			setPath(want, "nrql.query", query)
			if !reflect.DeepEqual(want, after) {
				t.Fatalf("adding an entity changed more than the query:\nwant %v\ngot  %v", want, after)
			}
		})
	}
}
