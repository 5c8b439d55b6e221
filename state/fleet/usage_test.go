package fleet

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/alicebob/miniredis/v2"

	"github.com/v2bridge/v2bridge/state"
)

// A push is applied once per replica and number: resent (its answer lost), it is not
// counted again; a later number, or another replica's, is.
func TestAddUsageOnce(t *testing.T) {
	m := miniredis.RunT(t)
	s := open(t, m)
	ctx := context.Background()
	row := []state.UsageRow{{Caller: "abcd1234", Agent: "curl", Route: "applications.list", Count: 3, Errors: 1, LastSeen: 100}}
	for i, tc := range []struct {
		replica string
		seq     uint64
		want    int64
	}{{"a", 1, 3}, {"a", 1, 3}, {"a", 2, 6}, {"a", 1, 6}, {"b", 1, 9}, {"b", 2, 12}} {
		if err := s.AddUsage(ctx, tc.replica, tc.seq, row); err != nil {
			t.Fatal(err)
		}
		rows, err := s.Usage(ctx)
		if err != nil || len(rows) != 1 || rows[0].Count != tc.want {
			t.Fatalf("push %d (%s #%d): %+v %v, want count %d", i, tc.replica, tc.seq, rows, err, tc.want)
		}
	}
	if ttl := m.TTL("t:usage-seq"); ttl <= 0 {
		t.Fatalf("push numbers kept without expiry (%s)", ttl)
	}
}

// The fleet usage report's merge: counts add up across replicas, last seen keeps the
// latest, mode and fidelity the last written, the account only when known.
func TestUsageMerge(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := open(t, m), open(t, m)
	ctx := context.Background()
	if err := a.AddUsage(ctx, "a", 1, nil); err != nil {
		t.Fatal(err)
	}
	if err := a.AddUsage(ctx, "a", 2, []state.UsageRow{
		{Caller: "c1", Agent: "curl", Route: "GET /v2/applications", Mode: "translate", Fidelity: "exact", Account: 7, Count: 3, Errors: 1, LastSeen: 200},
		{Caller: "c2", Agent: "", Route: "GET /v2/x", Mode: "translate", Fidelity: "lossy", Count: 1, LastSeen: 50},
	}); err != nil {
		t.Fatal(err)
	}
	if err := b.AddUsage(ctx, "b", 1, []state.UsageRow{
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
	want := []state.UsageRow{
		{Caller: "c1", Agent: "curl", Route: "GET /v2/applications", Mode: "compare", Fidelity: "exact", Account: 7, Count: 5, Errors: 1, LastSeen: 200},
		{Caller: "c2", Agent: "", Route: "GET /v2/x", Mode: "translate", Fidelity: "lossy", Count: 1, LastSeen: 50},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Fatalf("rows\n%+v\nwant\n%+v", rows, want)
	}
	if err := a.AddUsage(ctx, "a", 3, []state.UsageRow{{Caller: "c2", Route: "GET /v2/x", Mode: "m", Fidelity: "f", Count: 1, LastSeen: 60, Account: 9}}); err != nil {
		t.Fatal(err)
	}
	rows, _ = a.Usage(ctx)
	sort.Slice(rows, func(i, j int) bool { return rows[i].Caller < rows[j].Caller })
	if r := rows[1]; r.LastSeen != 60 || r.Count != 2 || r.Account != 9 {
		t.Errorf("c2 after a later call: %+v", r)
	}
}
