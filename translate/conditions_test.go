package translate

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

func TestRestTerm(t *testing.T) {
	tests := []struct {
		op   ng.AlertsNrqlConditionTermsOperator
		occ  ng.AlertsNrqlConditionThresholdOccurrences
		secs float64
		thr  float64
		want restv2.Term
	}{
		{ng.AlertsNrqlConditionTermsOperatorAbove, ng.AlertsNrqlConditionThresholdOccurrencesAll, 300, 1,
			restv2.Term{Duration: "5", Operator: "above", Priority: "critical", Threshold: "1", TimeFunction: "all"}},
		{ng.AlertsNrqlConditionTermsOperatorEquals, ng.AlertsNrqlConditionThresholdOccurrencesAtLeastOnce, 90, 0.25,
			restv2.Term{Duration: "1.5", Operator: "equal", Priority: "critical", Threshold: "0.25", TimeFunction: "any"}},
		{ng.AlertsNrqlConditionTermsOperatorAboveOrEquals, ng.AlertsNrqlConditionThresholdOccurrencesAll, 3600, -2,
			restv2.Term{Duration: "60", Operator: "above_or_equals", Priority: "critical", Threshold: "-2", TimeFunction: "all"}},
	}
	for _, tt := range tests {
		if got := restTerm(tt.op, ng.AlertsNrqlConditionPriorityCritical, tt.thr, tt.secs, tt.occ); got != tt.want {
			t.Errorf("restTerm(%s, %v s) = %+v, want %+v", tt.op, tt.secs, got, tt.want)
		}
	}
}

// condPages answers NrqlConditions and AsNrqlConditions with conds, two per NerdGraph
// page (cursor "p<n>").
func condPages(conds []map[string]any) *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		k := 0
		if s, ok := vars["cursor"].(string); ok {
			k, _ = strconv.Atoi(s[1:])
		}
		lo, hi := min(2*k, len(conds)), min(2*k+2, len(conds))
		var next any
		if hi < len(conds) {
			next = "p" + strconv.Itoa(k+1)
		}
		search := map[string]any{"nextCursor": next, "totalCount": len(conds), "nrqlConditions": conds[lo:hi]}
		switch op {
		case "NrqlConditions":
			return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": map[string]any{"nrqlConditionsSearch": search}}}}, nil
		case "AsNrqlConditions":
			return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": map[string]any{"asNrqlConditionsSearch": search}}}}, nil
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	return f
}

func nrqlCond(id int, policy string, extra map[string]any) map[string]any {
	c := map[string]any{"__typename": "AlertsNrqlStaticCondition", "id": strconv.Itoa(id), "name": "c" + strconv.Itoa(id),
		"enabled": true, "type": "STATIC", "policyId": policy, "nrql": map[string]any{"query": "SELECT 1"},
		"signal": map[string]any{}, "expiration": map[string]any{}, "terms": []any{}}
	for k, v := range extra {
		c[k] = v
	}
	return c
}

func asCond(id int, product string, limit any) map[string]any {
	return map[string]any{"__typename": "AlertsAsNrqlStaticCondition", "id": strconv.Itoa(id), "name": "a" + strconv.Itoa(id), "enabled": false, "policyId": "9",
		"sourceProduct": product, "violationTimeLimitSeconds": limit,
		"terms": []any{map[string]any{"__typename": "AlertsNrqlConditionTerms", "operator": "BELOW", "priority": "WARNING", "threshold": 1.0, "thresholdDuration": 600.0, "thresholdOccurrences": "ALL"}}}
}

// nrqlConditionOf and restTerm render NerdGraph's condition in REST's shape.
func TestNrqlConditionShape(t *testing.T) {
	term := func(op, occ string, seconds float64) map[string]any {
		return map[string]any{"__typename": "AlertsNrqlConditionTerms", "operator": op, "priority": "CRITICAL", "threshold": 2.5, "thresholdDuration": seconds, "thresholdOccurrences": occ}
	}
	conds := []map[string]any{
		nrqlCond(1, "9", map[string]any{"__typename": "AlertsNrqlBaselineCondition", "type": "BASELINE", "baselineDirection": "UPPER_ONLY",
			"violationTimeLimitSeconds": 86400, "runbookUrl": "https://r",
			"signal":     map[string]any{"aggregationWindow": 60.0, "aggregationDelay": 180.0, "aggregationMethod": "CADENCE", "fillOption": "STATIC", "fillValue": 0.5},
			"expiration": map[string]any{"expirationDuration": 600.0, "openViolationOnExpiration": true},
			"terms":      []any{term("EQUALS", "AT_LEAST_ONCE", 300), term("ABOVE", "ALL", 90)}}),
		nrqlCond(2, "9", map[string]any{"signal": map[string]any{"aggregationWindow": 60.0, "aggregationDelay": 120.0, "aggregationMethod": "EVENT_FLOW"}}),
		nrqlCond(3, "9", map[string]any{"signal": map[string]any{"aggregationWindow": 0.0, "aggregationDelay": 120.0, "aggregationMethod": "CADENCE"}}),
		nrqlCond(4, "90", nil), // another policy: NerdGraph's filter is trusted but checked
		nrqlCond(5, "9", map[string]any{"signal": map[string]any{"fillValue": 0.0}, "expiration": map[string]any{"closeViolationsOnExpiration": true}}),
	}
	tr := New(condPages(conds), Options{})
	l, p, err := tr.ListNrqlConditions(context.Background(), Caller{AccountID: 1}, 9, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Conditions) != 4 || p != (Paging{Page: 1, Last: 1}) {
		t.Fatalf("%d conditions, %+v", len(l.Conditions), p)
	}
	c := l.Conditions[0]
	if c.ID != 1 || c.Type != "baseline" || c.BaselineDirection != "upper_only" || c.ViolationTimeLimitSeconds != 86400 ||
		c.SinceValue != "3" || c.RunbookURL != "https://r" || c.Signal == nil || c.Signal.EvaluationOffset != "3" ||
		c.Signal.AggregationWindow != "60" || c.Signal.FillOption != "static" || c.Signal.FillValue != "0.5" ||
		c.Expiration == nil || c.Expiration.ExpirationDuration != "600" || !c.Expiration.OpenViolationOnExpiration {
		t.Errorf("baseline condition %+v signal %+v expiration %+v", c, c.Signal, c.Expiration)
	}
	want := []restv2.Term{{Duration: "5", Operator: "equal", Priority: "critical", Threshold: "2.5", TimeFunction: "any"},
		{Duration: "1.5", Operator: "above", Priority: "critical", Threshold: "2.5", TimeFunction: "all"}}
	if fmt.Sprint(c.Terms) != fmt.Sprint(want) {
		t.Errorf("terms %+v, want %+v", c.Terms, want)
	}
	if c := l.Conditions[1]; c.SinceValue != "" || c.Signal == nil || c.Signal.EvaluationOffset != "" || c.Signal.AggregationWindow != "60" || c.Expiration != nil {
		t.Errorf("event flow: since %q signal %+v expiration %+v", c.SinceValue, c.Signal, c.Expiration)
	}
	if c := l.Conditions[2]; c.SinceValue != "" || c.Signal.AggregationWindow != "0" {
		t.Errorf("window 0: since %q signal %+v", c.SinceValue, c.Signal)
	}
	if c := l.Conditions[3]; c.ID != 5 || c.Signal == nil || c.Signal.FillValue != "0" || c.Expiration == nil || !c.Expiration.CloseViolationsOnExpiration {
		t.Errorf("fill value 0: %+v signal %+v expiration %+v", c, c.Signal, c.Expiration)
	}
	none := New(condPages([]map[string]any{nrqlCond(6, "9", nil)}), Options{})
	l, _, err = none.ListNrqlConditions(context.Background(), Caller{AccountID: 1}, 9, 1)
	if err != nil || l.Conditions[0].Signal != nil || l.Conditions[0].Expiration != nil || l.Conditions[0].Type != "static" {
		t.Errorf("no signal or expiration: %+v, %v", l.Conditions, err)
	}
}

// REST pages of 200 over NerdGraph's cursor pages.
func TestNrqlConditionPages(t *testing.T) {
	var conds []map[string]any
	for i := 1; i <= 201; i++ {
		conds = append(conds, nrqlCond(i, "9", nil))
	}
	f := condPages(conds)
	tr := New(f, Options{})
	l, p, err := tr.ListNrqlConditions(context.Background(), Caller{AccountID: 1}, 9, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Conditions) != 1 || l.Conditions[0].ID != 201 || p != (Paging{Page: 2, Last: 2}) {
		t.Fatalf("page 2: %+v %+v", l.Conditions, p)
	}
	if got := f.count("NrqlConditions"); got != 101 {
		t.Errorf("%d NerdGraph pages, want 101", got)
	}
	if fmt.Sprint(f.calls[0].vars["criteria"]) != "map[policyId:9]" {
		t.Errorf("criteria %v", f.calls[0].vars["criteria"])
	}
}
