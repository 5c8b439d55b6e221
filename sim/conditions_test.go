package sim_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
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
