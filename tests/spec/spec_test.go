package spec_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/spec"
)

var update = flag.Bool("update", false, "rewrite SPEC.md from the matrix")

func root(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	r, err := spec.ModuleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func fidelity(route string) string {
	for _, r := range gateway.Routes() {
		if r.Name == route {
			return string(r.Fidelity)
		}
	}
	return ""
}

var idRe = regexp.MustCompile(`^[A-Z]+(-[A-Z]+)*-[0-9]{2}$`)

// Every row is well formed: a unique stable id, a statement, and what its status
// needs (tests and evidence; an existing route and a note; a reason).
func TestRowsAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range spec.Matrix() {
		if !idRe.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("%s: id malformed or repeated", r.ID)
		}
		seen[r.ID] = true
		if r.Statement == "" || r.Section == "" {
			t.Errorf("%s: no statement or section", r.ID)
		}
		switch r.Status {
		case spec.Tested:
			if len(r.Tests) == 0 || len(r.Evidence) == 0 || r.Route != "" {
				t.Errorf("%s: a tested row names tests and evidence, and no route", r.ID)
			}
		case spec.Approximate:
			if r.Note == "" || len(r.Tests) != 0 {
				t.Errorf("%s: an approximate row says how it differs and names no tests", r.ID)
			}
			if f := fidelity(r.Route); f == "" || f == string(gateway.Exact) {
				t.Errorf("%s: route %q is not a route whose note declares a difference (fidelity %q)", r.ID, r.Route, f)
			}
		case spec.NotApplicable:
			if r.Note == "" || len(r.Tests) != 0 || r.Route != "" {
				t.Errorf("%s: a not-applicable row gives its reason only", r.ID)
			}
		case spec.Open:
		default:
			t.Errorf("%s: status %q", r.ID, r.Status)
		}
	}
}

// No statement is left open.
func TestNoOpenRows(t *testing.T) {
	for _, r := range spec.Matrix() {
		if r.Status == spec.Open {
			t.Errorf("%s is open: %s", r.ID, r.Statement)
		}
	}
}

// Every test a tested row names exists: its package's _test.go files declare the
// function (for a subtest, its parent).
func TestNamedTestsExist(t *testing.T) {
	base := root(t)
	funcs := map[string]map[string]bool{}
	for _, r := range spec.Matrix() {
		for _, s := range r.Tests {
			ref, err := spec.ParseTestRef(s)
			if err != nil {
				t.Errorf("%s: %v", r.ID, err)
				continue
			}
			fns, ok := funcs[ref.Pkg]
			if !ok {
				fns, err = spec.TestFuncs(filepath.Join(base, filepath.FromSlash(ref.Pkg)))
				if err != nil {
					t.Errorf("%s: %v", r.ID, err)
				}
				funcs[ref.Pkg] = fns
			}
			if !fns[ref.Func] {
				t.Errorf("%s names %s, but %s declares no func %s", r.ID, s, ref.Pkg, ref.Func)
			}
		}
	}
}

// The walk's test-name check catches a name that does not exist.
func TestTestFuncsSeesOnlyDeclaredTests(t *testing.T) {
	fns, err := spec.TestFuncs(".")
	if err != nil {
		t.Fatal(err)
	}
	if !fns["TestNamedTestsExist"] || fns["TestNoSuchTest"] || fns["rawSums"] {
		t.Fatalf("TestFuncs(.) = %v", fns)
	}
}

// SPEC.md is the matrix rendered; -update rewrites it.
func TestSpecMarkdownIsCurrent(t *testing.T) {
	got := spec.Markdown(spec.Matrix(), fidelity)
	if *update {
		if err := os.WriteFile("SPEC.md", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("SPEC.md")
	if err != nil {
		t.Fatalf("%v (run go test ./tests/spec -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("SPEC.md is stale: run go test ./tests/spec -update")
	}
}

// The README's paragraph on the matrix carries the current counts.
func TestReadmeCounts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if line := spec.CountsLine(spec.Matrix()); !strings.Contains(string(b), line) {
		t.Fatalf("README.md does not carry %q (the matrix paragraph links tests/spec/SPEC.md)", line)
	}
}

// TestWalk runs every test a tested row names, one `go test -run` per package, and
// prints the counts of rows by status and the walk's result as conformance summary
// lines. It runs only with SPEC_WALK=1 (make conformance), so `go test ./...` does not
// run those tests twice.
func TestWalk(t *testing.T) {
	if os.Getenv("SPEC_WALK") != "1" {
		t.Skip("the walk runs under make conformance (SPEC_WALK=1)")
	}
	rows := spec.Matrix()
	plan, err := spec.WalkPlan(rows)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := make([]string, 0, len(plan))
	for p := range plan {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	goBin := os.Getenv("GO")
	if goBin == "" {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	// Named subtests must be seen passing in the -v output of their package.
	subtests := map[string][]string{}
	for _, r := range rows {
		for _, s := range r.Tests {
			if ref, err := spec.ParseTestRef(s); err == nil && ref.Subtest != "" && r.Status == spec.Tested {
				subtests[ref.Pkg] = append(subtests[ref.Pkg], ref.Func+"/"+ref.Subtest)
			}
		}
	}
	base := root(t)
	start := time.Now()
	ran, failed := 0, []string{}
	for _, p := range pkgs {
		cmd := exec.Command(goBin, "test", "-count=1", "-v", "-run", spec.RunPattern(plan[p]), "./"+p)
		cmd.Dir = base
		out, err := cmd.CombinedOutput()
		ran += len(plan[p])
		if err != nil {
			failed = append(failed, p)
			t.Errorf("go test -run '%s' ./%s: %v\n%s", spec.RunPattern(plan[p]), p, err, out)
			continue
		}
		for _, sub := range subtests[p] {
			if !bytes.Contains(out, []byte("--- PASS: "+sub+" (")) {
				failed = append(failed, p)
				t.Errorf("./%s: the matrix names subtest %s, which did not run and pass", p, sub)
			}
		}
	}
	fmt.Printf("conformance: %-32s %s\n", "specification matrix (SPEC.md)", spec.CountsLine(rows))
	fmt.Printf("conformance: %-32s %3d tests in %d packages, %d packages failed (%.0fs)\n", "specification walk", ran, len(pkgs), len(failed),
		time.Since(start).Seconds())
	if c := spec.Counts(rows)[spec.Open]; c > 0 {
		t.Errorf("%d rows are open", c)
	}
}
