package fieldsets

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// fieldSet is one resource's fields: paths inside the object ("a.b", "terms[].x"; a
// segment ending in "?" may be absent, as REST left it out in the situation named in
// conditional), and the values that are null with why.
type fieldSet struct {
	Evidence    []string          `json:"evidence"`
	Fields      []string          `json:"fields"`
	Conditional map[string]string `json:"conditional"`
	Values      map[string]string `json:"values"`
	Null        map[string]string `json:"null"`
	Omitted     map[string]string `json:"omitted"`
}

func loadSets(t *testing.T) map[string]fieldSet {
	t.Helper()
	b, err := os.ReadFile("testdata/fieldsets.json")
	if err != nil {
		t.Fatal(err)
	}
	var sets map[string]fieldSet
	if err := json.Unmarshal(b, &sets); err != nil {
		t.Fatal(err)
	}
	return sets
}

// node is a JSON or XML answer as a tree: objects by key (XML: child elements by
// name), arrays as items (XML: the children of the array's element), null as isNull
// (XML: never, an empty element is present).
type node struct {
	keys   map[string]*node
	items  []*node
	isNull bool
}

func fromJSON(v any) *node {
	switch x := v.(type) {
	case map[string]any:
		n := &node{keys: map[string]*node{}}
		for k, c := range x {
			n.keys[k] = fromJSON(c)
		}
		return n
	case []any:
		n := &node{}
		for _, c := range x {
			n.items = append(n.items, fromJSON(c))
		}
		return n
	case nil:
		return &node{isNull: true}
	}
	return &node{}
}

func fromXML(t *testing.T, b []byte) *node {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	var stack []*node
	root := &node{keys: map[string]*node{}}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return root
		}
		if err != nil {
			t.Fatalf("not XML: %v: %s", err, b)
		}
		switch tt := tok.(type) {
		case xml.StartElement:
			n := &node{keys: map[string]*node{}}
			if len(stack) == 0 {
				root = n
			} else {
				p := stack[len(stack)-1]
				p.keys[tt.Name.Local] = n
				p.items = append(p.items, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

// check walks path under n, recording missing fields and undeclared nulls; it returns
// how many objects it reached the path's last segment in.
func check(n *node, path []string, full string, set fieldSet, format string, problems *[]string) int {
	seg := path[0]
	optional := strings.HasSuffix(seg, "?")
	seg = strings.TrimSuffix(seg, "?")
	array := strings.HasSuffix(seg, "[]")
	seg = strings.TrimSuffix(seg, "[]")
	c, ok := n.keys[seg]
	if !ok {
		if !optional {
			*problems = append(*problems, format+": missing "+full)
		}
		return 0
	}
	if len(path) == 1 {
		if c.isNull && set.Null[strings.ReplaceAll(full, "?", "")] == "" {
			*problems = append(*problems, format+": undeclared null "+full)
		}
		return 1
	}
	if c.isNull {
		if !optional {
			*problems = append(*problems, format+": null object "+full)
		}
		return 0
	}
	if !array {
		return check(c, path[1:], full, set, format, problems)
	}
	reached := 0
	for _, it := range c.items {
		reached += check(it, path[1:], full, set, format, problems)
	}
	return reached
}

const (
	app    = "314221522" // reporting, no browser monitoring
	rumApp = "924224343" // reporting, browser monitoring
	mobile = "601483762"
)

// route is one answer to walk: the objects at wrapper ("applications[]" for a list,
// "application" for a single object) are of resource.
type route struct {
	name     string
	resource string
	wrapper  string
	method   string
	path     func(c *client) string // with {f} for the format
	body     string
}

type client struct {
	t *testing.T
	h *harness.Env
}

func (c *client) do(method, path, body string) (int, []byte) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.h.Gateway.URL+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("X-Api-Key", harness.Key1)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// id is the id of the first object at wrapper in a JSON answer.
func (c *client) id(method, path, body, wrapper string) string {
	c.t.Helper()
	status, b := c.do(method, path, body)
	var v map[string]json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil || status >= 300 {
		c.t.Fatalf("%s %s: %d %s", method, path, status, b)
	}
	var obj struct{ ID json.Number }
	raw := v[strings.TrimSuffix(wrapper, "[]")]
	if strings.HasSuffix(wrapper, "[]") {
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
			c.t.Fatalf("%s %s: no %s: %s", method, path, wrapper, b)
		}
		raw = list[0]
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		c.t.Fatalf("%s %s: %v %s", method, path, err, b)
	}
	return obj.ID.String()
}

func fixed(p string) func(*client) string { return func(*client) string { return p } }

const nrqlBody = `{"nrql_condition":{"name":"fieldsets","enabled":true,"terms":[{"duration":"5","operator":"above","priority":"critical","threshold":"1","time_function":"all"}],"nrql":{"query":"SELECT count(*) FROM Transaction WHERE appId IN (` + app + `)"}}}`

func routes() []route {
	newPolicy := func(c *client) string {
		return c.id(http.MethodPost, "/v2/alerts_policies.json", `{"policy":{"name":"fieldsets","incident_preference":"PER_POLICY"}}`, "policy")
	}
	newCondition := func(c *client) string {
		return c.id(http.MethodPost, "/v2/alerts_nrql_conditions/policies/1002.json", nrqlBody, "nrql_condition")
	}
	host := func(kind string) func(*client) string {
		return func(c *client) string {
			return "/v2/applications/" + app + "/" + kind + "/" + c.id(http.MethodGet, "/v2/applications/"+app+"/"+kind+".json", "", "application_"+kind+"[]") + ".{f}"
		}
	}
	return []route{
		{"applications.list", "application", "applications[]", "", fixed("/v2/applications.{f}"), ""},
		{"applications.show", "application", "application", "", fixed("/v2/applications/" + app + ".{f}"), ""},
		{"applications.show with browser", "application", "application", "", fixed("/v2/applications/" + rumApp + ".{f}"), ""},
		{"applications.update", "application", "application", http.MethodPut, fixed("/v2/applications/" + app + ".{f}"), `{"application":{"settings":{"app_apdex_threshold":0.5}}}`},
		{"application_hosts.list", "application_host", "application_hosts[]", "", fixed("/v2/applications/" + app + "/hosts.{f}"), ""},
		{"application_hosts.show", "application_host", "application_host", "", host("hosts"), ""},
		{"application_instances.list", "application_instance", "application_instances[]", "", fixed("/v2/applications/" + app + "/instances.{f}"), ""},
		{"application_instances.show", "application_instance", "application_instance", "", host("instances"), ""},
		{"key_transactions.list", "key_transaction", "key_transactions[]", "", fixed("/v2/key_transactions.{f}"), ""},
		{"key_transactions.show", "key_transaction", "key_transaction", "", fixed("/v2/key_transactions/3001.{f}"), ""},
		{"alerts_policies.list", "policy", "policies[]", "", fixed("/v2/alerts_policies.{f}"), ""},
		{"alerts_policies.create", "policy", "policy", http.MethodPost, fixed("/v2/alerts_policies.{f}"), `{"policy":{"name":"fieldsets","incident_preference":"PER_POLICY"}}`},
		{"alerts_policies.update", "policy", "policy", http.MethodPut, func(c *client) string { return "/v2/alerts_policies/" + newPolicy(c) + ".{f}" },
			`{"policy":{"name":"fieldsets renamed"}}`},
		{"alerts_policies.delete", "policy", "policy", http.MethodDelete, func(c *client) string { return "/v2/alerts_policies/" + newPolicy(c) + ".{f}" }, ""},
		{"alerts_nrql_conditions.list", "nrql_condition", "nrql_conditions[]", "", fixed("/v2/alerts_nrql_conditions.{f}?policy_id=1002"), ""},
		{"alerts_nrql_conditions.create", "nrql_condition", "nrql_condition", http.MethodPost, fixed("/v2/alerts_nrql_conditions/policies/1002.{f}"), nrqlBody},
		{"alerts_nrql_conditions.update", "nrql_condition", "nrql_condition", http.MethodPut,
			func(c *client) string { return "/v2/alerts_nrql_conditions/" + newCondition(c) + ".{f}" }, `{"nrql_condition":{"enabled":"false"}}`},
		{"alerts_nrql_conditions.delete", "nrql_condition", "nrql_condition", http.MethodDelete,
			func(c *client) string { return "/v2/alerts_nrql_conditions/" + newCondition(c) + ".{f}" }, ""},
		{"alerts_conditions.list", "condition", "conditions[]", "", fixed("/v2/alerts_conditions.{f}?policy_id=1004"), ""},
		{"alerts_entity_conditions.list", "nrql_condition", "conditions[]", "", func(c *client) string {
			newCondition(c)
			return "/v2/alerts_entity_conditions/" + app + ".{f}?entity_type=Application"
		}, ""},
		{"alerts_entity_conditions.add", "nrql_condition", "condition", http.MethodPut, func(c *client) string {
			return "/v2/alerts_entity_conditions/" + rumApp + ".{f}?entity_type=Application&condition_id=" + newCondition(c)
		}, ""},
		{"deployments.list", "deployment", "deployments[]", "", func(c *client) string {
			c.id(http.MethodPost, "/v2/applications/"+app+"/deployments.json", `{"deployment":{"revision":"r1"}}`, "deployment")
			return "/v2/applications/" + app + "/deployments.{f}"
		}, ""},
		{"deployments.create", "deployment", "deployment", http.MethodPost, fixed("/v2/applications/" + app + "/deployments.{f}"), `{"deployment":{"revision":"r2","user":"u"}}`},
		{"mobile_applications.list", "mobile_application", "mobile_applications[]", "", fixed("/v2/mobile_applications.{f}"), ""},
		{"mobile_applications.show", "mobile_application", "mobile_application", "", fixed("/v2/mobile_applications/" + mobile + ".{f}"), ""},
		{"alerts_violations.list", "violation", "violations[]", "", fixed("/v2/alerts_violations.{f}?start_date=2026-11-01T00:00:00Z"), ""},
		{"alerts_incidents.list", "incident", "incidents[]", "", fixed("/v2/alerts_incidents.{f}"), ""},
		{"browser_applications.list", "browser_application", "browser_applications[]", "", fixed("/v2/browser_applications.{f}"), ""},
		{"browser_applications.create", "browser_application", "browser_application", http.MethodPost, fixed("/v2/browser_applications.{f}"), `{"browser_application":{"name":"fieldsets"}}`},
	}
}

// Every route's answer, JSON and XML, carries every field of its resource's set; a
// null is declared with its reason; every set names its evidence and is walked.
func TestAnswersCarryEveryFieldRESTSent(t *testing.T) {
	sets := loadSets(t)
	h := harness.Start(t, gateway.Config{})
	c := &client{t: t, h: h}
	walked := map[string]bool{}
	for _, r := range routes() {
		set, ok := sets[r.resource]
		if !ok {
			t.Fatalf("%s: no field set for %s", r.name, r.resource)
		}
		walked[r.resource] = true
		for _, format := range []string{"json", "xml"} {
			t.Run(r.name+"."+format, func(t *testing.T) {
				c.t = t
				method := r.method
				if method == "" {
					method = http.MethodGet
				}
				path := strings.ReplaceAll(r.path(c), "{f}", format)
				status, b := c.do(method, path, r.body)
				if status >= 300 {
					t.Fatalf("%s %s: %d %s", method, path, status, b)
				}
				var root *node
				if format == "json" {
					var v any
					if err := json.Unmarshal(b, &v); err != nil {
						t.Fatalf("not JSON: %v: %s", err, b)
					}
					root = fromJSON(v)
				} else {
					root = fromXML(t, b)
				}
				var problems []string
				for _, f := range set.Fields {
					segs := append(strings.Split(r.wrapper, "."), strings.Split(f, ".")...)
					if n := check(root, segs, f, set, format, &problems); n == 0 && !strings.Contains(f, "?") && len(problems) == 0 {
						problems = append(problems, format+": no "+r.wrapper+" object in the answer to check "+f+" in: "+strconv.Quote(string(b)))
					}
				}
				if len(problems) > 0 {
					t.Errorf("%s %s:\n  %s", method, path, strings.Join(problems, "\n  "))
				}
			})
		}
	}
	for name, set := range sets {
		if len(set.Evidence) == 0 {
			t.Errorf("%s: the field set names no evidence", name)
		}
		if !walked[name] {
			t.Errorf("%s: no route walks the field set", name)
		}
	}
}
