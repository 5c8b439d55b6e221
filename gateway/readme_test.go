package gateway

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	// -update rewrites README.md's route table and docs/fidelity.md (registered here
	// unless another test file of the package already did).
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the generated files")
	}
}

func updatingDocs() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

const (
	tableBegin = "<!-- routes:begin (generated from gateway.Routes; go test ./gateway -run 'Readme|Fidelity' -update) -->\n"
	tableEnd   = "<!-- routes:end -->"
)

// The README's route table must equal the one generated from the route table in code.
func TestReadmeRouteTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the route table markers %q ... %q", tableBegin, tableEnd)
	}
	got := s[i+len(tableBegin) : j]
	want := RouteTable()
	if got != want {
		if updatingDocs() {
			if err := os.WriteFile("../README.md", []byte(s[:i+len(tableBegin)]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatalf("README route table is stale; run go test ./gateway -run Readme -update\nwant:\n%s", want)
	}
}

// docs/fidelity.md must equal the page generated from the route table in code.
func TestFidelityDocIsCurrent(t *testing.T) {
	const path = "../docs/fidelity.md"
	want := FidelityMarkdown()
	if updatingDocs() {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./gateway -run Fidelity -update)", err)
	}
	if string(got) != want {
		t.Fatal("docs/fidelity.md is stale: run go test ./gateway -run Fidelity -update")
	}
}

// Each row's path is where the route is served: under /v2 with both extensions, the
// whole subtree for retired prefixes, and at the root in XML for legacy routes.
func TestRouteTablePaths(t *testing.T) {
	table := RouteTable()
	for _, row := range []string{
		"| `applications.show` | GET | `/v2/applications/{id}.{json,xml}` |",
		"| `servers.retired` | any | `/v2/servers*` |",
		"| `deployments.v0` | POST | `/deployments.xml` |",
	} {
		if !strings.Contains(table, row) {
			t.Errorf("route table lacks %q", row)
		}
	}
}

// The README's note is the note's first sentence, cut to noteLineMax runes at a clause
// break outside parentheses and code, marked with " …" whenever anything was left out;
// docs/fidelity.md carries every note whole.
func TestRouteTableOneLineNotes(t *testing.T) {
	for _, c := range []struct{ note, want string }{
		{"as applications.list", "as applications.list"},
		{"NerdGraph has no mutation. Use NRQL conditions.", "NerdGraph has no mutation. …"},
		{strings.Repeat("a", 60) + "; b (c; d) `e; f` " + strings.Repeat("g", 100), strings.Repeat("a", 60) + " …"},
		{"short; " + strings.Repeat("word ", 30), "short; " + strings.TrimSpace(strings.Repeat("word ", 14)) + " …"},
		{strings.Repeat("word ", 40), strings.TrimSpace(strings.Repeat("word ", 16)) + " …"},
	} {
		if got := OneLineNote(c.note); got != c.want {
			t.Errorf("OneLineNote(%q) = %q, want %q", c.note, got, c.want)
		}
	}
	doc := FidelityMarkdown()
	for _, r := range Routes() {
		line := OneLineNote(r.Note)
		if n := len([]rune(strings.TrimSuffix(line, " …"))); n > noteLineMax {
			t.Errorf("%s: one-line note of %d runes", r.Name, n)
		}
		if strings.Count(line, "`")%2 != 0 {
			t.Errorf("%s: one-line note cuts a code span: %q", r.Name, line)
		}
		if !strings.Contains(doc, "### `"+r.Name+"`\n\n**"+string(r.Fidelity)+"**: "+r.Note+"\n") {
			t.Errorf("docs/fidelity.md lacks the whole note of %s", r.Name)
		}
	}
}

// The Markdown stays a product's documentation, not a notebook: README.md at most
// 15,000 bytes, no hand-written file over 30,000, and the hand-written files together at
// most 110,000. The generated specification matrix (tests/spec/SPEC.md) is counted apart:
// it grows a row per traced statement, not with prose, and holds at most 90,000.
func TestMarkdownBudget(t *testing.T) {
	total := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n, rel := int(info.Size()), filepath.ToSlash(strings.TrimPrefix(path, "../"))
		switch {
		case rel == "tests/spec/SPEC.md":
			if n > 90000 {
				t.Errorf("%s has %d bytes, more than 90,000", rel, n)
			}
			return nil
		case rel == "README.md" && n > 15000:
			t.Errorf("README.md has %d bytes, more than 15,000", n)
		case n > 30000:
			t.Errorf("%s has %d bytes, more than 30,000", rel, n)
		}
		total += n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total > 110000 {
		t.Errorf("the hand-written Markdown files hold %d bytes together, more than 110,000", total)
	}
}
