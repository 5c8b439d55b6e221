package sim_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
)

// mutateCond runs a create or update mutation and returns the condition it answers.
func (h *harness) mutateCond(t testing.TB, q, key string, vars map[string]any) (*cond, []gqlErr) {
	t.Helper()
	var out map[string]*cond
	errs := h.query(t, key, q, vars, &out)
	for _, c := range out {
		return c, errs
	}
	return nil, errs
}

func staticInput(name string, threshold float64) map[string]any {
	return map[string]any{
		"name": name, "enabled": true,
		"nrql":  map[string]any{"query": "SELECT count(*) FROM Transaction WHERE appName = 'checkout-service'"},
		"terms": []any{map[string]any{"priority": "CRITICAL", "operator": "ABOVE", "threshold": threshold, "thresholdDuration": 300, "thresholdOccurrences": "ALL"}},
	}
}

func TestNrqlConditionLifecycle(t *testing.T) {
	h := demoHarness(t)
	in := staticInput("Checkout errors (new)", 7)
	in["description"] = "created by the test"
	in["signal"] = map[string]any{"aggregationWindow": 150, "fillOption": "STATIC", "fillValue": 0}
	in["violationTimeLimitSeconds"] = 3600
	created, errs := h.mutateCond(t, staticCreate, keyOne, map[string]any{"a": acctOne, "p": "1002", "c": in})
	if len(errs) > 0 || created == nil {
		t.Fatalf("create: %+v", errs)
	}
	if created.idInt(t) <= 6305 || created.Type != "STATIC" || created.PolicyID != "1002" || created.Terms[0].Threshold != 7 ||
		*created.Signal.AggregationWindow != 150 || *created.Signal.AggregationDelay != 120 || *created.ViolationTimeLimitSeconds != 3600 ||
		created.CreatedAt == nil || *created.Description != "created by the test" ||
		created.EntityGUID != guid(acctOne, "AIOPS", "CONDITION", created.idInt(t)) {
		t.Fatalf("created %+v", created)
	}
	if got := h.allIDs(t, condSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1002"}); !slices.Equal(got, []string{"6104", "6105", created.ID}) {
		t.Errorf("policy 1002 after create: %v", got)
	}

	// Only the fields given change.
	upd := map[string]any{"terms": []any{
		map[string]any{"priority": "CRITICAL", "operator": "ABOVE", "threshold": 12.5, "thresholdDuration": 600, "thresholdOccurrences": "AT_LEAST_ONCE"},
		map[string]any{"priority": "WARNING", "operator": "ABOVE", "threshold": 9, "thresholdDuration": 600, "thresholdOccurrences": "ALL"},
	}}
	updated, errs := h.mutateCond(t, staticUpdate, keyOne, map[string]any{"a": acctOne, "id": created.ID, "c": upd})
	if len(errs) > 0 || updated == nil || len(updated.Terms) != 2 || updated.Terms[0].Threshold != 12.5 {
		t.Fatalf("update: %+v %+v", updated, errs)
	}
	got, _ := h.getCond(t, keyOne, acctOne, created.ID)
	if got == nil || got.Terms[0].Threshold != 12.5 || got.Terms[0].ThresholdOccurrences != "AT_LEAST_ONCE" || got.Terms[1].Threshold != 9 ||
		got.Name != created.Name || got.Nrql.Query != created.Nrql.Query || *got.Signal.FillOption != "STATIC" ||
		*got.Description != "created by the test" || *got.ViolationTimeLimitSeconds != 3600 || *got.CreatedAt != *created.CreatedAt {
		t.Fatalf("after the threshold update: %+v", got)
	}
	updated, errs = h.mutateCond(t, staticUpdate, keyOne, map[string]any{"a": acctOne, "id": created.ID, "c": map[string]any{
		"name": "Renamed", "enabled": false, "nrql": map[string]any{"query": "SELECT count(*) FROM TransactionError"},
		"signal": map[string]any{"aggregationMethod": "EVENT_TIMER", "aggregationTimer": 30}, "expiration": map[string]any{"expirationDuration": 300},
	}})
	if len(errs) > 0 || updated.Name != "Renamed" || updated.Enabled || updated.Nrql.Query != "SELECT count(*) FROM TransactionError" ||
		len(updated.Terms) != 2 || *updated.Signal.AggregationTimer != 30 || updated.Signal.AggregationDelay != nil ||
		*updated.Signal.AggregationWindow != 150 || *updated.Expiration.ExpirationDuration != 300 {
		t.Fatalf("second update: %+v %+v", updated, errs)
	}

	var del struct{ AlertsConditionDelete struct{ ID string } }
	h.mustQuery(t, keyOne, conditionDelete, map[string]any{"a": acctOne, "id": created.ID}, &del)
	if del.AlertsConditionDelete.ID != created.ID {
		t.Errorf("delete answered %+v", del)
	}
	if got := h.allIDs(t, condSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1002"}); !slices.Equal(got, ids(6104, 6105)) {
		t.Errorf("policy 1002 after delete: %v", got)
	}
	if c, errs := h.getCond(t, keyOne, acctOne, created.ID); c != nil || !hasError(errs, "NOT_FOUND", "Not Found") {
		t.Errorf("deleted condition read: %+v %+v", c, errs)
	}
	if errs := h.query(t, keyOne, conditionDelete, map[string]any{"a": acctOne, "id": created.ID}, nil); !hasError(errs, "NOT_FOUND", "") {
		t.Errorf("second delete: %+v", errs)
	}
	if _, errs := h.mutateCond(t, staticUpdate, keyOne, map[string]any{"a": acctOne, "id": created.ID, "c": map[string]any{"name": "x"}}); !hasError(errs, "NOT_FOUND", "") {
		t.Errorf("update of a deleted condition: %+v", errs)
	}

	// Ids are never reused, even after the highest one was deleted.
	again, errs := h.mutateCond(t, staticCreate, keyOne, map[string]any{"a": acctOne, "p": "1002", "c": staticInput("Again", 1)})
	if len(errs) > 0 || again.idInt(t) <= created.idInt(t) {
		t.Errorf("second create: %+v %+v (first id %s)", again, errs, created.ID)
	}

	// Legacy conditions are deleted too (alertsConditionDelete takes any kind).
	h.mustQuery(t, keyOne, conditionDelete, map[string]any{"a": acctOne, "id": "6301"}, nil)
	if got := h.allIDs(t, asSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1004"}); !slices.Equal(got, ids(6302, 6305)) {
		t.Errorf("policy 1004 after deleting 6301: %v", got)
	}
}

func TestNrqlConditionBaseline(t *testing.T) {
	h := demoHarness(t)
	in := map[string]any{
		"name": "Latency baseline", "enabled": true, "baselineDirection": "UPPER_ONLY", "signalSeasonality": "WEEKLY",
		"nrql":  map[string]any{"query": "SELECT average(duration) FROM Transaction"},
		"terms": []any{map[string]any{"priority": "CRITICAL", "operator": "ABOVE", "threshold": 3, "thresholdDuration": 300, "thresholdOccurrences": "ALL"}},
	}
	c, errs := h.mutateCond(t, baselineCreate, keyTwo, map[string]any{"a": acctTwo, "p": "2001", "c": in})
	if len(errs) > 0 || c == nil || c.Typename != "AlertsNrqlBaselineCondition" || c.Type != "BASELINE" || *c.BaselineDirection != "UPPER_ONLY" ||
		*c.SignalSeasonality != "WEEKLY" || c.PolicyID != "2001" || c.Terms[0].Threshold != 3 {
		t.Fatalf("baseline create: %+v %+v", c, errs)
	}
	if got := h.allIDs(t, condSearchQuery, keyTwo, acctTwo, nil); !slices.Equal(got, []string{"6201", "6202", c.ID}) {
		t.Errorf("account two after create: %v", got)
	}
	// The other type's update mutation is refused, in both directions.
	if _, errs := h.mutateCond(t, staticUpdate, keyTwo, map[string]any{"a": acctTwo, "id": c.ID, "c": map[string]any{"name": "x"}}); !hasError(errs, "INVALID_INPUT", "baseline") {
		t.Errorf("static update of a baseline condition: %+v", errs)
	}
	if _, errs := h.mutateCond(t, baselineUpdate, keyTwo, map[string]any{"a": acctTwo, "id": "6201", "c": map[string]any{"name": "x"}}); !hasError(errs, "INVALID_INPUT", "static") {
		t.Errorf("baseline update of a static condition: %+v", errs)
	}
	u, errs := h.mutateCond(t, baselineUpdate, keyTwo, map[string]any{"a": acctTwo, "id": c.ID, "c": map[string]any{"baselineDirection": "LOWER_ONLY"}})
	if len(errs) > 0 || *u.BaselineDirection != "LOWER_ONLY" || u.Name != "Latency baseline" || *u.SignalSeasonality != "WEEKLY" || len(u.Terms) != 1 {
		t.Errorf("baseline update: %+v %+v", u, errs)
	}
	if got, _ := h.getCond(t, keyTwo, acctTwo, "6201"); got == nil || got.Name != "High error rate" {
		t.Errorf("refused update changed 6201: %+v", got)
	}
}

func TestConditionAccess(t *testing.T) {
	h := demoHarness(t)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
	}{
		{name: "search", query: condSearchQuery, vars: map[string]any{"a": acctOne}},
		{name: "as NRQL search", query: asSearchQuery, vars: map[string]any{"a": acctOne}},
		{name: "read", query: getQuery, vars: map[string]any{"a": acctOne, "id": "6101"}},
		{name: "static create", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001", "c": staticInput("x", 1)}},
		{name: "static update", query: staticUpdate, vars: map[string]any{"a": acctOne, "id": "6101", "c": map[string]any{"name": "stolen"}}},
		{name: "baseline update", query: baselineUpdate, vars: map[string]any{"a": acctOne, "id": "6102", "c": map[string]any{"name": "stolen"}}},
		{name: "delete", query: conditionDelete, vars: map[string]any{"a": acctOne, "id": "6101"}},
		{name: "query of an account the key does not reach", query: staticCreate, vars: map[string]any{"a": acctTwo, "p": "2001",
			"c": map[string]any{"name": "x", "enabled": true, "nrql": map[string]any{"query": "SELECT 1 FROM Transaction", "dataAccountId": acctOne},
				"terms": []any{map[string]any{"priority": "CRITICAL", "operator": "ABOVE", "threshold": 1, "thresholdDuration": 60, "thresholdOccurrences": "ALL"}}}}},
		{name: "unknown account", query: conditionDelete, vars: map[string]any{"a": 999, "id": "6101"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if errs := h.query(t, keyTwo, tt.query, tt.vars, nil); !hasError(errs, "FORBIDDEN", "Access denied") {
				t.Errorf("errors %+v, want FORBIDDEN", errs)
			}
		})
	}
	// Nothing changed.
	if got := h.allIDs(t, condSearchQuery, keyOne, acctOne, nil); len(got) != 8 {
		t.Errorf("account one has %d conditions after refused writes", len(got))
	}
	if c, _ := h.getCond(t, keyOne, acctOne, "6101"); c == nil || c.Name != "High error rate" {
		t.Errorf("6101 changed: %+v", c)
	}
}

func TestConditionValidation(t *testing.T) {
	h := demoHarness(t)
	with := func(change func(m map[string]any)) map[string]any {
		m := staticInput("Valid", 1)
		change(m)
		return m
	}
	term := func(prio string, dur float64) map[string]any {
		return map[string]any{"priority": prio, "operator": "ABOVE", "threshold": 1, "thresholdDuration": dur, "thresholdOccurrences": "ALL"}
	}
	tests := []struct {
		name    string
		query   string
		vars    map[string]any
		class   string
		message string
	}{
		{name: "empty name", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001", "c": with(func(m map[string]any) { m["name"] = "  " })},
			class: "INVALID_INPUT", message: "name: required"},
		{name: "empty query", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001", "c": with(func(m map[string]any) { m["nrql"] = map[string]any{"query": ""} })},
			class: "INVALID_INPUT", message: "nrql.query: required"},
		{name: "no terms", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001", "c": with(func(m map[string]any) { delete(m, "terms") })},
			class: "INVALID_INPUT", message: "at least one term"},
		{name: "two critical terms", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001",
			"c": with(func(m map[string]any) { m["terms"] = []any{term("CRITICAL", 300), term("CRITICAL", 600)} })},
			class: "INVALID_INPUT", message: "more than one CRITICAL"},
		{name: "two warning terms", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001",
			"c": with(func(m map[string]any) { m["terms"] = []any{term("WARNING", 300), term("WARNING", 600)} })},
			class: "INVALID_INPUT", message: "more than one WARNING"},
		{name: "duration not a multiple of the window", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001",
			"c": with(func(m map[string]any) { m["terms"] = []any{term("CRITICAL", 90)} })},
			class: "INVALID_INPUT", message: "multiple of the aggregation window"},
		{name: "duration too long", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001",
			"c": with(func(m map[string]any) { m["terms"] = []any{term("CRITICAL", 90000)} })},
			class: "INVALID_INPUT", message: "thresholdDuration"},
		{name: "violation time limit", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001",
			"c": with(func(m map[string]any) { m["violationTimeLimitSeconds"] = 100 })},
			class: "INVALID_INPUT", message: "violationTimeLimitSeconds"},
		{name: "both violation time limits", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001",
			"c": with(func(m map[string]any) { m["violationTimeLimitSeconds"] = 3600; m["violationTimeLimit"] = "ONE_HOUR" })},
			class: "INVALID_INPUT", message: "not both"},
		{name: "static fill without a value", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001",
			"c": with(func(m map[string]any) { m["signal"] = map[string]any{"fillOption": "STATIC"} })},
			class: "INVALID_INPUT", message: "fillValue"},
		{name: "timer without EVENT_TIMER", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "1001",
			"c": with(func(m map[string]any) { m["signal"] = map[string]any{"aggregationTimer": 60} })},
			class: "INVALID_INPUT", message: "aggregationTimer"},
		{name: "unknown policy", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "9999", "c": staticInput("x", 1)},
			class: "NOT_FOUND", message: "policy"},
		{name: "policy of another account", query: staticCreate, vars: map[string]any{"a": acctOne, "p": "2001", "c": staticInput("x", 1)},
			class: "NOT_FOUND", message: "policy"},
		{name: "baseline without terms", query: baselineCreate, vars: map[string]any{"a": acctOne, "p": "1001", "c": map[string]any{
			"name": "b", "enabled": true, "baselineDirection": "UPPER_ONLY", "nrql": map[string]any{"query": "SELECT 1 FROM Transaction"}}},
			class: "INVALID_INPUT", message: "at least one term"},
		{name: "baseline term too short", query: baselineCreate, vars: map[string]any{"a": acctOne, "p": "1001", "c": map[string]any{
			"name": "b", "enabled": true, "baselineDirection": "UPPER_ONLY", "nrql": map[string]any{"query": "SELECT 1 FROM Transaction"},
			"terms": []any{term("CRITICAL", 60)}}},
			class: "INVALID_INPUT", message: "thresholdDuration"},
		{name: "update: unknown condition", query: staticUpdate, vars: map[string]any{"a": acctOne, "id": "424242", "c": map[string]any{"name": "x"}},
			class: "NOT_FOUND", message: "Not Found"},
		{name: "update: legacy condition", query: staticUpdate, vars: map[string]any{"a": acctOne, "id": "6301", "c": map[string]any{"name": "x"}},
			class: "NOT_FOUND", message: "Not Found"},
		{name: "update: empty name", query: staticUpdate, vars: map[string]any{"a": acctOne, "id": "6101", "c": map[string]any{"name": ""}},
			class: "INVALID_INPUT", message: "name: required"},
		{name: "update: empty query", query: staticUpdate, vars: map[string]any{"a": acctOne, "id": "6101", "c": map[string]any{"nrql": map[string]any{"query": " "}}},
			class: "INVALID_INPUT", message: "nrql.query"},
		{name: "update: two critical terms", query: baselineUpdate, vars: map[string]any{"a": acctOne, "id": "6102",
			"c": map[string]any{"terms": []any{term("CRITICAL", 300), term("CRITICAL", 600)}}},
			class: "INVALID_INPUT", message: "more than one CRITICAL"},
		{name: "update: window no longer divides a term", query: staticUpdate, vars: map[string]any{"a": acctOne, "id": "6101",
			"c": map[string]any{"signal": map[string]any{"aggregationWindow": 120}}},
			class: "INVALID_INPUT", message: "multiple of the aggregation window"},
		{name: "delete: unknown condition", query: conditionDelete, vars: map[string]any{"a": acctOne, "id": "6201"},
			class: "NOT_FOUND", message: "Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out map[string]any
			errs := h.query(t, keyOne, tt.query, tt.vars, &out)
			if !hasError(errs, tt.class, tt.message) {
				t.Errorf("errors %+v, want %s containing %q", errs, tt.class, tt.message)
			}
			for k, v := range out {
				if v != nil {
					t.Errorf("%s answered %v", k, v)
				}
			}
		})
	}
	if got := h.allIDs(t, condSearchQuery, keyOne, acctOne, nil); len(got) != 8 {
		t.Errorf("account one has %d conditions after refused writes", len(got))
	}
	if c, _ := h.getCond(t, keyOne, acctOne, "6101"); c == nil || c.Name != "High error rate" || *c.Signal.AggregationWindow != 60 {
		t.Errorf("6101 changed: %+v", c)
	}
}

func TestPolicyDeleteDropsConditions(t *testing.T) {
	h := demoHarness(t)
	h.mustQuery(t, keyOne, policyDelete, map[string]any{"a": acctOne, "id": "1001"}, nil)
	if got := h.allIDs(t, condSearchQuery, keyOne, acctOne, nil); !slices.Equal(got, ids(6104, 6105, 6106, 6107, 6108)) {
		t.Errorf("NRQL conditions after deleting policy 1001: %v", got)
	}
	if got := h.allIDs(t, asSearchQuery, keyOne, acctOne, map[string]any{"sourceProduct": []any{"BROWSER", "MOBILE"}}); len(got) != 0 {
		t.Errorf("legacy conditions of policy 1001 survived: %v", got)
	}
	if c, errs := h.getCond(t, keyOne, acctOne, "6101"); c != nil || !hasError(errs, "NOT_FOUND", "") {
		t.Errorf("6101 after its policy was deleted: %+v %+v", c, errs)
	}
	// The policy's conditions do not block creating in another policy.
	if _, errs := h.mutateCond(t, staticCreate, keyOne, map[string]any{"a": acctOne, "p": "1005", "c": staticInput("Crashes", 3)}); len(errs) > 0 {
		t.Errorf("create after policy delete: %+v", errs)
	}
}

// Concurrent readers and writers (run with -race): every write is whole, ids unique.
func TestConditionsConcurrent(t *testing.T) {
	h := demoHarness(t)
	const writers, perWriter = 4, 5
	var wg sync.WaitGroup
	created := make(chan string, writers*perWriter)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				c, errs := h.mutateCond(t, staticCreate, keyOne, map[string]any{"a": acctOne, "p": "1003", "c": staticInput(fmt.Sprintf("w%d-%d", w, i), float64(i))})
				if len(errs) > 0 || c == nil {
					t.Errorf("create: %+v", errs)
					return
				}
				created <- c.ID
				if _, errs := h.mutateCond(t, staticUpdate, keyOne, map[string]any{"a": acctOne, "id": c.ID, "c": map[string]any{"enabled": false}}); len(errs) > 0 {
					t.Errorf("update: %+v", errs)
				}
			}
		}()
	}
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 8 {
				p, errs := h.condSearch(t, condSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1003"}, nil)
				if len(errs) > 0 || p.TotalCount != len(p.NrqlConditions) || p.TotalCount < 3 {
					t.Errorf("search: %d of %d, %+v", len(p.NrqlConditions), p.TotalCount, errs)
				}
			}
		}()
	}
	wg.Wait()
	close(created)
	seen := map[string]bool{}
	for id := range created {
		if seen[id] {
			t.Errorf("id %s handed out twice", id)
		}
		seen[id] = true
	}
	if got := h.allIDs(t, condSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1003"}); len(got) != 3+writers*perWriter {
		t.Errorf("policy 1003 has %d conditions, want %d", len(got), 3+writers*perWriter)
	}
}

func TestConditionDataValidation(t *testing.T) {
	base := func() *sim.Data {
		d, err := sim.ParseData(configs.DemoData())
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		name   string
		change func(a *sim.Account)
		want   string
	}{
		{name: "duplicate id across kinds", change: func(a *sim.Account) { a.LegacyConditions[0].ID = 6101 }, want: "legacyConditions[0].id: 6101 already used"},
		{name: "unknown policy", change: func(a *sim.Account) { a.NrqlConditions[0].PolicyID = 2001 }, want: "nrqlConditions[0].policyId: no policy 2001"},
		{name: "bad type", change: func(a *sim.Account) { a.NrqlConditions[0].Type = "OUTLIER" }, want: "nrqlConditions[0].type"},
		{name: "baseline without direction", change: func(a *sim.Account) { a.NrqlConditions[1].BaselineDirection = "" }, want: "nrqlConditions[1].baselineDirection"},
		{name: "baseline operator", change: func(a *sim.Account) { a.NrqlConditions[1].Terms[0].Operator = "BELOW" }, want: "nrqlConditions[1].terms[0].operator"},
		{name: "legacy product", change: func(a *sim.Account) { a.LegacyConditions[0].SourceProduct = "NRQL" }, want: "legacyConditions[0].sourceProduct"},
		{name: "data account", change: func(a *sim.Account) { a.NrqlConditions[0].Nrql.DataAccountID = 42 }, want: "nrql.dataAccountId: no account 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := base()
			tt.change(&d.Accounts[0])
			err := d.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}
