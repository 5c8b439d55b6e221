package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/v2bridge/v2bridge/schema"
)

// The hand-written structs that bound fields decode into hold exactly the fields their
// operations select (following fragments), so no selected field is dropped while
// decoding and no struct field waits for data never asked for.
func TestBoundStructsMatchSelections(t *testing.T) {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "nerdgraph.graphql", Input: schema.NerdGraph()})
	if err != nil {
		t.Fatal(err)
	}
	doc, errs := gqlparser.LoadQuery(s, OperationsDocument())
	if errs != nil {
		t.Fatal(errs)
	}
	search := []string{"actor", "entitySearch", "results", "entities"}
	related := []string{"actor", "entity", "browser", "results"}
	tests := []struct {
		op       string
		path     []string
		ty       reflect.Type
		optional []string // struct fields this operation does not select
	}{
		{"AppList", search, reflect.TypeFor[ApmOutline](), nil},
		{"AppSearchPage", search, reflect.TypeFor[ApmOutline](), nil},
		{"AppInventoryNext", search, reflect.TypeFor[ApmOutline](), nil},
		{"AppInventoryNext", []string{"actor", "browsers", "results", "entities"}, reflect.TypeFor[BrowserOutline](), []string{"name"}},
		{"AppNamePage", search, reflect.TypeFor[ApmOutline](), []string{"accountId", "alertSeverity",
			"applicationId", "settings", "apmSummary", "apmBrowserSummary"}},
		{"AppShow", []string{"actor", "entity"}, reflect.TypeFor[ApmEntity](), nil},
		{"AppHosts", []string{"actor", "entity"}, reflect.TypeFor[ApmEntity](), []string{"browser"}},
		{"AppShow", append(related, "source", "entity"), reflect.TypeFor[BrowserOutline](), []string{"name"}},
		{"AppShow", append(related, "target", "entity"), reflect.TypeFor[BrowserOutline](), []string{"name"}},
		{"AppList", []string{"actor", "browsers", "results", "entities"}, reflect.TypeFor[BrowserOutline](), []string{"name"}},
		{"BrowserPage", search, reflect.TypeFor[BrowserOutline](), []string{"name"}},
		{"BrowserSearch", search, reflect.TypeFor[BrowserOutline](), nil},
		{"MetricData", []string{"actor", "entity"}, reflect.TypeFor[EntityRef](), []string{"__typename"}},
		{"Deployments", []string{"actor", "entity"}, reflect.TypeFor[EntityRef](), nil},
		{"MetricNames", []string{"actor", "entity"}, reflect.TypeFor[EntityRef](), nil},
		{"DeploymentCreateEvent", []string{"changeTrackingCreateEvent", "changeTrackingEvent"}, reflect.TypeFor[ChangeEvent](), nil},
		{"DeploymentCreateEvent", []string{"changeTrackingCreateEvent", "changeTrackingEvent", "entity"}, reflect.TypeFor[ChangeEventEntity](), nil},
	}
	for _, tt := range tests {
		t.Run(tt.op+"."+strings.Join(tt.path, "."), func(t *testing.T) {
			op := doc.Operations.ForName(tt.op)
			if op == nil {
				t.Fatalf("operation %s not found", tt.op)
			}
			f := find(op.SelectionSet, tt.path)
			if f == nil {
				t.Fatalf("%s selects no %s", tt.op, strings.Join(tt.path, "."))
			}
			got := selected(f.SelectionSet)
			var want []string
			for _, tag := range jsonNames(tt.ty) {
				if !slices.Contains(tt.optional, tag) {
					want = append(want, tag)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s selects %v; %s decodes %v", tt.op, got, tt.ty.Name(), want)
			}
		})
	}
}

// jsonNames are the JSON names of a struct's fields, embedded structs' included.
func jsonNames(ty reflect.Type) []string {
	var names []string
	for i := range ty.NumField() {
		f := ty.Field(i)
		if f.Anonymous {
			names = append(names, jsonNames(f.Type)...)
			continue
		}
		names = append(names, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	return names
}

// selected are the response names of a selection set, through its fragments.
func selected(set ast.SelectionSet) []string {
	var names []string
	for _, sel := range set {
		switch v := sel.(type) {
		case *ast.Field:
			names = append(names, v.Alias)
		case *ast.InlineFragment:
			names = append(names, selected(v.SelectionSet)...)
		case *ast.FragmentSpread:
			names = append(names, selected(v.Definition.SelectionSet)...)
		}
	}
	return names
}

// find follows a path of response names from a selection set, through fragments.
func find(set ast.SelectionSet, path []string) *ast.Field {
	for _, sel := range set {
		var inner *ast.Field
		switch v := sel.(type) {
		case *ast.Field:
			if v.Alias != path[0] {
				continue
			}
			if len(path) == 1 {
				return v
			}
			inner = find(v.SelectionSet, path[1:])
		case *ast.InlineFragment:
			inner = find(v.SelectionSet, path)
		case *ast.FragmentSpread:
			inner = find(v.Definition.SelectionSet, path)
		}
		if inner != nil {
			return inner
		}
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
	if !a.IsApmApplication() || a.GetName() != `checkout "eu"` || a.GetApplicationId() != 1 || a.GetAccountId() != 1000001 ||
		!a.GetReporting() || a.GetAlertSeverity() != EntityAlertSeverityWarning || a.GetLanguage() != "java" ||
		a.GetSettings().ApdexTarget != 0.5 || a.GetApmSummary().InstanceCount != 3 ||
		a.GetApmSummary().NonWebThroughput != 0 || a.GetApmBrowserSummary() != nil || a.GetGuid() == "" {
		t.Fatalf("decoded %+v", a)
	}
	if got[1].IsApmApplication() {
		t.Error("a browser outline counted as an APM application")
	}
	if !got[2].IsApmApplication() {
		t.Error("an entity without __typename refused (the search asks for APM applications only)")
	}
}

// TestOutlineKinds pins which outlines are APM and browser applications.
func TestOutlineKinds(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tt := range []struct {
		typename    *string
		apm, browse bool
	}{
		{nil, true, true},
		{s("ApmApplicationEntityOutline"), true, false},
		{s("ApmApplicationEntity"), true, false},
		{s("BrowserApplicationEntityOutline"), false, true},
		{s("BrowserApplicationEntity"), false, false},
		{s("MobileApplicationEntityOutline"), false, false},
	} {
		name := "<nil>"
		if tt.typename != nil {
			name = *tt.typename
		}
		apmName := "null" // ApmOutline holds its type name as written
		if tt.typename != nil {
			apmName = strconv.Quote(*tt.typename)
		}
		if got := (&ApmOutline{Typename: json.RawMessage(apmName)}).IsApmApplication(); got != tt.apm {
			t.Errorf("%s: IsApmApplication = %v, want %v", name, got, tt.apm)
		}
		if got := (&BrowserOutline{Typename: tt.typename}).IsBrowserApplication(); got != tt.browse {
			t.Errorf("%s: IsBrowserApplication = %v, want %v", name, got, tt.browse)
		}
	}
	if (*BrowserOutline)(nil).IsBrowserApplication() {
		t.Error("a nil browser outline is a browser application")
	}
}

// TestOutlineTexts: an outline's type name, alert severity and language read as the
// strings they hold, whether written plainly, escaped, as an unknown value, null or
// not at all; a known value costs no allocation.
func TestOutlineTexts(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{`"java"`, "java"}, {`"j\u0061va"`, "java"}, {`"cobol"`, "cobol"}, {`"été"`, "été"},
		{`"` + "\xff" + `"`, "\ufffd"}, {`null`, ""}, {``, ""}, {`""`, ""}, {`7`, ""},
	} {
		o := &ApmOutline{Language: json.RawMessage(tt.raw), AlertSeverity: json.RawMessage(tt.raw)}
		if got := o.GetLanguage(); got != tt.want {
			t.Errorf("language %s: %q, want %q", tt.raw, got, tt.want)
		}
		if got := o.GetAlertSeverity(); string(got) != tt.want {
			t.Errorf("severity %s: %q, want %q", tt.raw, got, tt.want)
		}
	}
	o := &ApmOutline{Typename: json.RawMessage(`"ApmApplicationEntityOutline"`), AlertSeverity: json.RawMessage(`"WARNING"`),
		Language: json.RawMessage(`"python"`)}
	if n := testing.AllocsPerRun(10, func() {
		if !o.IsApmApplication() || o.GetAlertSeverity() != EntityAlertSeverityWarning || o.GetLanguage() != "python" {
			t.Fatal("misread")
		}
	}); n != 0 {
		t.Errorf("%v allocations reading known values", n)
	}
}

// outlinePage is an AppList answer with n applications.
func outlinePage(n int) string {
	apps := make([]string, n)
	for i := range apps {
		apps[i] = fmt.Sprintf(`{"__typename":"ApmApplicationEntityOutline","guid":"MXxBUE18QVBQTElDQVRJT058%d","accountId":1,"name":"app %d","reporting":true,"alertSeverity":"NOT_ALERTING","applicationId":%d,"language":"go","settings":{"apdexTarget":0.5,"serverSideConfig":false},"apmSummary":null,"apmBrowserSummary":null}`, i, i, i+1)
	}
	return `{"data":{"actor":{"entitySearch":{"count":` + fmt.Sprint(n) + `,"results":{"nextCursor":null,"entities":[` + strings.Join(apps, ",") + `]}},"browsers":null}}}`
}

// TestPresizedOutlines: an application search page is decoded into a slice of its
// final capacity (at most a page, at most what the answer can hold), and every answer
// (a page, an empty or null page, null data, no data) reads as it does decoded without
// it (encoding/json's reading of the same answer is the reference).
func TestPresizedOutlines(t *testing.T) {
	withoutSettings := strings.Replace(summarized(outlinePage(3)), `"settings":{"apdexTarget":0.5,"serverSideConfig":false}`, `"settings":null`, 2)
	for _, tt := range []struct {
		body    string
		wantCap int
	}{
		{outlinePage(200), 200},
		{outlinePage(3), len(outlinePage(3)) / minOutlineJSON}, // 4: what 900 bytes can hold
		{outlinePage(0), -1},
		{summarized(outlinePage(3)), len(summarized(outlinePage(3))) / minOutlineJSON},
		{withoutSettings, len(withoutSettings) / minOutlineJSON},
		{`{"data":{"actor":{"entitySearch":{"count":0,"results":null}}}}`, -1},
		{`{"data":{"actor":{"entitySearch":null,"browsers":null}}}`, -1},
		{`{"data":{"actor":null}}`, -1},
		{`{"data":null,"errors":[{"message":"boom","path":["actor"]}]}`, -1},
		{`{"errors":[{"message":"no"}]}`, -1},
	} {
		var got AppListResponse
		err := decodeOver(t, context.Background(), tt.body, &got)
		if err != nil && !strings.Contains(tt.body, `"errors"`) {
			t.Fatal(err)
		}
		want := reference[AppListResponse](t, tt.body)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.60s…: presized %+v, want %+v", tt.body, got.Actor, want.Actor)
		}
		if tt.wantCap >= 0 {
			if c := cap(got.Actor.EntitySearch.Results.Entities); c != tt.wantCap {
				t.Errorf("%d applications decoded into a capacity of %d", len(got.Actor.EntitySearch.Results.Entities), c)
			}
		}
	}
}

// summarized is an outline page whose applications after the first have a summary.
func summarized(page string) string {
	first := strings.Index(page, `"apmSummary":null`) + 1
	return page[:first] + strings.ReplaceAll(page[first:], `"apmSummary":null`,
		`"apmSummary":{"apdexScore":0.9,"errorRate":0.1,"hostCount":2,"instanceCount":3,"webResponseTimeAverage":0.2,"webThroughput":10,"nonWebResponseTimeAverage":0,"nonWebThroughput":0}`)
}

// TestPresizedOutlinesHoldTheirParts: a presized page's applications have their
// settings, summaries, type names, alert severities and languages decoded in place,
// five allocations fewer per application than without the hint, and read the same
// (TestPresizedOutlines).
func TestPresizedOutlinesHoldTheirParts(t *testing.T) {
	body := []byte(summarized(outlinePage(200)))
	req := &gql.Request{}
	decode := func(presize bool) {
		var d AppListResponse
		if presize && !d.presize(context.Background(), req, len(body)) {
			t.Fatal("not presized")
		}
		if err := UnmarshalJSON(body, &wireResponse{Data: &d}); err != nil {
			t.Fatal(err)
		}
	}
	plain := testing.AllocsPerRun(10, func() { decode(false) })
	sized := testing.AllocsPerRun(10, func() { decode(true) })
	if sized > plain-5*200 {
		t.Errorf("%v allocations presized, %v without: parts of the applications allocated one by one", sized, plain)
	}
}
