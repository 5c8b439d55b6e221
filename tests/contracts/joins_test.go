package contracts

import (
	"slices"
	"testing"

	"github.com/v2bridge/v2bridge/translate"
)

// TestIncidentViolationJoin pins the one rule the incidents ↔ violations join can rest
// on while no published recording shows NrAiIncident beside aiIssues: an incident id
// string (a UUID, as published aiIssues answers show, or digits) in an issue's
// incidentIds and the same string as NrAiIncident's incidentId facet become the same
// v2 id, so links.violations of alerts_incidents names ids alerts_violations lists.
// The answers are constructed (testdata/constructed/): they assume the two ids are
// equal, which is exactly what README's "Joins" row says is unverified.
func TestIncidentViolationJoin(t *testing.T) {
	tr, _, ctx, c := setup(t, map[string]recording{
		"Incidents": {file: "constructed/Incidents.join.json"},
		"NrqlQuery": {file: "constructed/NrqlQuery.violations-join.json"},
	})
	incs, _, err := tr.Incidents(ctx, c, translate.IncidentsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	vs, _, err := tr.Violations(ctx, c, translate.ViolationsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(incs.Incidents) != 1 || len(vs.Violations) != 2 {
		t.Fatalf("%d incidents, %d violations", len(incs.Incidents), len(vs.Violations))
	}
	linked := incs.Incidents[0].Violations
	var listed []int64
	for _, v := range vs.Violations {
		listed = append(listed, v.ID)
	}
	slices.Sort(linked)
	slices.Sort(listed)
	if !slices.Equal(linked, listed) {
		t.Errorf("links.violations %v, alerts_violations ids %v", linked, listed)
	}
	if !slices.Contains(linked, 1234567) {
		t.Errorf("an integer incident id is REST's violation id itself: %v", linked)
	}
	if got := incs.Incidents[0].IncidentPreference; got != "PER_CONDITION" {
		t.Errorf("incident_preference %q from the policy of the same document", got)
	}
}
