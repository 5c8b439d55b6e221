package tests

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/v2bridge/v2bridge/"

// layerRules says which of the module's top-level folders a product folder may import:
// cmd → migrate → gateway → translate → graphql (the migration tooling plugs into the
// gateway through its hooks), with the REST v2 contract (restv2) and state as leaves
// and the simulators (sim, with the REST doubles in sim/restdouble) tools that only
// the commands and tests use.
var layerRules = map[string][]string{
	"cmd":       {"gateway", "translate", "graphql", "restv2", "state", "migrate", "sim", "configs", "schema"},
	"gateway":   {"translate", "graphql", "restv2", "state", "migrate", "configs"},
	"migrate":   {"gateway", "translate", "graphql", "restv2", "state"},
	"translate": {"graphql", "restv2", "state"},
	"graphql":   {"schema"},
	"restv2":    {},
	"state":     {},
	"sim":       {"schema", "configs"},
	"schema":    {},
	"configs":   {},
}

// concreteStore is the fleet's store over Redis or Valkey, which implements package
// state's interfaces; storeWiring are the only folders whose product files import it:
// the commands, which wire it into the gateway, the translator and the migration
// tooling, and state itself. Everything else depends on the interfaces.
const concreteStore = "state/fleet"

var storeWiring = []string{"cmd", "state"}

// testDoubles are the in-memory doubles of state's interfaces: test files import them,
// product files never.
const testDoubles = "state/statetest"

// topFolder names the module's top-level folder an import path or file path lies in.
func topFolder(p string) string {
	first, _, _ := strings.Cut(p, "/")
	return first
}

// Imports point one way: no product file imports a folder above it or beside it that
// its layer does not name, so the simulator stays a tool and the contract stays a leaf;
// only the wiring imports the concrete fleet store (concreteStore), and no product
// file imports the test doubles (testDoubles).
func TestImportsPointOneWay(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || rel == "tests" || rel == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		allowed, ok := layerRules[topFolder(rel)]
		if !ok {
			t.Errorf("%s: its top-level folder has no layer rule", rel)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			if p == module+testDoubles {
				t.Errorf("%s imports %s: only tests use the test doubles", rel, p)
			}
			if p == module+concreteStore && !slices.Contains(storeWiring, topFolder(rel)) {
				t.Errorf("%s imports %s: outside %v, code depends on package state's interfaces, not the concrete store", rel, p, storeWiring)
			}
			to := topFolder(strings.TrimPrefix(p, module))
			if to == topFolder(rel) {
				continue
			}
			ok := false
			for _, a := range allowed {
				ok = ok || a == to
			}
			if !ok {
				t.Errorf("%s imports %s: %s may import only %v", rel, p, topFolder(rel), allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d product files; the walk missed the tree", checked)
	}
}
