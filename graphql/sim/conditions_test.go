package sim_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/graphql/sim"
)

// condFragment selects what the tests read of an NRQL condition.
const condFragment = `
fragment C on AlertsNrqlCondition {
  __typename id name enabled description runbookUrl titleTemplate type policyId entityGuid
  violationTimeLimitSeconds createdAt updatedAt
  nrql { query dataAccountId }
  signal { aggregationWindow aggregationMethod aggregationDelay aggregationTimer fillOption fillValue slideBy }
  expiration { expirationDuration openViolationOnExpiration closeViolationsOnExpiration ignoreOnExpectedTermination }
  terms { priority operator threshold thresholdDuration thresholdOccurrences disableHealthStatusReporting }
  ... on AlertsNrqlBaselineCondition { baselineDirection signalSeasonality }
}`

// asFragment selects what the tests read of a condition in NRQL form.
const asFragment = `
fragment A on AlertsAsNrqlCondition {
  __typename id name enabled runbookUrl type policyId sourceProduct entityGuid violationTimeLimitSeconds
  nrql { query }
  terms { priority operator threshold thresholdDuration thresholdOccurrences }
  ... on AlertsAsNrqlBaselineCondition { baselineDirection }
}`

const (
	condSearchQuery = `query($a: Int!, $c: AlertsNrqlConditionsSearchCriteriaInput, $cur: String) { actor { account(id: $a) { alerts {
  nrqlConditionsSearch(searchCriteria: $c, cursor: $cur) { nextCursor totalCount nrqlConditions { ...C } } } } } }` + condFragment
	asSearchQuery = `query($a: Int!, $c: AlertsAsNrqlConditionsSearchCriteriaInput, $cur: String) { actor { account(id: $a) { alerts {
  asNrqlConditionsSearch(searchCriteria: $c, cursor: $cur) { nextCursor totalCount nrqlConditions { ...A } } } } } }` + asFragment
	getQuery = `query($a: Int!, $id: ID!) { actor { account(id: $a) { alerts { nrqlCondition(id: $id) { ...C } } } } }` + condFragment

	staticCreate = `mutation($a: Int!, $p: ID!, $c: AlertsNrqlConditionStaticInput!) {
  alertsNrqlConditionStaticCreate(accountId: $a, policyId: $p, condition: $c) { ...C } }` + condFragment
	baselineCreate = `mutation($a: Int!, $p: ID!, $c: AlertsNrqlConditionBaselineInput!) {
  alertsNrqlConditionBaselineCreate(accountId: $a, policyId: $p, condition: $c) { ...C } }` + condFragment
	staticUpdate = `mutation($a: Int!, $id: ID!, $c: AlertsNrqlConditionUpdateStaticInput!) {
  alertsNrqlConditionStaticUpdate(accountId: $a, id: $id, condition: $c) { ...C } }` + condFragment
	baselineUpdate = `mutation($a: Int!, $id: ID!, $c: AlertsNrqlConditionUpdateBaselineInput!) {
  alertsNrqlConditionBaselineUpdate(accountId: $a, id: $id, condition: $c) { ...C } }` + condFragment
	conditionDelete = `mutation($a: Int!, $id: ID!) { alertsConditionDelete(accountId: $a, id: $id) { id } }`
	policyDelete    = `mutation($a: Int!, $id: ID!) { alertsPolicyDelete(accountId: $a, id: $id) { id } }`
)

type condTerm struct {
	Priority, Operator           string
	Threshold, ThresholdDuration float64
	ThresholdOccurrences         string
	DisableHealthStatusReporting *bool
}

type cond struct {
	Typename                             string `json:"__typename"`
	ID, Name, Type, PolicyID             string
	Enabled                              bool
	Description, RunbookURL              *string
	TitleTemplate                        *string
	EntityGUID                           string
	ViolationTimeLimitSeconds            *float64
	CreatedAt, UpdatedAt                 *int64
	SourceProduct                        string
	BaselineDirection, SignalSeasonality *string
	Nrql                                 struct {
		Query         string
		DataAccountID *int
	}
	Signal struct {
		AggregationWindow, AggregationDelay, AggregationTimer *float64
		AggregationMethod, FillOption                         *string
		FillValue, SlideBy                                    *float64
	}
	Expiration struct {
		ExpirationDuration                                                                  *float64
		OpenViolationOnExpiration, CloseViolationsOnExpiration, IgnoreOnExpectedTermination *bool
	}
	Terms []condTerm
}

type condPage struct {
	NextCursor     *string
	TotalCount     int
	NrqlConditions []cond
}

func (c cond) idInt(t testing.TB) int {
	t.Helper()
	n, err := strconv.Atoi(c.ID)
	if err != nil {
		t.Fatalf("condition id %q: %v", c.ID, err)
	}
	return n
}

// search runs one nrqlConditionsSearch (or asNrqlConditionsSearch) page.
func (h *harness) condSearch(t testing.TB, q, key string, acct int, crit map[string]any, cursor *string) (condPage, []gqlErr) {
	t.Helper()
	var out struct {
		Actor struct {
			Account *struct {
				Alerts struct {
					NrqlConditionsSearch   *condPage
					AsNrqlConditionsSearch *condPage
				}
			}
		}
	}
	vars := map[string]any{"a": acct, "c": crit}
	if cursor != nil {
		vars["cur"] = *cursor
	}
	errs := h.query(t, key, q, vars, &out)
	if out.Actor.Account == nil {
		return condPage{}, errs
	}
	if p := out.Actor.Account.Alerts.NrqlConditionsSearch; p != nil {
		return *p, errs
	}
	if p := out.Actor.Account.Alerts.AsNrqlConditionsSearch; p != nil {
		return *p, errs
	}
	return condPage{}, errs
}

// allIDs follows nextCursor to the end and returns every id, in order, checking that
// every page agrees on totalCount.
func (h *harness) allIDs(t testing.TB, q, key string, acct int, crit map[string]any) []string {
	t.Helper()
	var ids []string
	var cursor *string
	for pages := 0; ; pages++ {
		if pages > 50 {
			t.Fatal("more than 50 pages")
		}
		p, errs := h.condSearch(t, q, key, acct, crit, cursor)
		if len(errs) > 0 {
			t.Fatalf("errors %+v", errs)
		}
		for _, c := range p.NrqlConditions {
			ids = append(ids, c.ID)
		}
		if p.NextCursor == nil {
			if p.TotalCount != len(ids) {
				t.Fatalf("totalCount %d, got %d conditions", p.TotalCount, len(ids))
			}
			return ids
		}
		cursor = p.NextCursor
	}
}

func (h *harness) getCond(t testing.TB, key string, acct int, id string) (*cond, []gqlErr) {
	t.Helper()
	var out struct {
		Actor struct {
			Account *struct{ Alerts struct{ NrqlCondition *cond } }
		}
	}
	errs := h.query(t, key, getQuery, map[string]any{"a": acct, "id": id}, &out)
	if out.Actor.Account == nil {
		return nil, errs
	}
	return out.Actor.Account.Alerts.NrqlCondition, errs
}

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

func ids(cs ...int) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, strconv.Itoa(c))
	}
	return out
}

func TestNrqlConditionsSearch(t *testing.T) {
	h := demoHarness(t)
	tests := []struct {
		name string
		key  string
		acct int
		crit map[string]any
		want []string
	}{
		{name: "all of account one", key: keyOne, acct: acctOne, want: ids(6101, 6102, 6103, 6104, 6105, 6106, 6107, 6108)},
		{name: "policy 1001", key: keyOne, acct: acctOne, crit: map[string]any{"policyId": "1001"}, want: ids(6101, 6102, 6103)},
		{name: "policy 1003 (one disabled)", key: keyOne, acct: acctOne, crit: map[string]any{"policyId": "1003"}, want: ids(6106, 6107, 6108)},
		{name: "legacy-only policy", key: keyOne, acct: acctOne, crit: map[string]any{"policyId": "1004"}, want: nil},
		{name: "unknown policy", key: keyOne, acct: acctOne, crit: map[string]any{"policyId": "2001"}, want: nil},
		{name: "name exact ignoring case", key: keyOne, acct: acctOne, crit: map[string]any{"name": "HIGH error rate"}, want: ids(6101)},
		{name: "name with quotes", key: keyOne, acct: acctOne, crit: map[string]any{"name": `O'Reilly "Books" response time`}, want: ids(6103)},
		{name: "name is not a substring match", key: keyOne, acct: acctOne, crit: map[string]any{"name": "error"}, want: nil},
		{name: "nameLike unicode", key: keyOne, acct: acctOne, crit: map[string]any{"nameLike": "ÜNÏCODE"}, want: ids(6105)},
		{name: "nameLike with policy", key: keyOne, acct: acctOne, crit: map[string]any{"nameLike": "e", "policyId": "1002"}, want: ids(6104, 6105)},
		{name: "queryLike", key: keyOne, acct: acctOne, crit: map[string]any{"queryLike": "appname = 'CHECKOUT-SERVICE'"}, want: ids(6101, 6104)},
		{name: "query exact", key: keyOne, acct: acctOne,
			crit: map[string]any{"query": "SELECT apdex(duration, t: 0.5) FROM Transaction WHERE appName = 'checkout-service'"}, want: ids(6104)},
		{name: "termsOperator", key: keyOne, acct: acctOne, crit: map[string]any{"termsOperator": "BELOW"}, want: ids(6104)},
		{name: "account two", key: keyTwo, acct: acctTwo, want: ids(6201, 6202)},
		{name: "account two with the multi key", key: keyMulti, acct: acctTwo, crit: map[string]any{"policyId": "2001"}, want: ids(6201, 6202)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := h.allIDs(t, condSearchQuery, tt.key, tt.acct, tt.crit); !slices.Equal(got, tt.want) {
				t.Errorf("ids %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNrqlConditionFields(t *testing.T) {
	h := demoHarness(t)
	p, errs := h.condSearch(t, condSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1001"}, nil)
	if len(errs) > 0 || len(p.NrqlConditions) != 3 || p.NextCursor != nil || p.TotalCount != 3 {
		t.Fatalf("page %+v errors %+v", p, errs)
	}
	static, baseline, quoted := p.NrqlConditions[0], p.NrqlConditions[1], p.NrqlConditions[2]
	if static.Typename != "AlertsNrqlStaticCondition" || static.Type != "STATIC" || static.PolicyID != "1001" || !static.Enabled ||
		static.EntityGUID != guid(acctOne, "AIOPS", "CONDITION", 6101) || *static.ViolationTimeLimitSeconds != 86400 ||
		*static.RunbookURL != "https://runbooks.example.com/checkout/errors" || static.TitleTemplate != nil ||
		*static.CreatedAt != 1772446500000 || len(static.Terms) != 2 || static.Terms[1].Priority != "WARNING" ||
		static.Terms[0].Threshold != 5 || static.Terms[0].ThresholdDuration != 300 || *static.Terms[0].DisableHealthStatusReporting {
		t.Errorf("static condition %+v", static)
	}
	if e := static.Expiration; *e.ExpirationDuration != 600 || !*e.CloseViolationsOnExpiration || *e.OpenViolationOnExpiration {
		t.Errorf("expiration %+v", e)
	}
	if baseline.Typename != "AlertsNrqlBaselineCondition" || baseline.Type != "BASELINE" || *baseline.BaselineDirection != "UPPER_AND_LOWER" ||
		*baseline.SignalSeasonality != "DAILY" || baseline.Description != nil {
		t.Errorf("baseline condition %+v", baseline)
	}
	if quoted.Name != `O'Reilly "Books" response time` || quoted.Nrql.Query != `SELECT average(duration) FROM Transaction WHERE appName = 'O\'Reilly Books'` ||
		*quoted.ViolationTimeLimitSeconds != 259200 || *quoted.Signal.AggregationDelay != 180 || *quoted.Signal.FillOption != "LAST_VALUE" {
		t.Errorf("quoted condition %+v", quoted)
	}

	// Signal defaults and the EVENT_TIMER variant.
	c, errs := h.getCond(t, keyOne, acctOne, "6104")
	if len(errs) > 0 || c == nil {
		t.Fatalf("6104: %+v", errs)
	}
	if s := c.Signal; *s.AggregationWindow != 60 || *s.AggregationMethod != "EVENT_FLOW" || *s.AggregationDelay != 120 ||
		s.AggregationTimer != nil || *s.FillOption != "NONE" || s.FillValue != nil {
		t.Errorf("default signal %+v", s)
	}
	if e := c.Expiration; e.ExpirationDuration != nil || *e.OpenViolationOnExpiration || *e.CloseViolationsOnExpiration || *e.IgnoreOnExpectedTermination {
		t.Errorf("default expiration %+v", e)
	}
	c, _ = h.getCond(t, keyOne, acctOne, "6106")
	if c == nil || c.Enabled || *c.Signal.AggregationMethod != "EVENT_TIMER" || *c.Signal.AggregationTimer != 90 || c.Signal.AggregationDelay != nil {
		t.Errorf("6106 %+v", c)
	}
	c, _ = h.getCond(t, keyOne, acctOne, "6105")
	if c == nil || c.Name != "Café Ünïcode — errors ☕" || *c.Signal.FillOption != "STATIC" || *c.Signal.FillValue != 0 {
		t.Errorf("6105 %+v", c)
	}
}

func TestNrqlConditionNotFound(t *testing.T) {
	h := demoHarness(t)
	for _, id := range []string{"999999", "6301", "6201", "abc"} { // unknown, legacy, other account's, not a number
		c, errs := h.getCond(t, keyMulti, acctOne, id)
		if c != nil || !hasError(errs, "NOT_FOUND", "Not Found") {
			t.Errorf("%s: condition %+v errors %+v", id, c, errs)
		}
	}
}

func TestAsNrqlConditionsSearch(t *testing.T) {
	h := demoHarness(t)
	legacyProducts := []any{"APM", "BROWSER", "MOBILE", "SERVERS"}
	tests := []struct {
		name string
		crit map[string]any
		want []string
	}{
		{name: "everything", want: ids(6101, 6102, 6103, 6104, 6105, 6106, 6107, 6108, 6301, 6302, 6303, 6304, 6305)},
		{name: "policy 1001", crit: map[string]any{"policyId": "1001"}, want: ids(6101, 6102, 6103, 6303, 6304)},
		{name: "legacy products of policy 1004", crit: map[string]any{"policyId": "1004", "sourceProduct": legacyProducts}, want: ids(6301, 6302)},
		{name: "infrastructure", crit: map[string]any{"sourceProduct": []any{"INFRASTRUCTURE"}}, want: ids(6305)},
		{name: "nrql only", crit: map[string]any{"sourceProduct": []any{"NRQL"}, "policyId": "1002"}, want: ids(6104, 6105)},
		{name: "nameLike", crit: map[string]any{"nameLike": "apdex"}, want: ids(6104, 6301)},
		{name: "name", crit: map[string]any{"name": "page load time"}, want: ids(6303)},
		{name: "termsOperator", crit: map[string]any{"termsOperator": "BELOW"}, want: ids(6104, 6301)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := h.allIDs(t, asSearchQuery, keyOne, acctOne, tt.crit); !slices.Equal(got, tt.want) {
				t.Errorf("ids %v, want %v", got, tt.want)
			}
		})
	}
	p, errs := h.condSearch(t, asSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1004"}, nil)
	if len(errs) > 0 || len(p.NrqlConditions) != 3 {
		t.Fatalf("page %+v errors %+v", p, errs)
	}
	apdex := p.NrqlConditions[0]
	if apdex.Typename != "AlertsAsNrqlStaticCondition" || apdex.SourceProduct != "APM" || apdex.Name != "Apdex (Low)" || apdex.Type != "STATIC" ||
		*apdex.ViolationTimeLimitSeconds != 86400 || len(apdex.Terms) != 2 || apdex.Terms[0].Operator != "BELOW" || apdex.Terms[0].Threshold != 0.7 ||
		apdex.Terms[1].Priority != "WARNING" || apdex.EntityGUID != guid(acctOne, "AIOPS", "CONDITION", 6301) || *apdex.RunbookURL == "" {
		t.Errorf("legacy condition %+v", apdex)
	}
	if p.NrqlConditions[1].Enabled {
		t.Errorf("6302 should be disabled: %+v", p.NrqlConditions[1])
	}
	p, _ = h.condSearch(t, asSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1001", "sourceProduct": []any{"NRQL"}}, nil)
	if len(p.NrqlConditions) != 3 || p.NrqlConditions[1].Typename != "AlertsAsNrqlBaselineCondition" || *p.NrqlConditions[1].BaselineDirection != "UPPER_AND_LOWER" ||
		p.NrqlConditions[1].SourceProduct != "NRQL" {
		t.Errorf("NRQL conditions in NRQL form %+v", p.NrqlConditions)
	}
}

// manyConditions is the demo data with n more static conditions in policy 1002 of
// account one (ids 10001...).
func manyConditions(t *testing.T, n int) *sim.Data {
	t.Helper()
	d, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	a := &d.Accounts[0]
	if a.ID != acctOne {
		t.Fatalf("first account %d", a.ID)
	}
	for i := range n {
		a.NrqlConditions = append(a.NrqlConditions, sim.NrqlCondition{ID: 10001 + i, PolicyID: 1002, Name: fmt.Sprintf("Generated %03d", i),
			Type: "STATIC", Enabled: i%2 == 0, Nrql: sim.NrqlQuery{Query: "SELECT count(*) FROM Transaction"},
			Terms: []sim.NrqlTerm{{Priority: "CRITICAL", Operator: "ABOVE", Threshold: float64(i), ThresholdDuration: 300, ThresholdOccurrences: "ALL"}}})
		if i%3 == 0 {
			a.LegacyConditions = append(a.LegacyConditions, sim.LegacyCondition{SourceProduct: "APM", NrqlCondition: sim.NrqlCondition{ID: 20001 + i,
				PolicyID: 1004, Name: fmt.Sprintf("Legacy %03d", i), Type: "STATIC", Enabled: true, Nrql: sim.NrqlQuery{Query: "SELECT 1 FROM Metric"},
				Terms: []sim.NrqlTerm{{Priority: "CRITICAL", Operator: "ABOVE", Threshold: 1, ThresholdDuration: 60, ThresholdOccurrences: "ALL"}}}})
		}
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestNrqlConditionsPaging(t *testing.T) {
	h := newHarness(t, manyConditions(t, 240))
	// Policy 1002: 6104, 6105 and the 240 generated ones, 100 a page.
	var sizes []int
	var all []string
	var cursor *string
	for {
		p, errs := h.condSearch(t, condSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1002"}, cursor)
		if len(errs) > 0 {
			t.Fatalf("errors %+v", errs)
		}
		if p.TotalCount != 242 {
			t.Fatalf("totalCount %d, want 242", p.TotalCount)
		}
		sizes = append(sizes, len(p.NrqlConditions))
		for _, c := range p.NrqlConditions {
			all = append(all, c.ID)
		}
		if cursor = p.NextCursor; cursor == nil {
			break
		}
	}
	if !slices.Equal(sizes, []int{100, 100, 42}) {
		t.Errorf("page sizes %v, want [100 100 42]", sizes)
	}
	if len(all) != 242 || all[0] != "6104" || all[1] != "6105" || all[2] != "10001" || all[241] != "10240" {
		t.Errorf("ids %v...%v", all[:3], all[len(all)-1])
	}
	if !slices.IsSortedFunc(all, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y }) {
		t.Error("ids not in order")
	}
	if got := h.allIDs(t, condSearchQuery, keyOne, acctOne, nil); len(got) != 248 {
		t.Errorf("account one has %d NRQL conditions, want 248", len(got))
	}
	// asNrqlConditionsSearch pages the same way: 248 NRQL + 5 + 80 legacy.
	if got := h.allIDs(t, asSearchQuery, keyOne, acctOne, nil); len(got) != 333 {
		t.Errorf("asNrqlConditionsSearch found %d, want 333", len(got))
	}

	// Cursors are per search kind and must decode.
	p, _ := h.condSearch(t, condSearchQuery, keyOne, acctOne, nil, nil)
	for _, bad := range []string{"garbage", "bm9wZTox", *p.NextCursor} {
		_, errs := h.condSearch(t, asSearchQuery, keyOne, acctOne, nil, &bad)
		if !hasError(errs, "INVALID_INPUT", "Invalid cursor") {
			t.Errorf("cursor %q: errors %+v", bad, errs)
		}
	}
	// A cursor past the end is an empty page.
	p, _ = h.condSearch(t, condSearchQuery, keyOne, acctOne, map[string]any{"policyId": "1001"}, p.NextCursor)
	if len(p.NrqlConditions) != 0 || p.NextCursor != nil || p.TotalCount != 3 {
		t.Errorf("past the end: %+v", p)
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
