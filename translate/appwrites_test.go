package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// PUT and DELETE /v2/applications/{id}. NerdGraph is appFake: application 7 of account 1
// (AppShow, graphql/operations/applications.graphql), optionally with an injected browser
// application 70, and the AppUpdate / AppDelete mutations
// (graphql/operations/application_writes.graphql).

type appFake struct {
	*opFake
	name      string
	reporting bool
	browser   bool
	missing   bool
	update    func(vars map[string]any) (any, error)
	del       func(vars map[string]any) (any, error)
}

func newAppFake() *appFake {
	a := &appFake{opFake: &opFake{}, name: "shop"}
	a.update = func(vars map[string]any) (any, error) { return map[string]any{}, nil }
	a.del = func(vars map[string]any) (any, error) {
		return map[string]any{"agentApplicationDelete": map[string]any{"success": true}}, nil
	}
	a.answer = func(op string, vars map[string]any) (any, error) {
		switch op {
		case "AppShow":
			return a.show(), nil
		case "AppUpdate":
			return a.update(vars)
		case "AppDelete":
			return a.del(vars)
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	return a
}

func (a *appFake) show() any {
	if a.missing {
		return map[string]any{"actor": map[string]any{"entity": nil, "account": nil}}
	}
	ent := map[string]any{"__typename": "ApmApplicationEntity", "guid": AppGUID(1, DomainAPM, 7), "accountId": 1,
		"name": a.name, "reporting": a.reporting, "alertSeverity": "NOT_ALERTING", "applicationId": 7, "language": "go",
		"settings":          map[string]any{"apdexTarget": 0.5, "serverSideConfig": false},
		"apmSummary":        map[string]any{"apdexScore": 1, "errorRate": 0, "hostCount": 1, "instanceCount": 1, "webResponseTimeAverage": 0.1, "webThroughput": 5},
		"apmBrowserSummary": map[string]any{"pageLoadTimeAverage": 1.5, "pageLoadThroughput": 2},
		"browser":           map[string]any{"results": []any{}},
	}
	if a.browser {
		ent["browser"] = map[string]any{"results": []any{map[string]any{
			"source": map[string]any{"entity": map[string]any{"__typename": "BrowserApplicationEntityOutline", "guid": AppGUID(1, DomainBrowser, 70),
				"applicationId": 70, "servingApmApplicationId": 7, "settings": map[string]any{"apdexTarget": 3}}},
			"target": map[string]any{"entity": nil},
		}}}
	}
	return map[string]any{"actor": map[string]any{"entity": ent, "account": map[string]any{"inventory": map[string]any{"results": []any{}}}}}
}

func f64(v float64) *float64 { return &v }
func bptr(v bool) *bool      { return &v }
func sptr(v string) *string  { return &v }

// PUT sends one document with only what changed (name, Apdex thresholds, real user
// monitoring), to the right guid, and answers the application with the changes applied;
// a PUT that changes nothing sends nothing.
func TestUpdateApplication(t *testing.T) {
	tests := []struct {
		name    string
		browser bool
		in      restv2.ApplicationUpdate
		sent    bool
		vars    map[string]string // variable → JSON it must be
		check   func(a restv2.Application) bool
	}{
		{"nothing changes", true, restv2.ApplicationUpdate{Name: sptr("shop"), AppApdexThreshold: f64(0.5), EndUserApdexThreshold: f64(3), EnableRealUserMonitoring: bptr(true)}, false, nil,
			func(a restv2.Application) bool { return a.Name == "shop" && a.Settings.EnableRealUserMonitoring }},
		{"rename", false, restv2.ApplicationUpdate{Name: sptr("store")}, true,
			map[string]string{"updateApm": "true", "updateBrowser": "false", "enableBrowser": "false", "apmSettings": `{"alias":"store"}`},
			func(a restv2.Application) bool { return a.Name == "store" && a.Settings.AppApdexThreshold == 0.5 }},
		{"app apdex", false, restv2.ApplicationUpdate{AppApdexThreshold: f64(0.8)}, true,
			map[string]string{"updateApm": "true", "updateBrowser": "false", "apmSettings": `{"apmConfig":{"apdexTarget":0.8}}`},
			func(a restv2.Application) bool {
				return a.Settings.AppApdexThreshold == 0.8 && a.Summary.ApdexTarget == 0.8
			}},
		{"end-user apdex", true, restv2.ApplicationUpdate{EndUserApdexThreshold: f64(4)}, true,
			map[string]string{"updateApm": "false", "updateBrowser": "true", "browser": `"` + AppGUID(1, DomainBrowser, 70) + `"`,
				"browserSettings": `{"browserConfig":{"apdexTarget":4}}`},
			func(a restv2.Application) bool {
				return *a.Settings.EndUserApdexThreshold == 4 && a.EndUser != nil && a.EndUser.ApdexTarget == 4
			}},
		{"enable RUM", false, restv2.ApplicationUpdate{EnableRealUserMonitoring: bptr(true)}, true,
			map[string]string{"updateApm": "false", "updateBrowser": "false", "enableBrowser": "true", "enableSettings": `{"loaderType":"LITE"}`,
				"apm": `"` + AppGUID(1, DomainAPM, 7) + `"`},
			func(a restv2.Application) bool { return a.Settings.EnableRealUserMonitoring }},
		{"disable RUM", true, restv2.ApplicationUpdate{EnableRealUserMonitoring: bptr(false)}, true,
			map[string]string{"updateBrowser": "true", "enableBrowser": "false", "browserSettings": `{"browserMonitoring":{"loader":"NONE"}}`},
			func(a restv2.Application) bool { return !a.Settings.EnableRealUserMonitoring && a.EndUser == nil }},
		{"RUM already off", false, restv2.ApplicationUpdate{EnableRealUserMonitoring: bptr(false)}, false, nil,
			func(a restv2.Application) bool { return !a.Settings.EnableRealUserMonitoring }},
		{"end-user apdex shown without browser sent back", false, restv2.ApplicationUpdate{EndUserApdexThreshold: f64(restv2.DefaultEndUserApdexThreshold), EnableRealUserMonitoring: bptr(false)}, false, nil,
			func(a restv2.Application) bool {
				return !a.Settings.EnableRealUserMonitoring && a.Settings.EndUserApdex() == restv2.DefaultEndUserApdexThreshold
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAppFake()
			a.browser, a.reporting = tt.browser, true
			show, err := New(a, Options{}).UpdateApplication(context.Background(), Caller{AccountID: 1}, 7, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.count("AppUpdate"); got != map[bool]int{false: 0, true: 1}[tt.sent] {
				t.Fatalf("%d updates sent", got)
			}
			if !tt.check(show.Application) {
				t.Errorf("answer %+v settings %+v summary %+v end user %+v", show.Application, show.Application.Settings, show.Application.Summary, show.Application.EndUser)
			}
			for k, want := range tt.vars {
				got, _ := json.Marshal(a.calls[len(a.calls)-1].vars[k])
				if string(got) != want {
					t.Errorf("%s = %s, want %s", k, got, want)
				}
			}
		})
	}
}

// Refusals (a blank name, an end-user Apdex without a browser application, a missing
// application) send nothing; the answer's errors map to 403, 404 or 422 with "field:
// description"; a timeout may hide an applied update (504).
func TestUpdateApplicationErrors(t *testing.T) {
	var ve *restv2.Error
	refused := []struct {
		name    string
		missing bool
		in      restv2.ApplicationUpdate
		status  int
	}{
		{"blank name", false, restv2.ApplicationUpdate{Name: sptr("  ")}, 422},
		{"end-user apdex without browser", false, restv2.ApplicationUpdate{EndUserApdexThreshold: f64(2)}, 422},
		{"missing application", true, restv2.ApplicationUpdate{Name: sptr("x")}, 404},
	}
	for _, tt := range refused {
		a := newAppFake()
		a.missing = tt.missing
		if _, err := New(a, Options{}).UpdateApplication(context.Background(), Caller{AccountID: 1}, 7, tt.in); !errors.As(err, &ve) || ve.Status != tt.status || a.count("AppUpdate") != 0 {
			t.Errorf("%s: %v, %d sent; want %d, none sent", tt.name, err, a.count("AppUpdate"), tt.status)
		}
	}
	apmErr := func(class string) func(map[string]any) (any, error) {
		return func(map[string]any) (any, error) {
			return map[string]any{"apm": map[string]any{"guid": "g", "errors": []any{nil, map[string]any{"errorClass": class, "field": "alias", "description": "bad"}}}}, nil
		}
	}
	browserErr := func(map[string]any) (any, error) {
		return map[string]any{"browser": map[string]any{"guid": "g", "errors": []any{map[string]any{"errorClass": "ACCESS_DENIED", "field": "apdex", "description": "no"}}}}, nil
	}
	for _, tt := range []struct {
		name    string
		browser bool
		in      restv2.ApplicationUpdate
		update  func(map[string]any) (any, error)
		status  int
		msg     string
	}{
		{"apm access denied", false, restv2.ApplicationUpdate{Name: sptr("n")}, apmErr("ACCESS_DENIED"), 403, "alias: bad"},
		{"apm not found", false, restv2.ApplicationUpdate{Name: sptr("n")}, apmErr("NOT_FOUND"), 404, ""},
		{"apm invalid", false, restv2.ApplicationUpdate{Name: sptr("n")}, apmErr("INVALID_INPUT"), 422, "alias: bad"},
		{"browser access denied", true, restv2.ApplicationUpdate{EndUserApdexThreshold: f64(9)}, browserErr, 403, "apdex: no"},
		{"timeout", false, restv2.ApplicationUpdate{Name: sptr("n")}, func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindTimeout} }, 504, ""},
		{"server", false, restv2.ApplicationUpdate{Name: sptr("n")}, func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }, 502, ""},
		{"invalid", false, restv2.ApplicationUpdate{Name: sptr("n")}, func(map[string]any) (any, error) {
			return nil, &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "too long"}}}
		}, 422, "too long"},
		{"invalid without message", false, restv2.ApplicationUpdate{Name: sptr("n")}, func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindInvalid} }, 422, "rejected by New Relic"},
	} {
		a := newAppFake()
		a.browser, a.update = tt.browser, tt.update
		_, err := New(a, Options{}).UpdateApplication(context.Background(), Caller{AccountID: 1}, 7, tt.in)
		if !errors.As(err, &ve) || ve.Status != tt.status || !strings.Contains(strings.Join(ve.Messages, "|"), tt.msg) {
			t.Errorf("%s: %v (%+v), want %d %q", tt.name, err, ve, tt.status, tt.msg)
		}
	}
	a := newAppFake()
	a.update = func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindRateLimited} }
	if _, err := New(a, Options{}).UpdateApplication(context.Background(), Caller{AccountID: 1}, 7, restv2.ApplicationUpdate{Name: sptr("n")}); err == nil || errors.As(err, &ve) {
		t.Errorf("rate limited: %v, want the NerdGraph error", err)
	}
}

// DELETE refuses a reporting application (409, nothing sent), deletes once and answers
// the application; after a timeout, a retry that finds it gone answers 200 with it
// without sending again.
func TestDeleteApplication(t *testing.T) {
	var ve *restv2.Error
	c := Caller{AccountID: 1}
	a := newAppFake()
	a.reporting = true
	tr := New(a, Options{})
	if _, err := tr.DeleteApplication(context.Background(), c, 7); !errors.As(err, &ve) || ve.Status != 409 || a.count("AppDelete") != 0 {
		t.Fatalf("reporting: %v, %d sent", err, a.count("AppDelete"))
	}
	a.reporting = false
	show, err := tr.DeleteApplication(context.Background(), c, 7)
	if err != nil || show.Application.ID != 7 || show.Application.Name != "shop" || a.count("AppDelete") != 1 ||
		a.calls[len(a.calls)-1].vars["guid"] != AppGUID(1, DomainAPM, 7) {
		t.Fatalf("delete: %+v, %v", show, err)
	}
	for _, tt := range []struct {
		name   string
		del    func(map[string]any) (any, error)
		status int
	}{
		{"not deleted", func(map[string]any) (any, error) {
			return map[string]any{"agentApplicationDelete": map[string]any{"success": false}}, nil
		}, 422},
		{"null answer", func(map[string]any) (any, error) { return map[string]any{"agentApplicationDelete": nil}, nil }, 422},
		{"refused: reporting", func(map[string]any) (any, error) {
			return nil, &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "Application is still Reporting"}}}
		}, 409},
		{"invalid", func(map[string]any) (any, error) {
			return nil, &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "no"}}}
		}, 422},
	} {
		a.del = tt.del
		if _, err := tr.DeleteApplication(context.Background(), c, 7); !errors.As(err, &ve) || ve.Status != tt.status {
			t.Errorf("%s: %v, want %d", tt.name, err, tt.status)
		}
	}
	// Unknown outcome, then the application is gone: the retry answers the remembered
	// application, nothing sent again.
	a.del = func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindTimeout} }
	if _, err := tr.DeleteApplication(context.Background(), c, 7); !errors.As(err, &ve) || ve.Status != 504 {
		t.Fatalf("timeout: %v", err)
	}
	sent := a.count("AppDelete")
	a.missing = true
	show, err = tr.DeleteApplication(context.Background(), c, 7)
	if err != nil || show.Application.ID != 7 || a.count("AppDelete") != sent {
		t.Fatalf("retry after the timeout: %+v, %v, %d more sent", show, err, a.count("AppDelete")-sent)
	}
	// Without an unknown attempt, a missing application is 404.
	b := newAppFake()
	b.missing = true
	if _, err := New(b, Options{}).DeleteApplication(context.Background(), c, 7); !errors.As(err, &ve) || ve.Status != 404 || b.count("AppDelete") != 0 {
		t.Errorf("missing: %v", err)
	}
}

// TestUpdateApplicationEnableThenThreshold: an end user Apdex threshold sent with
// enable_real_user_monitoring true to an application without browser monitoring is set
// on the browser application the enable creates (setEnabledBrowserApdex); while
// NerdGraph does not show it yet the answer is 503 with Retry-After, after the enable
// was sent once.
func TestUpdateApplicationEnableThenThreshold(t *testing.T) {
	in := restv2.ApplicationUpdate{Name: sptr("store"), EndUserApdexThreshold: f64(4), EnableRealUserMonitoring: bptr(true)}
	a := newAppFake()
	a.reporting = true
	a.update = func(vars map[string]any) (any, error) {
		if vars["enableBrowser"] == true {
			a.browser = true // the enable creates the browser application (guid of id 70)
		}
		return map[string]any{}, nil
	}
	show, err := New(a, Options{}).UpdateApplication(context.Background(), Caller{AccountID: 1}, 7, in)
	if err != nil {
		t.Fatal(err)
	}
	if a.count("AppUpdate") != 2 || a.count("AppShow") != 2 {
		t.Fatalf("%d updates, %d reads, want 2 and 2", a.count("AppUpdate"), a.count("AppShow"))
	}
	last := a.calls[len(a.calls)-1].vars
	if b, _ := json.Marshal(last["browserSettings"]); string(b) != `{"browserConfig":{"apdexTarget":4}}` ||
		last["browser"] != AppGUID(1, DomainBrowser, 70) || last["enableBrowser"] != false || last["updateApm"] != false {
		t.Errorf("second update %v", last)
	}
	if s := show.Application.Settings; s.EndUserApdexThreshold == nil || *s.EndUserApdexThreshold != 4 || !s.EnableRealUserMonitoring || show.Application.Name != "store" {
		t.Errorf("answer %+v", s)
	}

	// NerdGraph does not show the new browser application yet.
	a = newAppFake()
	a.reporting = true
	_, err = New(a, Options{}).UpdateApplication(context.Background(), Caller{AccountID: 1}, 7, in)
	var ve *restv2.Error
	var ge *ng.Error
	if !errors.As(err, &ve) || ve.Status != 503 || !errors.As(err, &ge) || ge.RetryAfter <= 0 || a.count("AppUpdate") != 1 {
		t.Fatalf("browser not readable: %v (%d updates)", err, a.count("AppUpdate"))
	}
	// Without enable_real_user_monitoring the threshold is still refused, before anything is sent.
	a = newAppFake()
	if _, err := New(a, Options{}).UpdateApplication(context.Background(), Caller{AccountID: 1}, 7, restv2.ApplicationUpdate{EndUserApdexThreshold: f64(4)}); !errors.As(err, &ve) ||
		ve.Status != 422 || a.count("AppUpdate") != 0 {
		t.Fatalf("threshold without RUM: %v", err)
	}
}
