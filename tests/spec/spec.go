package spec

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Status is how a statement is accounted for.
type Status string

// The statuses of a row.
const (
	Tested        Status = "tested"
	Approximate   Status = "approximate"
	NotApplicable Status = "not applicable"
	Open          Status = "open"
)

// Statuses lists the statuses in the order counts are printed.
func Statuses() []Status { return []Status{Tested, Approximate, NotApplicable, Open} }

// Evidence is what a tested row's tests compare the gateway with.
type Evidence string

// The kinds of evidence.
const (
	// Sim: the gateway's answer over the simulator's data, checked against the
	// statement itself (the simulator is a tool, not evidence of New Relic's values).
	Sim Evidence = "simulator"
	// Examples: REST v2 payloads New Relic published (tests/testdata/restv2, from the
	// docs' examples and client fixtures), compared key by key and type by type.
	Examples Evidence = "published REST v2 examples (tests/testdata/restv2)"
	// Client: newrelic-client-go's REST v2 methods decoding the gateway's answers.
	Client Evidence = "newrelic-client-go's REST v2 decoding (tests/clientcompat)"
	// Documented: requests built as New Relic's REST v2 documentation builds them.
	Documented Evidence = "requests as New Relic's docs send them (tests/docrequests)"
	// Formula: New Relic's published formulas, recomputed from the simulator's raw
	// timeslices.
	Formula Evidence = "published formulas over the simulator's raw timeslices"
	// Published is New Relic's value-by-value NRQL table ("Migrate metric timeslice
	// queries to NRQL", docs-website src/content/docs/apis/rest-api-v2/migrate-to-nrql.mdx),
	// run as published against the simulator beside the gateway's answer.
	Published Evidence = "New Relic's published NRQL equivalents (migrate-to-nrql)"
)

// Row is one normative statement of the specification.
type Row struct {
	// ID is stable: <AREA>-<NN> (RES-APP-01, EP-DEP-03, ERR-02).
	ID string
	// Section is the specification's heading the statement sits under.
	Section string
	// Statement is the statement in short.
	Statement string
	Status    Status
	// Tests are "<package dir>:<TestName>" or "<package dir>:<TestName>/<subtest>",
	// package dirs relative to the module root (tests/e2e:TestHostsAndInstances).
	Tests []string
	// Evidence says what the tests compare with (tested rows).
	Evidence []Evidence
	// Route names the gateway route whose fidelity note declares the difference
	// (approximate rows).
	Route string
	// Note is the reason (approximate, not applicable) or, for a "not shown" point, the
	// choice the gateway made and why.
	Note string
}

// TestRef is a parsed entry of Row.Tests.
type TestRef struct {
	Pkg     string // package dir relative to the module root
	Func    string // the top-level test function
	Subtest string // "" for the whole test
}

// ParseTestRef parses "<dir>:<TestName>[/<subtest>]".
func ParseTestRef(s string) (TestRef, error) {
	pkg, name, ok := strings.Cut(s, ":")
	if !ok || pkg == "" || name == "" {
		return TestRef{}, fmt.Errorf("test %q: want <package dir>:<TestName>", s)
	}
	fn, sub, _ := strings.Cut(name, "/")
	if !strings.HasPrefix(fn, "Test") {
		return TestRef{}, fmt.Errorf("test %q: %q is not a TestXxx name", s, fn)
	}
	return TestRef{Pkg: pkg, Func: fn, Subtest: sub}, nil
}

// TestFuncs returns the top-level Test functions declared in the _test.go files of the
// package directory dir.
func TestFuncs(dir string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no _test.go files in %s", dir)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", f, err)
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
				out[fd.Name.Name] = true
			}
		}
	}
	return out, nil
}

// WalkPlan groups the tests of tested rows by package: package dir → sorted top-level
// test names (a subtest runs with its parent).
func WalkPlan(rows []Row) (map[string][]string, error) {
	set := map[string]map[string]bool{}
	for _, r := range rows {
		if r.Status != Tested {
			continue
		}
		for _, s := range r.Tests {
			ref, err := ParseTestRef(s)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.ID, err)
			}
			if set[ref.Pkg] == nil {
				set[ref.Pkg] = map[string]bool{}
			}
			set[ref.Pkg][ref.Func] = true
		}
	}
	out := map[string][]string{}
	for pkg, fns := range set {
		for fn := range fns {
			out[pkg] = append(out[pkg], fn)
		}
		sort.Strings(out[pkg])
	}
	return out, nil
}

// RunPattern is the -run pattern that selects exactly the named top-level tests.
func RunPattern(fns []string) string {
	return "^(" + strings.Join(fns, "|") + ")$"
}

// Counts counts rows by status.
func Counts(rows []Row) map[Status]int {
	out := map[Status]int{}
	for _, r := range rows {
		out[r.Status]++
	}
	return out
}

// CountsLine is the counts of rows by status on one line.
func CountsLine(rows []Row) string {
	c := Counts(rows)
	parts := make([]string, 0, 4)
	for _, s := range Statuses() {
		parts = append(parts, fmt.Sprintf("%d %s", c[s], s))
	}
	return fmt.Sprintf("%d statements: %s", len(rows), strings.Join(parts, ", "))
}

// RouteFidelity answers a route's declared fidelity ("" for an unknown route).
type RouteFidelity func(route string) string

// Markdown renders the matrix as SPEC.md.
func Markdown(rows []Row, fidelity RouteFidelity) []byte {
	var b strings.Builder
	b.WriteString("# REST v2 specification traceability matrix\n\n")
	b.WriteString("<!-- Generated from tests/spec/matrix.go by `go test ./tests/spec -update`; do not edit. -->\n\n")
	b.WriteString("Every statement of the REST v2 service specification (\"Application Performance Monitoring REST API v2: Service Specification\"), ")
	b.WriteString("traced to the tests that assert it or to a declared difference. `make conformance` runs every named ")
	b.WriteString("test (one `go test -run` per package) and prints the counts below.\n\n")
	fmt.Fprintf(&b, "**%s.**\n\n", CountsLine(rows))
	b.WriteString("- **tested**: the named tests assert the statement (package dir and test name; a subtest runs with ")
	b.WriteString("its parent). Most go through the gateway's HTTP routes in front of the NerdGraph simulator; the evidence ")
	b.WriteString("column says whether the expected values come from the simulator alone or from a published source.\n")
	b.WriteString("- **approximate**: the gateway differs, and the named route's fidelity note in the README's route table ")
	b.WriteString("(`gateway.Routes`) declares how.\n")
	b.WriteString("- **not applicable**: nothing a gateway does can honour or break the statement; the reason is given.\n")
	b.WriteString("- **open**: not yet traced.\n\n")
	b.WriteString("For points the specification leaves \"not shown\", the note gives the gateway's choice and why.\n")
	section := ""
	for _, r := range rows {
		if r.Section != section {
			section = r.Section
			fmt.Fprintf(&b, "\n## %s\n\n", section)
			b.WriteString("| id | statement | status | traced to | evidence / note |\n|---|---|---|---|---|\n")
		}
		var traced string
		switch r.Status {
		case Tested:
			ts := make([]string, len(r.Tests))
			for i, t := range r.Tests {
				ts[i] = "`" + t + "`"
			}
			traced = strings.Join(ts, "<br>")
		case Approximate:
			traced = "route `" + r.Route + "`"
			if f := fidelity(r.Route); f != "" {
				traced += " (" + f + ")"
			}
		}
		var note []string
		if len(r.Evidence) > 0 {
			ev := make([]string, len(r.Evidence))
			for i, e := range r.Evidence {
				ev[i] = string(e)
			}
			note = append(note, "evidence: "+strings.Join(ev, " + "))
		}
		if r.Note != "" {
			note = append(note, r.Note)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.ID, cell(r.Statement), r.Status, traced, cell(strings.Join(note, "; ")))
	}
	return []byte(b.String())
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// ModuleRoot finds the directory holding go.mod, from dir upwards.
func ModuleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}
