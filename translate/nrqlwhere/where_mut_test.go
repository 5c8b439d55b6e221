package nrqlwhere

import (
	"reflect"
	"testing"
)

// Tests written for mutants no own test reached (issue 22): negative numbers and
// booleans in an entity list (where.go:243-250), nested NOT groups (walkCond,
// :261-269), several WHERE clauses, a clause keyword inside parentheses, and
// List.Index (:310-316).
//
// Not reachable by gremlins' coverage: the mutants in the `case` conditions of
// whereClauses' token switch (where.go:174-179) are attributed to the empty
// whitespace/comment case, which has no statement, so gremlins reports them NOT
// COVERED although TestEntityLists executes them.
func TestEntityListsMoreMut(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		want        []List
		wantErr     bool
	}{
		{"negative number", "SELECT count(*) FROM T WHERE appId IN (-1, 2)", []List{{Attribute: "appId", Values: []string{"-1", "2"}}}, false},
		{"double NOT is positive", "SELECT count(*) FROM T WHERE NOT (NOT (appId IN (3)))", []List{{Attribute: "appId", Values: []string{"3"}}}, false},
		{"NOT group next to a positive list", "SELECT count(*) FROM T WHERE NOT (appId IN (1)) AND appName IN ('a')",
			[]List{{Attribute: "appName", Values: []string{"a"}, Strings: true}}, false},
		{"OR of lists", "SELECT count(*) FROM T WHERE appId IN (1) OR (entity.guid IN ('g') AND x = 1)",
			[]List{{Attribute: "appId", Values: []string{"1"}}, {Attribute: "entity.guid", Values: []string{"g"}, Strings: true}}, false},
		{"two WHERE clauses", "FROM T WHERE appId IN (1) SELECT count(*) WHERE appId IN (2) SINCE 1 day ago",
			[]List{{Attribute: "appId", Values: []string{"1"}}, {Attribute: "appId", Values: []string{"2"}}}, false},
		{"not an entity attribute", "SELECT count(*) FROM T WHERE appIdx IN (1) AND -appId IN (2)", nil, false},
		{"booleans", "SELECT count(*) FROM T WHERE appId IN (true, false)", []List{{Attribute: "appId", Values: []string{"true", "false"}}}, false},
		// a subquery is not in the grammar: the clause is refused, not cut at its SELECT
		{"keyword in parentheses", "SELECT count(*) FROM T WHERE appId IN (1) AND x IN (SELECT y FROM z)", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := p.EntityLists(tt.query)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parsed %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var short []List
			for _, l := range got {
				short = append(short, List{Attribute: l.Attribute, Values: l.Values, Strings: l.Strings})
			}
			if !reflect.DeepEqual(short, tt.want) {
				t.Fatalf("got %+v, want %+v", short, tt.want)
			}
		})
	}
	l := List{Values: []string{"a", "b", "a"}}
	if l.Index("a") != 0 || l.Index("b") != 1 || l.Index("c") != -1 {
		t.Errorf("Index: %d %d %d", l.Index("a"), l.Index("b"), l.Index("c"))
	}
}
