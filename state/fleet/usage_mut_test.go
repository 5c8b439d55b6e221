package fleet

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Tests written for mutants no own test reached (issue 22): the fleet usage report's
// merge (usage.go: counts add up across replicas, last seen keeps the latest, mode
// and fidelity the last written, the account only when known) and the fleet's memory
// of recent deployments (deploys.go: order, the last 100 kept, the TTL).

func TestUsageMergeMut(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := open(t, m), open(t, m)
	ctx := context.Background()
	if err := a.AddUsage(ctx, "a", 1, nil); err != nil {
		t.Fatal(err)
	}
	if err := a.AddUsage(ctx, "a", 2, []UsageRow{
		{Caller: "c1", Agent: "curl", Route: "GET /v2/applications", Mode: "translate", Fidelity: "exact", Account: 7, Count: 3, Errors: 1, LastSeen: 200},
		{Caller: "c2", Agent: "", Route: "GET /v2/x", Mode: "translate", Fidelity: "lossy", Count: 1, LastSeen: 50},
	}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddUsage(ctx, "b", 1, []UsageRow{
		{Caller: "c1", Agent: "curl", Route: "GET /v2/applications", Mode: "compare", Fidelity: "exact", Account: 0, Count: 2, Errors: 0, LastSeen: 100},
	}); err != nil {
		t.Fatal(err)
	}
	m.HSet("t:usage", "junk", "1") // a field not of this shape is skipped
	rows, err := b.Usage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Caller < rows[j].Caller })
	want := []UsageRow{
		{Caller: "c1", Agent: "curl", Route: "GET /v2/applications", Mode: "compare", Fidelity: "exact", Account: 7, Count: 5, Errors: 1, LastSeen: 200},
		{Caller: "c2", Agent: "", Route: "GET /v2/x", Mode: "translate", Fidelity: "lossy", Count: 1, LastSeen: 50},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Fatalf("rows\n%+v\nwant\n%+v", rows, want)
	}
	if err := a.AddUsage(ctx, "a", 3, []UsageRow{{Caller: "c2", Route: "GET /v2/x", Mode: "m", Fidelity: "f", Count: 1, LastSeen: 60, Account: 9}}); err != nil {
		t.Fatal(err)
	}
	rows, _ = a.Usage(ctx)
	sort.Slice(rows, func(i, j int) bool { return rows[i].Caller < rows[j].Caller })
	if r := rows[1]; r.LastSeen != 60 || r.Count != 2 || r.Account != 9 {
		t.Errorf("c2 after a later call: %+v", r)
	}
}

func TestRecentDeploymentsMut(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := open(t, m), open(t, m)
	ctx := context.Background()
	for i := 0; i < maxRecentDeployments+2; i++ {
		if err := a.RememberDeployment(ctx, "app", []byte(strconv.Itoa(i)), time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	got, err := b.RecalledDeployments(ctx, "app")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != maxRecentDeployments || string(got[0]) != "2" || string(got[len(got)-1]) != strconv.Itoa(maxRecentDeployments+1) {
		t.Fatalf("%d recalled, first %q last %q", len(got), got[0], got[len(got)-1])
	}
	if ttl := m.TTL("t:deploys:app"); ttl <= 0 || ttl > time.Minute {
		t.Errorf("ttl %v", ttl)
	}
	none, err := b.RecalledDeployments(ctx, "other")
	if err != nil || len(none) != 0 {
		t.Errorf("another application: %q, %v", none, err)
	}
}
