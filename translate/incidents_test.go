package translate

import (
	"context"
	"fmt"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// GET /v2/alerts_incidents. NerdGraph is opFake answering Incidents
// (graphql/operations/alerts.graphql) and, for the further pages of policies, Policies.

var incClock = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func incidentsAnswer(next any, alerts any, issues ...map[string]any) map[string]any {
	return map[string]any{"actor": map[string]any{"account": map[string]any{
		"aiIssues": map[string]any{"issues": map[string]any{"nextCursor": next, "issues": issues}},
		"alerts":   alerts}}}
}

func policyPage(next any, ps ...map[string]any) map[string]any {
	return map[string]any{"policiesSearch": map[string]any{"nextCursor": next, "policies": ps}}
}

// The 30-day window, the cached list, activatedAt over createdAt, no policy, numeric and
// other incident ids, the issue cursor loop, and the preferences filled from the
// policies of the first page and the further policy pages.
func TestIncidents(t *testing.T) {
	act := int64(1500)
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		switch op {
		case "Incidents":
			if vars["cursor"] == nil {
				return incidentsAnswer("i2", policyPage("p2", policyJSON("1", "a", "PER_POLICY")),
					map[string]any{"issueId": "is-1", "state": "ACTIVATED", "createdAt": 1000, "activatedAt": act, "closedAt": nil,
						"policyIds": []int{1}, "incidentIds": []string{"123", "abc"}},
					map[string]any{"issueId": "is-2", "state": "CLOSED", "createdAt": 2000, "closedAt": 3000, "policyIds": []int{}, "incidentIds": []string{}}), nil
			}
			// A later page's policies are ignored (the first page's are complete with their cursor).
			return incidentsAnswer(nil, policyPage(nil, policyJSON("1", "a", "PER_CONDITION"), policyJSON("7", "b", "PER_CONDITION")),
				map[string]any{"issueId": "is-3", "state": "CREATED", "createdAt": 4000, "policyIds": []int{7}, "incidentIds": []string{}}), nil
		case "Policies":
			if vars["cursor"] != "p2" {
				return nil, fmt.Errorf("policies cursor %v", vars["cursor"])
			}
			return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": policyPage(nil, policyJSON("7", "b", "PER_CONDITION_AND_TARGET"))}}}, nil
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	tr := New(f, Options{Now: func() time.Time { return incClock }})
	c := Caller{AccountID: 1}
	l, _, err := tr.Incidents(context.Background(), c, IncidentsRequest{ExcludeViolations: true})
	if err != nil {
		t.Fatal(err)
	}
	closed := int64(3000)
	want := []v2.Incident{
		{ID: SurrogateID("issue", 1, "is-1"), OpenedAt: 1500, IncidentPreference: "PER_POLICY", PolicyID: 1,
			Violations: []int64{123, SurrogateID("incident", 0, "abc")}, ExcludeViolations: true},
		{ID: SurrogateID("issue", 1, "is-2"), OpenedAt: 2000, ClosedAt: &closed, Violations: []int64{}, ExcludeViolations: true},
		{ID: SurrogateID("issue", 1, "is-3"), OpenedAt: 4000, IncidentPreference: "PER_CONDITION_AND_TARGET", PolicyID: 7, Violations: []int64{}, ExcludeViolations: true},
	}
	if len(l.Incidents) != len(want) {
		t.Fatalf("%d incidents: %+v", len(l.Incidents), l.Incidents)
	}
	for i, w := range want {
		g := l.Incidents[i]
		if g.ID != w.ID || g.OpenedAt != w.OpenedAt || fmt.Sprint(g.ClosedAt != nil) != fmt.Sprint(w.ClosedAt != nil) ||
			(g.ClosedAt != nil && *g.ClosedAt != *w.ClosedAt) || g.IncidentPreference != w.IncidentPreference ||
			g.PolicyID != w.PolicyID || fmt.Sprint(g.Violations) != fmt.Sprint(w.Violations) || g.ExcludeViolations != w.ExcludeViolations {
			t.Errorf("incident %d: %+v, want %+v", i, g, w)
		}
	}
	if f.count("Incidents") != 2 || f.count("Policies") != 1 {
		t.Errorf("%d issue reads, %d policy reads; want 2, 1", f.count("Incidents"), f.count("Policies"))
	}
	tw := f.calls[0].vars["timeWindow"].(map[string]any)
	if tw["startTime"] != float64(incClock.Add(-30*24*time.Hour).UnixMilli()) || tw["endTime"] != float64(incClock.UnixMilli()) {
		t.Errorf("time window %v", tw)
	}
	if _, ok := f.calls[0].vars["filter"].(map[string]any)["states"]; ok {
		t.Errorf("states sent without only_open: %v", f.calls[0].vars["filter"])
	}
	// The list is kept: page 2 and a repeat cost no round trip; only_open is another list.
	n := f.count("")
	if _, _, err := tr.Incidents(context.Background(), c, IncidentsRequest{ExcludeViolations: true, Page: 2}); err != nil || f.count("") != n {
		t.Errorf("cached list re-read: %v, %d calls", err, f.count("")-n)
	}
	if _, _, err := tr.Incidents(context.Background(), c, IncidentsRequest{OnlyOpen: true, ExcludeViolations: true}); err != nil || f.count("") == n {
		t.Fatalf("only_open: %v", err)
	}
	if st := fmt.Sprint(f.calls[n].vars["filter"].(map[string]any)["states"]); st != "[CREATED ACTIVATED]" {
		t.Errorf("only_open states %s", st)
	}
}

// A failed read is an error, a null account or aiIssues is an empty list, a failed or
// null policy page leaves the preference empty.
func TestIncidentsNullsAndErrors(t *testing.T) {
	for _, tt := range []struct {
		name    string
		answer  func(op string) (any, error)
		wantErr bool
		want    int
	}{
		{"error", func(string) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }, true, 0},
		{"null account", func(string) (any, error) {
			return map[string]any{"actor": map[string]any{"account": nil}}, nil
		}, false, 0},
		{"null aiIssues", func(string) (any, error) {
			return map[string]any{"actor": map[string]any{"account": map[string]any{"aiIssues": nil, "alerts": nil}}}, nil
		}, false, 0},
		{"policy page fails", func(op string) (any, error) {
			if op == "Policies" {
				return nil, &ng.Error{Kind: ng.KindServer, Status: 500}
			}
			return incidentsAnswer(nil, policyPage("p2"), map[string]any{"issueId": "x", "createdAt": 1, "policyIds": []int{7}}), nil
		}, true, 0},
		{"policy page null", func(op string) (any, error) {
			if op == "Policies" {
				return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": nil}}}, nil
			}
			return incidentsAnswer(nil, policyPage("p2"), map[string]any{"issueId": "x", "createdAt": 1, "policyIds": []int{7}}), nil
		}, false, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &opFake{}
			f.answer = func(op string, _ map[string]any) (any, error) { return tt.answer(op) }
			l, _, err := New(f, Options{Now: func() time.Time { return incClock }}).Incidents(context.Background(), Caller{AccountID: 1}, IncidentsRequest{})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v", err)
			}
			if err == nil && (len(l.Incidents) != tt.want || tt.want == 1 && l.Incidents[0].IncidentPreference != "") {
				t.Errorf("%+v, want %d", l.Incidents, tt.want)
			}
		})
	}
}
