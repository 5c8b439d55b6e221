package graphql

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v2bridge/v2bridge/schema"
)

// ApmOutline's JSON names are exactly what AppList and AppSearchPage select for an
// APM application outline, so no selected field is dropped while decoding.
func TestApmOutlineMatchesSelections(t *testing.T) {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "nerdgraph.graphql", Input: schema.NerdGraph()})
	if err != nil {
		t.Fatal(err)
	}
	doc, errs := gqlparser.LoadQuery(s, OperationsDocument())
	if errs != nil {
		t.Fatal(errs)
	}
	var tags []string
	ty := reflect.TypeFor[ApmOutline]()
	for i := range ty.NumField() {
		tags = append(tags, strings.Split(ty.Field(i).Tag.Get("json"), ",")[0])
	}
	slices.Sort(tags)
	for _, name := range []string{"AppList", "AppSearchPage"} {
		op := doc.Operations.ForName(name)
		if op == nil {
			t.Fatalf("operation %s not found", name)
		}
		entities := find(op.SelectionSet, []string{"actor", "entitySearch", "results", "entities"})
		if entities == nil {
			t.Fatalf("%s: no actor.entitySearch.results.entities", name)
		}
		var got []string
		var walk func(set ast.SelectionSet)
		walk = func(set ast.SelectionSet) {
			for _, sel := range set {
				switch v := sel.(type) {
				case *ast.Field:
					got = append(got, v.Alias)
				case *ast.InlineFragment:
					if v.TypeCondition != "ApmApplicationEntityOutline" {
						t.Errorf("%s: fragment on %s is not decoded", name, v.TypeCondition)
					}
					walk(v.SelectionSet)
				case *ast.FragmentSpread:
					if v.Definition.TypeCondition != "ApmApplicationEntityOutline" {
						t.Errorf("%s: fragment on %s is not decoded", name, v.Definition.TypeCondition)
					}
					walk(v.Definition.SelectionSet)
				}
			}
		}
		walk(entities.SelectionSet)
		slices.Sort(got)
		if !slices.Equal(got, tags) {
			t.Errorf("%s selects %v; ApmOutline decodes %v", name, got, tags)
		}
	}
}

// find follows the first-level field path from a selection set.
func find(set ast.SelectionSet, path []string) *ast.Field {
	for _, sel := range set {
		f, ok := sel.(*ast.Field)
		if !ok || f.Alias != path[0] {
			continue
		}
		if len(path) == 1 {
			return f
		}
		return find(f.SelectionSet, path[1:])
	}
	return nil
}

func TestApmOutlineDecodes(t *testing.T) {
	page := `[
	  {"__typename":"ApmApplicationEntityOutline","guid":"MTAwMDAwMXxBUE18QVBQTElDQVRJT058MQ","accountId":1000001,
	   "name":"checkout \"eu\"","reporting":true,"alertSeverity":"WARNING","applicationId":1,"language":"java",
	   "settings":{"apdexTarget":0.5,"serverSideConfig":false},
	   "apmSummary":{"apdexScore":0.97,"errorRate":0.01,"hostCount":2,"instanceCount":3,"webResponseTimeAverage":0.12,
	     "webThroughput":100,"nonWebResponseTimeAverage":null,"nonWebThroughput":null},
	   "apmBrowserSummary":null},
	  {"__typename":"BrowserApplicationEntityOutline","guid":"x"},
	  {"guid":"untyped","applicationId":2}
	]`
	var got []ApmOutline
	if err := json.Unmarshal([]byte(page), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d entities", len(got))
	}
	a := &got[0]
	if !a.IsApmApplication() || *a.GetName() != `checkout "eu"` || *a.GetApplicationId() != 1 || *a.GetAccountId() != 1000001 ||
		!*a.GetReporting() || *a.GetAlertSeverity() != EntityAlertSeverityWarning || *a.GetLanguage() != "java" ||
		*a.GetSettings().ApdexTarget != 0.5 || *a.GetApmSummary().InstanceCount != 3 ||
		a.GetApmSummary().NonWebThroughput != nil || a.GetApmBrowserSummary() != nil || a.GetGuid() == nil {
		t.Fatalf("decoded %+v", a)
	}
	if got[1].IsApmApplication() {
		t.Error("a browser outline counted as an APM application")
	}
	if !got[2].IsApmApplication() {
		t.Error("an entity without __typename refused (the search asks for APM applications only)")
	}
}
