package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// The browser application routes. NerdGraph is browserFake: BrowserSearch in pages of
// two, BrowserDetails per guid group, BrowserCreate (graphql/operations/browser.graphql).

type browserFake struct {
	*opFake
	apps   []map[string]any
	create func(vars map[string]any) (any, error)
}

func browserApp(id, serving int, name string) map[string]any {
	return map[string]any{"__typename": "BrowserApplicationEntityOutline", "guid": AppGUID(1, DomainBrowser, int64(id)),
		"applicationId": id, "servingApmApplicationId": serving, "name": name, "settings": nil}
}

func newBrowserFake(apps []map[string]any) *browserFake {
	b := &browserFake{opFake: &opFake{}, apps: apps}
	b.answer = func(op string, vars map[string]any) (any, error) {
		switch op {
		case "BrowserSearch":
			k := 0
			if s, ok := vars["cursor"].(string); ok {
				fmt.Sscan(s, &k)
			}
			lo, hi := min(2*k, len(b.apps)), min(2*k+2, len(b.apps))
			var next any
			if hi < len(b.apps) {
				next = fmt.Sprint(k + 1)
			}
			return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{"count": len(b.apps),
				"results": map[string]any{"nextCursor": next, "entities": b.apps[lo:hi]}}}}, nil
		case "BrowserDetails":
			actor := map[string]any{}
			for g := 0; g < 8; g++ {
				var es []any
				for _, guid := range vars[fmt.Sprint("g", g)].([]any) {
					script, _ := json.Marshal(`<script>licenseKey:"s-` + guid.(string) + `"</script>`)
					es = append(es, map[string]any{"__typename": "BrowserApplicationEntity", "guid": guid,
						"browserProperties": map[string]any{"jsLoaderScript": string(script), "jsConfig": nil}})
				}
				es = append(es, nil, map[string]any{"__typename": "ApmApplicationEntity", "guid": "apm"})
				actor[fmt.Sprint("e", g)] = es
			}
			return map[string]any{"actor": actor}, nil
		case "BrowserCreate":
			return b.create(vars)
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	return b
}

// The list: name and ids filters; the cached search, its cursor loop, non-browser and
// id-less entities skipped, the serving APM id as REST id; details only for a non-empty
// page, in groups of 25 per alias, empty groups sent as [], nulls and other entities
// skipped, script decoded.
func TestListBrowserApplications(t *testing.T) {
	apps := []map[string]any{browserApp(11, 7, "Shop front"), browserApp(12, 0, "Blog"),
		{"__typename": "ApmApplicationEntityOutline", "guid": "x", "applicationId": 3, "name": "apm"},
		{"__typename": "BrowserApplicationEntityOutline", "guid": "y", "name": "no id"}}
	b := newBrowserFake(apps)
	tr := New(b, Options{})
	c := Caller{AccountID: 1}
	l, _, err := tr.ListBrowserApplications(context.Background(), c, BrowserListRequest{})
	if err != nil {
		t.Fatal(err)
	}
	g11 := AppGUID(1, DomainBrowser, 11)
	want := []restv2.BrowserApplication{
		{ID: 7, Name: "Shop front", BrowserMonitoringKey: "s-" + g11, LoaderScript: `<script>licenseKey:"s-` + g11 + `"</script>`},
		{ID: 12, Name: "Blog", BrowserMonitoringKey: "s-" + AppGUID(1, DomainBrowser, 12), LoaderScript: `<script>licenseKey:"s-` + AppGUID(1, DomainBrowser, 12) + `"</script>`},
	}
	if fmt.Sprint(l.Applications) != fmt.Sprint(want) {
		t.Fatalf("list %+v, want %+v", l.Applications, want)
	}
	if b.count("BrowserSearch") != 2 {
		t.Errorf("%d search pages read, want 2", b.count("BrowserSearch"))
	}
	for _, tt := range []struct {
		r    BrowserListRequest
		want string
	}{
		{BrowserListRequest{Name: "SHOP"}, "[7]"}, {BrowserListRequest{IDs: []int64{12, 99}}, "[12]"},
		{BrowserListRequest{Name: "blog", IDs: []int64{7}}, "[]"}, {BrowserListRequest{Page: 2}, "[]"},
	} {
		before := b.count("BrowserDetails")
		l, _, err := tr.ListBrowserApplications(context.Background(), c, tt.r)
		ids := []int64{}
		for _, a := range l.Applications {
			ids = append(ids, a.ID)
		}
		if err != nil || fmt.Sprint(ids) != tt.want {
			t.Errorf("%+v: %v, %v; want %s", tt.r, ids, err, tt.want)
		}
		if tt.want == "[]" && b.count("BrowserDetails") != before {
			t.Errorf("%+v: details read for an empty page", tt.r)
		}
	}
	if b.count("BrowserSearch") != 2 {
		t.Errorf("the cached search was read again (%d reads)", b.count("BrowserSearch"))
	}
	// A write of the account drops the cached search.
	b.create = func(vars map[string]any) (any, error) {
		return map[string]any{"agentApplicationCreateBrowser": map[string]any{"guid": AppGUID(1, DomainBrowser, 13), "name": vars["name"]}}, nil
	}
	if _, err := tr.CreateBrowserApplication(context.Background(), c, "new", ng.AgentApplicationBrowserLoaderSpa); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tr.ListBrowserApplications(context.Background(), c, BrowserListRequest{}); err != nil || b.count("BrowserSearch") != 4 {
		t.Errorf("after a write: %v, %d reads", err, b.count("BrowserSearch"))
	}
	b.answer = func(string, map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }
	if _, _, err := New(b, Options{}).ListBrowserApplications(context.Background(), c, BrowserListRequest{}); err == nil {
		t.Error("a failed search answered")
	}
}

// A page of 60 applications asks for their details in aliases of 25 (25, 25, 10, then
// empty lists, never null).
func TestBrowserDetailsGroups(t *testing.T) {
	var apps []map[string]any
	for i := 1; i <= 60; i++ {
		apps = append(apps, browserApp(100+i, 0, fmt.Sprint("b", i)))
	}
	b := newBrowserFake(apps)
	l, _, err := New(b, Options{}).ListBrowserApplications(context.Background(), Caller{AccountID: 1}, BrowserListRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Applications) != 60 || l.Applications[59].BrowserMonitoringKey != "s-"+AppGUID(1, DomainBrowser, 160) {
		t.Fatalf("%d applications, last %+v", len(l.Applications), l.Applications[len(l.Applications)-1])
	}
	vars := b.calls[len(b.calls)-1].vars
	var sizes []int
	for g := 0; g < 8; g++ {
		list, ok := vars[fmt.Sprint("g", g)].([]any)
		if !ok {
			t.Fatalf("g%d sent as %v, want a list", g, vars[fmt.Sprint("g", g)])
		}
		sizes = append(sizes, len(list))
	}
	if fmt.Sprint(sizes) != "[25 25 10 0 0 0 0 0]" {
		t.Errorf("groups %v", sizes)
	}
}

// decodeScript and licenseKey: the key comes from info.licenseKey, else licenseKey, else
// the script; a quoted snippet is decoded once, anything else kept.
func TestBrowserKeyAndScript(t *testing.T) {
	raw := func(s string) *json.RawMessage { r := json.RawMessage(s); return &r }
	for _, tt := range []struct {
		script string
		cfg    *json.RawMessage
		want   string
	}{
		{`licenseKey:"s"`, raw(`{"info":{"licenseKey":"i"},"licenseKey":"top"}`), "i"},
		{`licenseKey:"s"`, raw(`{"licenseKey":"top"}`), "top"},
		{`licenseKey:"s"`, raw(`{"info":{}}`), "s"},
		{`licenseKey:"s"`, raw(`not json`), "s"},
		{`licenseKey:"s"`, nil, "s"},
		{`no key`, nil, ""},
	} {
		if got := licenseKey(tt.script, tt.cfg); got != tt.want {
			t.Errorf("licenseKey(%q, %v) = %q, want %q", tt.script, tt.cfg, got, tt.want)
		}
	}
	for in, want := range map[string]string{`"<a \"b\">"`: `<a "b">`, `"broken`: `"broken`, `<script>`: `<script>`, ``: ``} {
		if got := decodeScript(in); got != want {
			t.Errorf("decodeScript(%q) = %q, want %q", in, got, want)
		}
	}
}

// POST creates once with the loader given and answers the id of the guid, the decoded
// script and its key; a blank name sends nothing; a null answer may hide a created
// application (502); a timeout 504, a rejection 422.
func TestCreateBrowserApplication(t *testing.T) {
	script, _ := json.Marshal(`<script>licenseKey:"k1"</script>`)
	var answer any
	b := newBrowserFake(nil)
	b.create = func(map[string]any) (any, error) {
		if err, ok := answer.(error); ok {
			return nil, err
		}
		return answer, nil
	}
	tr := New(b, Options{})
	c := Caller{AccountID: 1}
	answer = map[string]any{"agentApplicationCreateBrowser": map[string]any{"guid": AppGUID(1, DomainBrowser, 55), "name": "web",
		"settings": map[string]any{"loaderScript": string(script), "loaderType": "SPA"}}}
	show, err := tr.CreateBrowserApplication(context.Background(), c, "web", ng.AgentApplicationBrowserLoaderSpa)
	if err != nil || show.Application != (restv2.BrowserApplication{ID: 55, Name: "web", BrowserMonitoringKey: "k1", LoaderScript: `<script>licenseKey:"k1"</script>`}) {
		t.Fatalf("create: %+v, %v", show, err)
	}
	if v := lastVars(b.opFake, "settings"); v != `{"loaderType":"SPA"}` || b.calls[0].vars["name"] != "web" {
		t.Errorf("sent %s %v", v, b.calls[0].vars)
	}
	answer = map[string]any{"agentApplicationCreateBrowser": map[string]any{"guid": AppGUID(1, DomainBrowser, 56), "name": "bare", "settings": nil}}
	if show, err := tr.CreateBrowserApplication(context.Background(), c, "bare", ng.AgentApplicationBrowserLoaderLite); err != nil || show.Application.ID != 56 || show.Application.LoaderScript != "" {
		t.Errorf("no settings: %+v, %v", show, err)
	}
	var ve *restv2.Error
	if _, err := tr.CreateBrowserApplication(context.Background(), c, " ", ng.AgentApplicationBrowserLoaderLite); !errors.As(err, &ve) || ve.Status != 422 || b.count("BrowserCreate") != 2 {
		t.Errorf("blank name: %v, %d sent", err, b.count("BrowserCreate"))
	}
	for _, tt := range []struct {
		answer any
		status int
	}{
		{map[string]any{"agentApplicationCreateBrowser": nil}, 502},
		{&ng.Error{Kind: ng.KindTimeout}, 504},
		{&ng.Error{Kind: ng.KindTransport}, 502},
		{&ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "taken"}}}, 422},
	} {
		answer = tt.answer
		if _, err := tr.CreateBrowserApplication(context.Background(), c, "web", ng.AgentApplicationBrowserLoaderLite); !errors.As(err, &ve) || ve.Status != tt.status {
			t.Errorf("%v: %v, want %d", tt.answer, err, tt.status)
		}
	}
	answer = map[string]any{"agentApplicationCreateBrowser": map[string]any{"guid": "bad", "name": "web"}}
	if _, err := tr.CreateBrowserApplication(context.Background(), c, "web", ng.AgentApplicationBrowserLoaderLite); err == nil {
		t.Error("an unreadable guid answered")
	}
}
