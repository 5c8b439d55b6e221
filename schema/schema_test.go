package schema

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// The schema must be byte-identical to the shared evidence copy (shared/ sits beside the
// repository in CI and on developer machines).
func TestIdenticalToShared(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "nerdgraph", "schema.graphql")
	want, err := os.ReadFile(shared)
	if os.IsNotExist(err) {
		t.Skipf("%s not present beside the repository", shared)
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != NerdGraph() {
		t.Fatalf("schema/nerdgraph.graphql differs from %s; copy it again (it is a strict subset of the real schema)", shared)
	}
}

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
