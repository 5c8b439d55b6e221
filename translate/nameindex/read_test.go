package nameindex

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The read has both ends of every partition and the count in flight at once (the ends
// of a partition wait for each other), within NerdGraph's 25 concurrent requests.
func TestReadsInFlightHoldEveryEnd(t *testing.T) {
	if want := 2*(len(Languages())+1) + 1; ReadsInFlight != want || want > 25 {
		t.Fatalf("ReadsInFlight %d, want %d (at most 25)", ReadsInFlight, want)
	}
}

// The partitions are the agent languages and every other one, each search of the
// caller's account.
func TestPartitions(t *testing.T) {
	x := New(Options{Query: func(account int64, eq string, notIn []string) (string, error) {
		if eq != "" {
			return fmt.Sprintf("%d: language = '%s'", account, eq), nil
		}
		return fmt.Sprintf("%d: language NOT IN (%s)", account, strings.Join(notIn, ", ")), nil
	}})
	parts, err := x.partitions(42)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"42: language = 'c'", "42: language = 'dotnet'", "42: language = 'go'", "42: language = 'java'",
		"42: language = 'nodejs'", "42: language = 'php'", "42: language = 'python'", "42: language = 'ruby'",
		"42: language NOT IN (c, dotnet, go, java, nodejs, php, python, ruby)"}
	if !slices.Equal(parts, want) {
		t.Fatalf("partitions\n%q\nwant\n%q", parts, want)
	}
}

// The index is in the search's order whatever order the apps came in: by name without
// case, then name, then guid; entities without a REST id or not APM are left out.
func TestEntriesInSearchOrder(t *testing.T) {
	apps := []App{
		{GUID: "b", Name: "beta", ID: 2, APM: true},
		{GUID: "z", Name: "Alpha", ID: 3, APM: true},
		{GUID: "a", Name: "Alpha", ID: 1, APM: true},
		{GUID: "c", Name: "alpha", ID: 4, APM: true},
		{GUID: "d", Name: "aaa", ID: 0, APM: true},
		{GUID: "e", Name: "aab", ID: 5},
	}
	if got := IDs(entries(apps)); !slices.Equal(got, []int64{1, 3, 4, 2}) {
		t.Fatalf("%v, want [1 3 4 2]", got)
	}
}
