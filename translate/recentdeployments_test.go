package translate

import (
	"context"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
)

// A list read while the bound has dropped a deployment younger than DeploymentMemory
// declares it (X-V2bridge-Degraded), and stops declaring once that one is older.
func TestDeploymentListDeclaresDroppedRecent(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	for i := range state.RememberedDeployments + 1 {
		now = depNow.Add(time.Duration(i) * time.Millisecond)
		if _, err := tr.CreateDeployment(context.Background(), c, 7, restv2.DeploymentInput{Revision: "r"}, now, false); err != nil {
			t.Fatal(err)
		}
	}
	list := func(at time.Time) (int, string) {
		now = at
		var notes Notes
		l, err := tr.ListDeployments(WithNotes(context.Background(), &notes), c, 7, 1)
		if err != nil {
			t.Fatal(err)
		}
		return len(l.Doc.Deployments), notes.String()
	}
	if n, notes := list(now); n != PageSize || notes != string(CapRecentDeployments) {
		t.Fatalf("page of %d, notes %q; want %d and %q", n, notes, PageSize, CapRecentDeployments)
	}
	// The dropped one (recorded at depNow) is DeploymentMemory old: nothing to declare.
	if _, notes := list(depNow.Add(DeploymentMemory)); notes != "" {
		t.Fatalf("notes %q after the dropped one aged out", notes)
	}
}
