package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// The NRQL condition writes (CreateNrqlCondition, UpdateNrqlCondition,
// DeleteNrqlCondition, nrqlCondition, conditionWriteError). NerdGraph is opFake; a
// condition is nrqlCond's NrqlConditionFields answer (conditions_test.go).

// condWriteFake answers the condition operations: the read of condition 5 (static, or
// baseline, of policy 9; missing), and each mutation with the condition it was sent.
type condWriteFake struct {
	*opFake
	baseline bool
	missing  bool
	fail     error // the mutations' error
	null     bool  // the mutations answer null
}

func newCondWriteFake() *condWriteFake {
	w := &condWriteFake{opFake: &opFake{}}
	w.answer = func(op string, vars map[string]any) (any, error) {
		cond := func(id string) map[string]any {
			c := nrqlCond(5, "9", map[string]any{"id": id})
			if w.baseline {
				c["__typename"], c["type"], c["baselineDirection"] = "AlertsNrqlBaselineCondition", "BASELINE", "UPPER_ONLY"
			}
			if in, ok := vars["condition"].(map[string]any); ok {
				if n, ok := in["name"].(string); ok {
					c["name"] = n
				}
			}
			return c
		}
		if op == "NrqlCondition" {
			var c any
			if !w.missing {
				c = cond("5")
			}
			return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": map[string]any{"nrqlCondition": c}}}}, nil
		}
		if w.fail != nil {
			return nil, w.fail
		}
		field := map[string]string{"NrqlConditionStaticCreate": "alertsNrqlConditionStaticCreate", "NrqlConditionBaselineCreate": "alertsNrqlConditionBaselineCreate",
			"NrqlConditionStaticUpdate": "alertsNrqlConditionStaticUpdate", "NrqlConditionBaselineUpdate": "alertsNrqlConditionBaselineUpdate",
			"ConditionDelete": "alertsConditionDelete"}[op]
		if field == "" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		if w.null {
			return map[string]any{field: nil}, nil
		}
		if op == "ConditionDelete" {
			return map[string]any{field: map[string]any{"id": vars["id"]}}, nil
		}
		id := "5"
		if strings.Contains(op, "Create") {
			id = "77"
		}
		return map[string]any{field: cond(id)}, nil
	}
	return w
}

func condInput() restv2.NrqlConditionInput {
	return restv2.NrqlConditionInput{Name: sp("high"), Query: sp("SELECT count(*) FROM Transaction"),
		Terms: []restv2.TermInput{{Duration: sp("5"), Operator: sp("above"), Priority: sp("critical"), Threshold: sp("0.9"), TimeFunction: sp("all")}}}
}

func lastVars(f *opFake, key string) string {
	b, _ := json.Marshal(f.calls[len(f.calls)-1].vars[key])
	return string(b)
}

// A static or baseline condition is created once with REST's defaults (enabled true;
// baseline direction UPPER_ONLY); type, name, query and terms are required, and refused
// bodies send nothing; an error or a null answer per type is an unknown outcome.
func TestCreateNrqlCondition(t *testing.T) {
	c := Caller{AccountID: 1}
	w := newCondWriteFake()
	tr := New(w, Options{})
	show, err := tr.CreateNrqlCondition(context.Background(), c, 9, condInput())
	if err != nil || show.Condition.ID != 77 || w.count("NrqlConditionStaticCreate") != 1 {
		t.Fatalf("static: %+v, %v", show, err)
	}
	if v := lastVars(w.opFake, "condition"); !strings.Contains(v, `"enabled":true`) || !strings.Contains(v, `"name":"high"`) ||
		!strings.Contains(v, `"query":"SELECT count(*) FROM Transaction"`) || !strings.Contains(v, `"threshold":0.9`) {
		t.Errorf("static condition sent %s", v)
	}
	if w.calls[0].vars["policyId"] != "9" || w.calls[0].vars["accountId"] != 1.0 {
		t.Errorf("sent to %v", w.calls[0].vars)
	}
	in := condInput()
	in.Type, in.Enabled = sp("baseline"), bptr(false)
	if _, err := tr.CreateNrqlCondition(context.Background(), c, 9, in); err != nil || w.count("NrqlConditionBaselineCreate") != 1 {
		t.Fatalf("baseline: %v", err)
	}
	if v := lastVars(w.opFake, "condition"); !strings.Contains(v, `"baselineDirection":"UPPER_ONLY"`) || !strings.Contains(v, `"enabled":false`) {
		t.Errorf("baseline condition sent %s", v)
	}
	in.BaselineDirection = sp("lower_only")
	if _, err := tr.CreateNrqlCondition(context.Background(), c, 9, in); err != nil || !strings.Contains(lastVars(w.opFake, "condition"), `"baselineDirection":"LOWER_ONLY"`) {
		t.Errorf("direction: %v, %s", err, lastVars(w.opFake, "condition"))
	}
	sent := w.count("")
	var ve *restv2.Error
	for name, mod := range map[string]func(*restv2.NrqlConditionInput){
		"outlier":    func(in *restv2.NrqlConditionInput) { in.Type = sp("outlier") },
		"no name":    func(in *restv2.NrqlConditionInput) { in.Name = sp(" ") },
		"no query":   func(in *restv2.NrqlConditionInput) { in.Query = nil },
		"no terms":   func(in *restv2.NrqlConditionInput) { in.Terms = nil },
		"bad signal": func(in *restv2.NrqlConditionInput) { in.Signal = &restv2.SignalInput{AggregationWindow: sp("0")} },
	} {
		in := condInput()
		mod(&in)
		if _, err := tr.CreateNrqlCondition(context.Background(), c, 9, in); !errors.As(err, &ve) || ve.Status != 422 {
			t.Errorf("%s: %v, want 422", name, err)
		}
	}
	if w.count("") != sent {
		t.Errorf("refused bodies sent %d calls", w.count("")-sent)
	}
	for _, baseline := range []bool{false, true} {
		in := condInput()
		if baseline {
			in.Type = sp("baseline")
		}
		for _, tt := range []struct {
			name   string
			fail   error
			null   bool
			status int
		}{
			{"null", nil, true, 502},
			{"policy not found", &ng.Error{Kind: ng.KindNotFound}, false, 404},
			{"timeout", &ng.Error{Kind: ng.KindTimeout}, false, 504},
		} {
			w.fail, w.null = tt.fail, tt.null
			_, err := tr.CreateNrqlCondition(context.Background(), c, 9, in)
			if !errors.As(err, &ve) || ve.Status != tt.status {
				t.Errorf("baseline %v, %s: %v, want %d", baseline, tt.name, err, tt.status)
			}
			if tt.status == 404 && ve.Title != errPolicyNotFound().Title {
				t.Errorf("create on a missing policy: %q, want the policy's 404", ve.Title)
			}
		}
	}
}

// conditionWriteError and checkConditions: NOT_FOUND names the policy on create and the
// condition otherwise; a rejection is 422 with NerdGraph's first message; a delete's
// unknown outcome says "deletion"; the check path names the policy when known.
func TestConditionWriteError(t *testing.T) {
	var ve *restv2.Error
	for _, tt := range []struct {
		err    error
		op     string
		status int
		title  string
	}{
		{&ng.Error{Kind: ng.KindNotFound}, condCreate, 404, "Alerts policy"},
		{&ng.Error{Kind: ng.KindNotFound}, condUpdate, 404, ErrConditionNotFound().Title},
		{&ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "bad nrql"}, {Message: "x"}}}, condUpdate, 422, ""},
		{&ng.Error{Kind: ng.KindInvalid}, condUpdate, 422, ""}, // no message, no index out of range
		{&ng.Error{Kind: ng.KindTimeout}, "delete", 504, "NRQL condition deletion"},
		{&ng.Error{Kind: ng.KindServer, Status: 500}, condUpdate, 502, "policy_id=9"},
	} {
		got := conditionWriteError(tt.err, tt.op, 9)
		if !errors.As(got, &ve) || ve.Status != tt.status || !strings.Contains(ve.Title, tt.title) {
			t.Errorf("%v on %s: %v, want %d %q", tt.err, tt.op, got, tt.status, tt.title)
		}
	}
	if got := conditionWriteError(&ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "bad nrql"}}}, condUpdate, 9); !errors.As(got, &ve) ||
		strings.Join(ve.Messages, "|") != "bad nrql" && !strings.Contains(ve.Title, "bad nrql") {
		t.Errorf("rejection: %+v", ve)
	}
	plain := errors.New("x")
	if conditionWriteError(plain, condUpdate, 9) != plain {
		t.Error("a non-NerdGraph error was rewritten")
	}
	if checkConditions(0) != "GET /v2/alerts_nrql_conditions.json?policy_id=<policy>" || checkConditions(9) != "GET /v2/alerts_nrql_conditions.json?policy_id=9" {
		t.Errorf("checks %q %q", checkConditions(0), checkConditions(9))
	}
}

// An update sends only the fields given, by the condition's type: a blank name or query
// is refused; a body that names its type is not read first, else the read picks the
// mutation and the policy; terms only when sent; errors, nulls and unknown outcomes per
// type.
func TestUpdateNrqlCondition(t *testing.T) {
	c := Caller{AccountID: 1}
	var ve *restv2.Error
	t.Run("read picks the type", func(t *testing.T) {
		for _, baseline := range []bool{false, true} {
			w := newCondWriteFake()
			w.baseline = baseline
			show, err := New(w, Options{}).UpdateNrqlCondition(context.Background(), c, 5, restv2.NrqlConditionInput{Name: sp("renamed")})
			if err != nil || show.Condition.Name != "renamed" || w.count("NrqlCondition") != 1 {
				t.Fatalf("baseline %v: %+v, %v", baseline, show, err)
			}
			op := map[bool]string{false: "NrqlConditionStaticUpdate", true: "NrqlConditionBaselineUpdate"}[baseline]
			if w.count(op) != 1 || w.calls[1].vars["id"] != "5" {
				t.Errorf("baseline %v: sent %+v", baseline, w.calls)
			}
			if v := lastVars(w.opFake, "condition"); v != `{"name":"renamed"}` {
				t.Errorf("baseline %v: only the name should be sent, got %s", baseline, v)
			}
		}
	})
	t.Run("type given", func(t *testing.T) {
		w := newCondWriteFake()
		in := condInput()
		in.Type, in.Name, in.SinceValue = sp("static"), nil, sp("2")
		if _, err := New(w, Options{}).UpdateNrqlCondition(context.Background(), c, 5, in); err != nil {
			t.Fatal(err)
		}
		if w.count("NrqlCondition") != 0 || w.count("NrqlConditionStaticUpdate") != 1 {
			t.Fatalf("sent %+v", w.calls)
		}
		v := lastVars(w.opFake, "condition")
		if !strings.Contains(v, `"terms":[{`) || !strings.Contains(v, `"evaluationOffset":2`) || !strings.Contains(v, `"query":"SELECT count(*) FROM Transaction"`) || strings.Contains(v, `"name"`) {
			t.Errorf("sent %s", v)
		}
		w2 := newCondWriteFake()
		w2.baseline = true
		in.Type = sp("baseline")
		if _, err := New(w2, Options{}).UpdateNrqlCondition(context.Background(), c, 5, in); err != nil || w2.count("NrqlConditionBaselineUpdate") != 1 ||
			!strings.Contains(lastVars(w2.opFake, "condition"), `"terms":[{`) {
			t.Errorf("baseline terms: %v, %s", err, lastVars(w2.opFake, "condition"))
		}
	})
	t.Run("refusals and failures", func(t *testing.T) {
		w := newCondWriteFake()
		tr := New(w, Options{})
		for name, in := range map[string]restv2.NrqlConditionInput{
			"blank name":  {Name: sp("")},
			"blank query": {Query: sp(" ")},
			"bad type":    {Type: sp("outlier")},
			"bad terms":   {Terms: []restv2.TermInput{{}}},
		} {
			if _, err := tr.UpdateNrqlCondition(context.Background(), c, 5, in); !errors.As(err, &ve) || ve.Status != 422 {
				t.Errorf("%s: %v, want 422", name, err)
			}
		}
		if w.count("NrqlConditionStaticUpdate") != 0 {
			t.Errorf("a refused body was sent")
		}
		w.missing = true
		if _, err := tr.UpdateNrqlCondition(context.Background(), c, 5, restv2.NrqlConditionInput{Name: sp("x")}); !errors.As(err, &ve) || ve.Status != 404 || w.count("NrqlConditionStaticUpdate") != 0 {
			t.Errorf("missing: %v", err)
		}
		w.missing = false
		for _, baseline := range []bool{false, true} {
			w.baseline = baseline
			for _, tt := range []struct {
				fail   error
				null   bool
				status int
				title  string
			}{{nil, true, 502, "policy_id=9"}, {&ng.Error{Kind: ng.KindNotFound}, false, 404, "condition"}, {&ng.Error{Kind: ng.KindTimeout}, false, 504, "policy_id=9"}} {
				w.fail, w.null = tt.fail, tt.null
				_, err := tr.UpdateNrqlCondition(context.Background(), c, 5, restv2.NrqlConditionInput{Name: sp("x")})
				if !errors.As(err, &ve) || ve.Status != tt.status || !strings.Contains(ve.Title, tt.title) {
					t.Errorf("baseline %v, %v/%v: %v, want %d %q", baseline, tt.fail, tt.null, err, tt.status, tt.title)
				}
			}
		}
	})
}

// A delete reads the condition, deletes it once and answers it; a missing one is 404 and
// nothing is deleted; a failed read is an error.
func TestDeleteNrqlCondition(t *testing.T) {
	c := Caller{AccountID: 1}
	var ve *restv2.Error
	w := newCondWriteFake()
	tr := New(w, Options{})
	show, err := tr.DeleteNrqlCondition(context.Background(), c, 5)
	if err != nil || show.Condition.ID != 5 || w.count("ConditionDelete") != 1 || w.calls[1].vars["id"] != "5" {
		t.Fatalf("delete: %+v, %v, %+v", show, err, w.calls)
	}
	w.fail = &ng.Error{Kind: ng.KindTimeout}
	if _, err := tr.DeleteNrqlCondition(context.Background(), c, 5); !errors.As(err, &ve) || ve.Status != 504 || !strings.Contains(ve.Title, "policy_id=9") {
		t.Errorf("timeout: %v", err)
	}
	w.fail, w.missing = nil, true
	if _, err := tr.DeleteNrqlCondition(context.Background(), c, 5); !errors.As(err, &ve) || ve.Status != 404 || w.count("ConditionDelete") != 2 {
		t.Errorf("missing: %v, %d deletes", err, w.count("ConditionDelete"))
	}
	for _, tt := range []struct {
		name   string
		answer any
		err    error
		status int
	}{
		{"null alerts", map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": nil}}}, nil, 404},
		{"null account", map[string]any{"actor": map[string]any{"account": nil}}, nil, 404},
		{"not found", nil, &ng.Error{Kind: ng.KindNotFound}, 404},
		{"server", nil, &ng.Error{Kind: ng.KindServer, Status: 500}, 0},
	} {
		f := &opFake{}
		f.answer = func(string, map[string]any) (any, error) { return tt.answer, tt.err }
		_, err := New(f, Options{}).DeleteNrqlCondition(context.Background(), c, 5)
		status := 0
		if errors.As(err, &ve) {
			status = ve.Status
		}
		if err == nil || status != tt.status || f.count("ConditionDelete") != 0 {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestSignalStreamingSettings: REST's slide_by, aggregation_method, aggregation_delay
// and aggregation_timer are sent as NerdGraph's signal fields, and wrong ones are
// REST's 422 before anything is sent.
func TestSignalStreamingSettings(t *testing.T) {
	c := Caller{AccountID: 1}
	w := newCondWriteFake()
	tr := New(w, Options{})
	in := condInput()
	in.Signal = &restv2.SignalInput{AggregationWindow: sp("60"), SlideBy: sp("30"), AggregationMethod: sp("Event_Flow"), AggregationDelay: sp("0")}
	if _, err := tr.CreateNrqlCondition(context.Background(), c, 9, in); err != nil {
		t.Fatal(err)
	}
	if v := lastVars(w.opFake, "condition"); !strings.Contains(v, `"slideBy":30`) || !strings.Contains(v, `"aggregationMethod":"EVENT_FLOW"`) ||
		!strings.Contains(v, `"aggregationDelay":0`) || strings.Contains(v, "aggregationTimer") {
		t.Errorf("signal sent %s", v)
	}
	in.Signal = &restv2.SignalInput{AggregationMethod: sp("event_timer"), AggregationTimer: sp("45")}
	if _, err := tr.CreateNrqlCondition(context.Background(), c, 9, in); err != nil ||
		!strings.Contains(lastVars(w.opFake, "condition"), `"aggregationTimer":45`) {
		t.Errorf("timer: %v %s", err, lastVars(w.opFake, "condition"))
	}
	sent := w.count("")
	var ve *restv2.Error
	for _, s := range []restv2.SignalInput{
		{AggregationMethod: sp("sliding")},
		{SlideBy: sp("0")},
		{SlideBy: sp("x")},
		{AggregationDelay: sp("-1")},
		{AggregationDelay: sp("1.5")},
		{AggregationTimer: sp("2.5")},
	} {
		in.Signal = &s
		if _, err := tr.CreateNrqlCondition(context.Background(), c, 9, in); !errors.As(err, &ve) || ve.Status != 422 {
			t.Errorf("%+v: %v, want 422", s, err)
		}
	}
	if w.count("") != sent {
		t.Error("an invalid signal was sent")
	}
}
