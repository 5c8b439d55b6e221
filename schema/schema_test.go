package schema

import (
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// The subset's relation to the real schema is checked against the dump checked in with
// the code (TestSubsetOfFullSchema in full_test.go), so nothing here needs files beside
// the repository.
func TestLoads(t *testing.T) {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "nerdgraph.graphql", Input: NerdGraph()})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"RootQueryType", "RootMutationType", "Actor", "ApmApplicationEntity"} {
		if s.Types[name] == nil {
			t.Errorf("type %s missing", name)
		}
	}
}
