package translate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// The alert policy routes and createError (browser.go). NerdGraph is opFake; answers
// follow the PolicyFields fragment (graphql/operations/alerts.graphql).

func policyJSON(id, name, pref string) map[string]any {
	return map[string]any{"id": id, "name": name, "incidentPreference": pref, "accountId": 1}
}

func policiesAnswer(next any, ps ...map[string]any) map[string]any {
	return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": map[string]any{
		"policiesSearch": map[string]any{"nextCursor": next, "totalCount": len(ps), "policies": ps}}}}}
}

// filter[name] is sent to NerdGraph and then matched with its exact case; every page of
// the search is read; a null alerts object is an empty list, not a failure; an error is
// an error.
func TestListPolicies(t *testing.T) {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "Policies" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		if vars["cursor"] == nil {
			return policiesAnswer("c2", policyJSON("1", "Ops", "PER_POLICY"), policyJSON("2", "ops", "PER_CONDITION")), nil
		}
		return policiesAnswer(nil, policyJSON("3", "Ops", "PER_CONDITION_AND_TARGET")), nil
	}
	tr := New(f, Options{})
	c := Caller{AccountID: 1}
	l, _, err := tr.ListPolicies(context.Background(), c, "Ops", 0)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(l.Policies) != fmt.Sprint([]restv2.Policy{{ID: 1, Name: "Ops", IncidentPreference: "PER_POLICY"}, {ID: 3, Name: "Ops", IncidentPreference: "PER_CONDITION_AND_TARGET"}}) {
		t.Errorf("filter[name]=Ops: %+v", l.Policies)
	}
	if crit := f.calls[0].vars["criteria"].(map[string]any); crit["name"] != "Ops" || f.count("Policies") != 2 || f.calls[1].vars["cursor"] != "c2" {
		t.Errorf("sent %+v", f.calls)
	}
	all, _, err := tr.ListPolicies(context.Background(), c, "", 1)
	if err != nil || len(all.Policies) != 3 {
		t.Fatalf("no filter: %+v, %v", all, err)
	}
	if _, ok := f.calls[2].vars["criteria"].(map[string]any)["name"]; ok {
		t.Errorf("no filter sent a name: %v", f.calls[2].vars)
	}
	f.answer = func(string, map[string]any) (any, error) {
		return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": nil}}}, nil
	}
	if l, _, err := tr.ListPolicies(context.Background(), c, "", 1); err != nil || len(l.Policies) != 0 {
		t.Errorf("null alerts: %+v, %v", l, err)
	}
	f.answer = func(string, map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }
	if _, _, err := tr.ListPolicies(context.Background(), c, "", 1); err == nil {
		t.Error("a failed read answered")
	}
}

// A policy is created once with REST's default PER_POLICY or the given preference; a bad
// body sends nothing (422); a null answer or a timeout may hide a created policy
// (502/504), a rejection is 422.
func TestCreatePolicy(t *testing.T) {
	var answer func(vars map[string]any) (any, error)
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "PolicyCreate" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		return answer(vars)
	}
	answer = func(vars map[string]any) (any, error) {
		p := vars["policy"].(map[string]any)
		return map[string]any{"alertsPolicyCreate": policyJSON("42", p["name"].(string), p["incidentPreference"].(string))}, nil
	}
	tr := New(f, Options{})
	c := Caller{AccountID: 1}
	name, pref, bad, blank := "Ops", "PER_CONDITION", "PER_HOST", "  "
	for _, tt := range []struct {
		in       restv2.PolicyInput
		wantPref string
	}{{restv2.PolicyInput{Name: &name}, "PER_POLICY"}, {restv2.PolicyInput{Name: &name, IncidentPreference: &pref}, "PER_CONDITION"}} {
		show, err := tr.CreatePolicy(context.Background(), c, tt.in)
		if err != nil || show.Policy != (restv2.Policy{ID: 42, Name: "Ops", IncidentPreference: tt.wantPref}) {
			t.Errorf("create %+v: %+v, %v", tt.in, show, err)
		}
	}
	if f.count("") != 2 || f.calls[0].vars["accountId"] != 1.0 {
		t.Fatalf("%d sent: %+v", f.count(""), f.calls)
	}
	var ve *restv2.Error
	for _, in := range []restv2.PolicyInput{{}, {Name: &blank}, {Name: &name, IncidentPreference: &bad}} {
		if _, err := tr.CreatePolicy(context.Background(), c, in); !errors.As(err, &ve) || ve.Status != 422 {
			t.Errorf("%+v: %v, want 422", in, err)
		}
	}
	if f.count("") != 2 {
		t.Errorf("a refused body was sent (%d calls)", f.count(""))
	}
	for _, tt := range []struct {
		name   string
		answer func(map[string]any) (any, error)
		status int
		title  string
	}{
		{"null answer", func(map[string]any) (any, error) { return map[string]any{"alertsPolicyCreate": nil}, nil }, 502, "may have been recorded"},
		{"timeout", func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindTimeout} }, 504, "filter[name]=Ops"},
		{"rejected", func(map[string]any) (any, error) {
			return nil, &ng.Error{Kind: ng.KindInvalid, Errors: []ng.GraphQLError{{Message: "name taken"}}}
		}, 422, "creating the policy"},
	} {
		answer = tt.answer
		_, err := tr.CreatePolicy(context.Background(), c, restv2.PolicyInput{Name: &name})
		if !errors.As(err, &ve) || ve.Status != tt.status || !strings.Contains(ve.Title, tt.title) {
			t.Errorf("%s: %v, want %d %q", tt.name, err, tt.status, tt.title)
		}
	}
}

// Only the fields given are sent; a blank name or unknown preference sends nothing;
// NOT_FOUND and a null answer are 404.
func TestUpdatePolicy(t *testing.T) {
	var answer func(vars map[string]any) (any, error)
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "PolicyUpdate" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		return answer(vars)
	}
	answer = func(vars map[string]any) (any, error) {
		p := vars["policy"].(map[string]any)
		name, _ := p["name"].(string)
		pref, _ := p["incidentPreference"].(string)
		return map[string]any{"alertsPolicyUpdate": policyJSON(vars["id"].(string), name+"|", pref+"|")}, nil
	}
	tr := New(f, Options{})
	c := Caller{AccountID: 1}
	name, pref, bad, blank := "New", "PER_CONDITION", "x", ""
	show, err := tr.UpdatePolicy(context.Background(), c, 9, restv2.PolicyInput{IncidentPreference: &pref})
	if err != nil || show.Policy != (restv2.Policy{ID: 9, Name: "|", IncidentPreference: "PER_CONDITION|"}) {
		t.Errorf("preference only: %+v, %v", show, err)
	}
	show, err = tr.UpdatePolicy(context.Background(), c, 9, restv2.PolicyInput{Name: &name})
	if err != nil || show.Policy.Name != "New|" || show.Policy.IncidentPreference != "|" {
		t.Errorf("name only: %+v, %v", show, err)
	}
	var ve *restv2.Error
	for _, in := range []restv2.PolicyInput{{Name: &blank}, {IncidentPreference: &bad}} {
		if _, err := tr.UpdatePolicy(context.Background(), c, 9, in); !errors.As(err, &ve) || ve.Status != 422 {
			t.Errorf("%+v: %v, want 422", in, err)
		}
	}
	if f.count("") != 2 {
		t.Errorf("%d sent, want 2", f.count(""))
	}
	for _, tt := range []struct {
		name   string
		answer func(map[string]any) (any, error)
		status int
	}{
		{"null answer", func(map[string]any) (any, error) { return map[string]any{"alertsPolicyUpdate": nil}, nil }, 404},
		{"not found", func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindNotFound} }, 404},
		{"timeout", func(map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindTimeout} }, 504},
	} {
		answer = tt.answer
		if _, err := tr.UpdatePolicy(context.Background(), c, 9, restv2.PolicyInput{Name: &name}); !errors.As(err, &ve) || ve.Status != tt.status {
			t.Errorf("%s: %v, want %d", tt.name, err, tt.status)
		}
	}
}

// DELETE reads the policy first and answers it; a missing policy is 404 and nothing is
// deleted; NOT_FOUND from the delete is 404; a timeout 504.
func TestDeletePolicy(t *testing.T) {
	var delErr error
	exists := true
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		switch op {
		case "Policy":
			var p any
			if exists {
				p = policyJSON(vars["id"].(string), "Ops", "PER_POLICY")
			}
			return map[string]any{"actor": map[string]any{"account": map[string]any{"alerts": map[string]any{"policy": p}}}}, nil
		case "PolicyDelete":
			if delErr != nil {
				return nil, delErr
			}
			return map[string]any{"alertsPolicyDelete": map[string]any{"id": vars["id"]}}, nil
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}
	tr := New(f, Options{})
	c := Caller{AccountID: 1}
	show, err := tr.DeletePolicy(context.Background(), c, 5)
	if err != nil || show.Policy != (restv2.Policy{ID: 5, Name: "Ops", IncidentPreference: "PER_POLICY"}) || f.count("PolicyDelete") != 1 {
		t.Fatalf("delete: %+v, %v", show, err)
	}
	var ve *restv2.Error
	for _, tt := range []struct {
		name   string
		exists bool
		err    error
		status int
	}{{"missing", false, nil, 404}, {"not found at delete", true, &ng.Error{Kind: ng.KindNotFound}, 404}, {"timeout", true, &ng.Error{Kind: ng.KindTimeout}, 504}} {
		exists, delErr = tt.exists, tt.err
		if _, err := tr.DeletePolicy(context.Background(), c, 5); !errors.As(err, &ve) || ve.Status != tt.status {
			t.Errorf("%s: %v, want %d", tt.name, err, tt.status)
		}
	}
	if f.count("PolicyDelete") != 3 {
		t.Errorf("%d deletes sent, want 3 (none for a missing policy)", f.count("PolicyDelete"))
	}
	f.answer = func(string, map[string]any) (any, error) { return nil, &ng.Error{Kind: ng.KindServer, Status: 500} }
	if _, err := tr.DeletePolicy(context.Background(), c, 5); err == nil {
		t.Error("a failed read answered")
	}
}
