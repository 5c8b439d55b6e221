package graphql

// Tests of the Recorder's empty answers and of the bound outline types, written against
// mutants of `make mutate PKG=./graphql FILES='^(record|outlines)\.go$'` (gremlins
// v0.6.0).

import (
	"context"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
)

// deepAnswer is a container that holds itself: emptyObjects must stop at its depth
// bound instead of filling it forever.
type deepAnswer struct {
	Next  *deepAnswer
	Items []string
	Name  *string
}

// TestRecorderDepthBoundMut: the Recorder fills containers down to depth 32 of the
// answer (a pointer and its struct are a level each) and no further, so a
// self-referential type gets exactly 16 levels; slices and scalars stay absent
// (record.go:85 `depth > 32` → `>=` gives 15 levels, `<=` none; record.go:97 and :101
// `depth+1` → `depth-1` never stop).
func TestRecorderDepthBoundMut(t *testing.T) {
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

// TestOutlineKindsMut pins which outlines are APM and browser applications
// (outlines.go:30 and :108, each `==` → `!=`, and `v != nil` → `==`).
func TestOutlineKindsMut(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tt := range []struct {
		typename    *string
		apm, browse bool
	}{
		{nil, true, true},
		{s("ApmApplicationEntityOutline"), true, false},
		{s("ApmApplicationEntity"), true, false},
		{s("BrowserApplicationEntityOutline"), false, true},
		{s("BrowserApplicationEntity"), false, false},
		{s("MobileApplicationEntityOutline"), false, false},
	} {
		name := "<nil>"
		if tt.typename != nil {
			name = *tt.typename
		}
		apmName := "" // ApmOutline holds its type name by value: a null is ""
		if tt.typename != nil {
			apmName = *tt.typename
		}
		if got := (&ApmOutline{Typename: apmName}).IsApmApplication(); got != tt.apm {
			t.Errorf("%s: IsApmApplication = %v, want %v", name, got, tt.apm)
		}
		if got := (&BrowserOutline{Typename: tt.typename}).IsBrowserApplication(); got != tt.browse {
			t.Errorf("%s: IsBrowserApplication = %v, want %v", name, got, tt.browse)
		}
	}
	if (*BrowserOutline)(nil).IsBrowserApplication() {
		t.Error("a nil browser outline is a browser application")
	}
}
