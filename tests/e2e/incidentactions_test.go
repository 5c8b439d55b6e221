package e2e

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

type incidentBody struct {
	Incident struct {
		ID       int64  `json:"id"`
		OpenedAt int64  `json:"opened_at"`
		ClosedAt *int64 `json:"closed_at"`
		Links    struct {
			PolicyID int64 `json:"policy_id"`
		} `json:"links"`
	} `json:"incident"`
}

func openIncidents(t *testing.T, e *env) []int64 {
	t.Helper()
	var b struct {
		Incidents []struct {
			ID int64 `json:"id"`
		} `json:"incidents"`
	}
	r := e.get(t, "/v2/alerts_incidents.json?only_open=true", key1)
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var ids []int64
	for _, in := range b.Incidents {
		ids = append(ids, in.ID)
	}
	return ids
}

// PUT acknowledge and close act on the NerdGraph issue behind an alerts_incidents id
// (aiIssuesAckIssue, aiIssuesResolveIssue) and answer REST's incident; a closed
// incident leaves the open list; an unknown id is a 404.
func TestIncidentAcknowledgeAndClose(t *testing.T) {
	e := newEnv(t)
	open := openIncidents(t, e)
	if len(open) == 0 {
		t.Fatal("no open incident in the demo")
	}
	id := strconv.FormatInt(open[0], 10)
	put := func(path string) response {
		return e.do(t, http.MethodPut, path, key1, nil)
	}
	r := put("/v2/alerts_incidents/" + id + "/acknowledge.json")
	var b incidentBody
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 || b.Incident.ID != open[0] || b.Incident.ClosedAt != nil ||
		b.Incident.OpenedAt == 0 || b.Incident.Links.PolicyID == 0 {
		t.Fatalf("acknowledge: %d %s", r.status, r.body)
	}
	if e.sim.RequestsByOperation()["IssueAck"] != 1 {
		t.Fatalf("operations %v", e.sim.RequestsByOperation())
	}
	r = put("/v2/alerts_incidents/" + id + "/close.xml")
	wellFormed(t, r.body)
	if r.status != 200 || !strings.Contains(string(r.body), "<incident_response>") || !strings.Contains(string(r.body), "<closed_at>") {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	for _, o := range openIncidents(t, e) {
		if o == open[0] {
			t.Fatal("the closed incident is still listed as open")
		}
	}
	// Closing it again answers it as it is, with no mutation.
	if r := put("/v2/alerts_incidents/" + id + "/close.json"); r.status != 200 || e.sim.RequestsByOperation()["IssueResolve"] != 1 {
		t.Fatalf("close again: %d %s, %v", r.status, r.body, e.sim.RequestsByOperation())
	}
	if r := put("/v2/alerts_incidents/12345/acknowledge.json"); r.status != 404 {
		t.Fatalf("unknown incident: %d %s", r.status, r.body)
	}
	if r := e.get(t, "/v2/alerts_incidents/"+id+"/close.json", key1); r.status != 405 {
		t.Fatalf("GET close: %d %s", r.status, r.body)
	}
}
