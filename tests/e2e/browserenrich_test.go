package e2e

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// The browser enrichment of an application (RUM switch, end-user Apdex threshold,
// end-user summary) is the same in the list, which reads the account's browser
// applications by entity search, and in the show, which reads the application's related
// browser entity; the demo account has applications with and without browser agents.
func TestBrowserEnrichmentListAgreesWithShow(t *testing.T) {
	e := newEnv(t)
	type app struct {
		ID             int64                      `json:"id"`
		Settings       map[string]json.RawMessage `json:"settings"`
		EndUserSummary json.RawMessage            `json:"end_user_summary"`
	}
	var list struct {
		Applications []app `json:"applications"`
	}
	r := e.get(t, "/v2/applications.json", key1)
	if err := json.Unmarshal(r.body, &list); err != nil || len(list.Applications) == 0 {
		t.Fatalf("list: %d %v", r.status, err)
	}
	withRUM := 0
	for _, a := range list.Applications {
		var show struct {
			Application app `json:"application"`
		}
		r := e.get(t, "/v2/applications/"+strconv.FormatInt(a.ID, 10)+".json", key1)
		if err := json.Unmarshal(r.body, &show); err != nil {
			t.Fatalf("show %d: %d %v", a.ID, r.status, err)
		}
		if !reflect.DeepEqual(a.Settings, show.Application.Settings) || string(a.EndUserSummary) != string(show.Application.EndUserSummary) {
			t.Errorf("application %d: list settings %s / %s, show %s / %s", a.ID, a.Settings, a.EndUserSummary,
				show.Application.Settings, show.Application.EndUserSummary)
		}
		if string(a.Settings["enable_real_user_monitoring"]) == "true" {
			withRUM++
			if _, ok := a.Settings["end_user_apdex_threshold"]; !ok {
				t.Errorf("application %d has RUM on but no end_user_apdex_threshold", a.ID)
			}
		}
	}
	if withRUM == 0 || withRUM == len(list.Applications) {
		t.Fatalf("%d of %d applications with RUM: the test needs both kinds", withRUM, len(list.Applications))
	}
}
