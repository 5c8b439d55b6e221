package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

type appBody struct {
	Application struct {
		ID       int64
		Name     string
		Settings struct {
			AppApdexThreshold        float64  `json:"app_apdex_threshold"`
			EndUserApdexThreshold    *float64 `json:"end_user_apdex_threshold"`
			EnableRealUserMonitoring bool     `json:"enable_real_user_monitoring"`
		}
	}
	Error *struct {
		Title    string
		Messages []string
	}
}

func (e *env) put(t *testing.T, path, body string) (response, appBody) {
	t.Helper()
	r := e.do(t, http.MethodPut, path, key1, strings.NewReader(body), "Content-Type", "application/json")
	var b appBody
	_ = json.Unmarshal(r.body, &b)
	return r, b
}

func (e *env) show(t *testing.T, id string) appBody {
	t.Helper()
	var b appBody
	r := e.get(t, "/v2/applications/"+id+".json", key1)
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestApplicationUpdate(t *testing.T) {
	e := newEnv(t)
	e.get(t, "/v2/applications.json", key1)
	// Nothing changes: one read, no mutation.
	r, _ := e.put(t, "/v2/applications/314221522.json", `{"application":{"name":"100% Uptime Monitor","settings":{"app_apdex_threshold":0.1,"use_server_side_config":true}}}`)
	if r.status != 200 || r.header.Get("X-V2bridge-Upstream-Calls") != "1" || e.sim.RequestsByOperation()["AppUpdate"] != 0 {
		t.Fatalf("unchanged update: %d calls %s", r.status, r.header.Get("X-V2bridge-Upstream-Calls"))
	}
	// Name and Apdex change; RUM switched on for an app without browser monitoring.
	r, b := e.put(t, "/v2/applications/314221522.json", `{"application":{"name":"Uptime Monitor v2","settings":{"app_apdex_threshold":0.4,"enable_real_user_monitoring":true},"unknown":1}}`)
	if r.status != 200 || b.Application.Name != "Uptime Monitor v2" || b.Application.Settings.AppApdexThreshold != 0.4 || !b.Application.Settings.EnableRealUserMonitoring {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "2" {
		t.Errorf("update upstream calls = %s, want 2", got)
	}
	after := e.show(t, "314221522")
	if after.Application.Name != "Uptime Monitor v2" || after.Application.Settings.AppApdexThreshold != 0.4 || !after.Application.Settings.EnableRealUserMonitoring {
		t.Fatalf("show after update: %+v", after.Application)
	}
	// The browser application's threshold, then RUM off.
	r, b = e.put(t, "/v2/applications/924224343.json", `{"application":{"settings":{"end_user_apdex_threshold":3.5}}}`)
	if r.status != 200 || b.Application.Settings.EndUserApdexThreshold == nil || *b.Application.Settings.EndUserApdexThreshold != 3.5 {
		t.Fatalf("end-user threshold: %d %s", r.status, r.body)
	}
	if s := e.show(t, "924224343"); *s.Application.Settings.EndUserApdexThreshold != 3.5 {
		t.Fatalf("show: %+v", s.Application.Settings)
	}
	// Bad input never reaches NerdGraph.
	before := e.sim.RequestsByOperation()["AppUpdate"]
	for _, body := range []string{`{"application":{"settings":{"app_apdex_threshold":-1}}}`, `{'application':{}}`, `{"app":{}}`,
		`{"application":{"settings":{"end_user_apdex_threshold":2}}}`} {
		r, _ := e.put(t, "/v2/applications/107756728.json", body)
		if r.status != 400 && r.status != 422 {
			t.Errorf("%s: %d %s", body, r.status, r.body)
		}
	}
	if e.sim.RequestsByOperation()["AppUpdate"] != before {
		t.Fatal("rejected updates reached NerdGraph")
	}
	if r, _ := e.put(t, "/v2/applications/1.json", `{"application":{"name":"x"}}`); r.status != 404 {
		t.Fatalf("unknown app: %d", r.status)
	}
}

func TestApplicationDelete(t *testing.T) {
	e := newEnv(t)
	r := e.do(t, http.MethodDelete, "/v2/applications/314221522.json", key1, nil)
	if b := decode(t, r); r.status != 409 || b.Error.Title != "Cannot delete an application that is still reporting data." {
		t.Fatalf("reporting app: %d %s", r.status, r.body)
	}
	r = e.do(t, http.MethodDelete, "/v2/applications/439883550.json", key1, nil)
	if b := decode(t, r); r.status != 200 || b.Application == nil || b.Application.ID != 439883550 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if r := e.get(t, "/v2/applications/439883550.json", key1); r.status != 404 {
		t.Fatalf("deleted app still shown: %d", r.status)
	}
	if e.sim.RequestsByOperation()["AppDelete"] != 1 {
		t.Fatal("the reporting app's delete reached NerdGraph")
	}
}

// The docs' alias change (docs-website
// .../application-examples-v2/change-alias-your-application-v2.mdx) sends the end user
// Apdex threshold with enable_real_user_monitoring true, in one PUT, also to an
// application without browser monitoring: RUM is switched on, then the new browser
// application's threshold is set (a read and a second update).
func TestApplicationUpdateEnablesRUMWithThreshold(t *testing.T) {
	e := newEnv(t)
	e.get(t, "/v2/applications.json", key1)
	body := `{"application":{"name":"Alias per the docs","settings":{"app_apdex_threshold":0.5,"end_user_apdex_threshold":4,"enable_real_user_monitoring":true}}}`
	r, b := e.put(t, "/v2/applications/107756728.json", body)
	s := b.Application.Settings
	if r.status != 200 || b.Application.Name != "Alias per the docs" || !s.EnableRealUserMonitoring ||
		s.EndUserApdexThreshold == nil || *s.EndUserApdexThreshold != 4 {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	if got := r.header.Get("X-V2bridge-Upstream-Calls"); got != "4" {
		t.Errorf("upstream calls = %s, want 4 (read, update, read, update)", got)
	}
	after := e.show(t, "107756728").Application.Settings
	if !after.EnableRealUserMonitoring || after.EndUserApdexThreshold == nil || *after.EndUserApdexThreshold != 4 {
		t.Fatalf("show after update: %+v", after)
	}
	// The same PUT again changes nothing: one read.
	if r, _ := e.put(t, "/v2/applications/107756728.json", body); r.status != 200 || r.header.Get("X-V2bridge-Upstream-Calls") != "1" {
		t.Fatalf("repeat: %d, %s calls", r.status, r.header.Get("X-V2bridge-Upstream-Calls"))
	}
}
