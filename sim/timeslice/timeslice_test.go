package timeslice

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim/nrdb"
)

var t0 = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func TestGeneratorDeterministicAndConsistent(t *testing.T) {
	g := Generator{Seed: 7}
	for _, name := range DefaultNames() {
		for m := 0; m < 30; m++ {
			at := t0.Add(time.Duration(m) * time.Minute)
			a := g.Timeslice(100, 5, name, at, 0.5)
			if b := g.Timeslice(100, 5, name, at, 0.5); a != b {
				t.Fatalf("%s: not deterministic", name)
			}
			if a.Count < 0 || a.Total < 0 || a.TotalExclusive < 0 {
				t.Fatalf("%s: negative %+v", name, a)
			}
			isApdex := name == "Apdex" || strings.HasPrefix(name, "Apdex/") || name == "EndUser/Apdex"
			if a.Count > 0 && !isApdex && !strings.HasPrefix(name, "Errors/") && name != "Memory/Physical" && name != "EndUser" && name != "EndUser/RB" {
				avg := a.Total / a.Count
				if a.Min > avg || avg > a.Max || a.TotalExclusive > a.Total || a.SumOfSquares < a.Total*a.Total/a.Count-1e-9 {
					t.Fatalf("%s: inconsistent %+v", name, a)
				}
			}
			if isApdex && (a.Min != 0.5 || a.Max != 0.5) {
				t.Fatalf("%s: apdex_t %+v", name, a)
			}
		}
	}
	if g.Timeslice(100, 5, "HttpDispatcher", t0, 0.5) == g.Timeslice(100, 5, "HttpDispatcher", t0.Add(time.Minute), 0.5) {
		t.Error("two minutes gave the same numbers")
	}
	if (Generator{Seed: 8}).Timeslice(100, 5, "HttpDispatcher", t0, 0.5) == g.Timeslice(100, 5, "HttpDispatcher", t0, 0.5) {
		t.Error("two seeds gave the same numbers")
	}
}

// NRQL over the source equals the generator's own numbers.
func TestNRQLOverSource(t *testing.T) {
	g := Generator{Seed: 3}
	apps := []App{
		{AccountID: 1, AppID: 10, AppName: "a", GUID: "g10", ApdexT: 0.5, Instances: []Instance{{ID: 1, Host: "h1"}, {ID: 2, Host: "h2"}}},
		{AccountID: 1, AppID: 11, AppName: "b", GUID: "g11", ApdexT: 0.5, Instances: []Instance{{ID: 3, Host: "h1"}}},
		{AccountID: 2, AppID: 20, AppName: "c", GUID: "g20", ApdexT: 0.5, Instances: []Instance{{ID: 4, Host: "h9"}}},
	}
	r := nrdb.NewRunner(NewSource(g, apps))
	want := 0.0
	for m := 0; m < 30; m++ {
		at := t0.Add(time.Duration(m) * time.Minute)
		want += g.Timeslice(10, 1, "HttpDispatcher", at, 0.5).Count + g.Timeslice(10, 2, "HttpDispatcher", at, 0.5).Count
	}
	q := "SELECT count(newrelic.timeslice.value) AS 'calls' FROM Metric WHERE appId = 10 AND metricTimesliceName = 'HttpDispatcher' SINCE " +
		itoa(t0.UnixMilli()) + " UNTIL " + itoa(t0.Add(30*time.Minute).UnixMilli())
	rows, _, _, err := r.RunNRQL(context.Background(), []int{1}, q, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[0]["calls"]; got != want {
		t.Fatalf("calls = %v, want %v", got, want)
	}
	// Account scope: account 2's app is invisible from account 1.
	rows, _, _, err = r.RunNRQL(context.Background(), []int{1}, "SELECT uniques(appId) FROM Metric SINCE 5 minutes ago", t0)
	if err != nil {
		t.Fatal(err)
	}
	if u := rows[0]["uniques.appId"].([]any); len(u) != 2 {
		t.Fatalf("uniques = %v", u)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func BenchmarkInventoryQuery(b *testing.B) {
	var apps []App
	for i := 0; i < 260; i++ {
		apps = append(apps, App{AccountID: 1, AppID: int64(1000 + i), GUID: "g", ApdexT: 0.5,
			Instances: []Instance{{ID: int64(2*i + 1), Host: "h"}, {ID: int64(2*i + 2), Host: "k"}}})
	}
	r := nrdb.NewRunner(NewSource(Generator{Seed: 1}, apps))
	q := "SELECT max(timestamp) AS 'lastSeen' FROM Metric WHERE metricTimesliceName IN ('HttpDispatcher', 'OtherTransaction/all') FACET appId, host, realAgentId SINCE 10 minutes ago LIMIT MAX"
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := r.RunNRQL(context.Background(), []int{1}, q, t0); err != nil {
			b.Fatal(err)
		}
	}
}

// Segment metrics have one scoped copy per Controller/* transaction besides the
// unscoped row; roll-ups and transactions have none; realAgentId is a string.
func TestScopedCopies(t *testing.T) {
	g := Generator{Seed: 3}
	apps := []App{{AccountID: 1, AppID: 10, AppName: "a", GUID: "g10", ApdexT: 0.5, Instances: []Instance{{ID: 1, Host: "h1"}, {ID: 2, Host: "h2"}}}}
	r := nrdb.NewRunner(NewSource(g, apps))
	run := func(q string) map[string]any {
		t.Helper()
		rows, _, _, err := r.RunNRQL(context.Background(), []int{1}, q+" SINCE "+itoa(t0.UnixMilli())+" UNTIL "+itoa(t0.Add(10*time.Minute).UnixMilli()), t0.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return rows[0]
	}
	scopes := Scopes(DefaultNames())
	if len(scopes) != 3 {
		t.Fatalf("scopes %v", scopes)
	}
	for _, tt := range []struct {
		name   string
		scoped bool
	}{
		{"Datastore/statement/MySQL/users/select", true}, {"External/api.example.com/Net::HTTP/GET", true}, {"Custom/Billing/charge", true},
		{"Datastore/MySQL/allWeb", false}, {"External/allWeb", false}, {"HttpDispatcher", false}, {"Apdex", false},
	} {
		if Scoped(tt.name) != tt.scoped {
			t.Errorf("Scoped(%s) = %v", tt.name, !tt.scoped)
		}
		rows := run("SELECT count(*) AS 'all', filter(count(*), WHERE scope IS NULL) AS 'unscoped', uniqueCount(scope) AS 'scopes' FROM Metric WHERE metricTimesliceName = '" + tt.name + "'")
		wantScopes := 0.0
		if tt.scoped {
			wantScopes = float64(len(scopes))
		}
		if rows["unscoped"] != 20.0 || rows["all"] != 20*(1+wantScopes) || rows["scopes"] != wantScopes {
			t.Errorf("%s: %v", tt.name, rows)
		}
	}
	// The unscoped sums are the generator's own numbers; the scoped copies differ.
	want := 0.0
	for m := 0; m < 10; m++ {
		want += g.Timeslice(10, 2, "Custom/Billing/charge", t0.Add(time.Duration(m)*time.Minute), 0.5).Count
	}
	row := run("SELECT count(newrelic.timeslice.value) AS 'c' FROM Metric WHERE realAgentId = '2' AND scope IS NULL AND metricTimesliceName = 'Custom/Billing/charge'")
	if row["c"] != want {
		t.Fatalf("unscoped count %v, want %v", row["c"], want)
	}
	// A scoped copy's values are its own, generated once per row however many
	// aggregates read them (the source generates them on the first read).
	wantScoped := 0.0
	for m := 0; m < 10; m++ {
		wantScoped += g.ScopedTimeslice(10, 2, "Custom/Billing/charge", scopes[0], t0.Add(time.Duration(m)*time.Minute), 0.5).Count
	}
	row = run("SELECT count(newrelic.timeslice.value) AS 'c', count(newrelic.timeslice.value) AS 'd' FROM Metric WHERE realAgentId = '2' AND scope = '" + scopes[0] + "' AND metricTimesliceName = 'Custom/Billing/charge'")
	if row["c"] != wantScoped || row["d"] != wantScoped || wantScoped == want {
		t.Fatalf("scoped counts %v and %v, want %v (unscoped %v)", row["c"], row["d"], wantScoped, want)
	}
	if row := run("SELECT count(newrelic.timeslice.value) AS 'c' FROM Metric WHERE realAgentId = 2"); row["c"] != 0.0 {
		t.Fatalf("realAgentId compared with a number matched: %v", row)
	}
}
