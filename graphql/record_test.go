package graphql

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
)

// A Recorder keeps each operation in order, as it would be sent, answers a query with
// its containers present and its records absent, and a mutation with ErrNotSent.
func TestRecorder(t *testing.T) {
	rec := &Recorder{}
	ctx := context.Background()
	accounts, err := Accounts(ctx, rec)
	if err != nil || accounts.Actor == nil || accounts.Actor.Accounts != nil {
		t.Fatalf("Accounts: %+v, %v; want an actor without accounts", accounts, err)
	}
	policy, err := Policy(ctx, rec, 7, "42")
	if err != nil || policy.Actor == nil || policy.Actor.Account == nil || policy.Actor.Account.Alerts == nil ||
		policy.Actor.Account.Alerts.Policy != nil {
		t.Fatalf("Policy: %+v, %v; want the containers and no policy", policy, err)
	}
	if _, err := PolicyDelete(ctx, rec, 7, "42"); !errors.Is(err, ErrNotSent) {
		t.Fatalf("PolicyDelete: %v, want ErrNotSent", err)
	}
	calls := rec.Calls()
	tests := []struct {
		op, vars string
		mutation bool
	}{
		{"Accounts", "", false},
		{"Policy", `{"accountId":7,"id":"42"}`, false},
		{"PolicyDelete", `{"accountId":7,"id":"42"}`, true},
	}
	if len(calls) != len(tests) {
		t.Fatalf("%d calls recorded, want %d", len(calls), len(tests))
	}
	for i, want := range tests {
		c := calls[i]
		if c.OpName != want.op || string(c.Variables) != want.vars || c.Mutation != want.mutation || c.Query == "" {
			t.Errorf("call %d: %s %s mutation=%v, want %s %s mutation=%v", i, c.OpName, c.Variables, c.Mutation, want.op, want.vars, want.mutation)
		}
		if c.Variables != nil && !json.Valid(c.Variables) {
			t.Errorf("call %d: variables %q are not JSON", i, c.Variables)
		}
	}
}

// deepAnswer is a container that holds itself: emptyObjects must stop at its depth
// bound instead of filling it forever.
type deepAnswer struct {
	Next  *deepAnswer
	Items []string
	Name  *string
}

// TestRecorderDepthBound: the Recorder fills containers down to depth 32 of the answer (a
// pointer and its struct are a level each) and no further, so a self-referential type
// gets exactly 16 levels; slices and scalars stay absent.
func TestRecorderDepthBound(t *testing.T) {
	var rec Recorder
	var data deepAnswer
	if err := rec.MakeRequest(context.Background(), &gql.Request{Query: "query Deep { x }", OpName: "Deep"}, &gql.Response{Data: &data}); err != nil {
		t.Fatal(err)
	}
	levels := 0
	for d := data.Next; d != nil; d = d.Next {
		levels++
		if d.Items != nil || d.Name != nil {
			t.Fatalf("level %d: a list or scalar was made up: %+v", levels, d)
		}
	}
	if levels != 16 {
		t.Errorf("%d levels filled, want 16", levels)
	}
}
