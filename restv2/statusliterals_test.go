package restv2_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// statusScanned are the packages whose statuses must come from this package's
// errors.go: the translator and the gateway, subpackages included.
var statusScanned = []string{"../translate", "../gateway"}

// TestNoStatusLiteralsOutsideRestv2 keeps every HTTP status decided in errors.go: no
// file of translate or gateway names a net/http status constant or writes a status
// as a number (a Status field, a comparison with or assignment to a status, a
// WriteHeader or error-constructor argument, a case of a switch on a status).
func TestNoStatusLiteralsOutsideRestv2(t *testing.T) {
	var found []string
	for _, root := range statusScanned {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			for _, pos := range statusLiterals(f) {
				found = append(found, fset.Position(pos).String())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, at := range found {
		t.Errorf("%s: a literal HTTP status; use a restv2 Status constant or error constructor", at)
	}
}

// TestStatusLiteralsFound checks the scanner itself on each form it must catch and
// on numbers that are no status.
func TestStatusLiteralsFound(t *testing.T) {
	tests := []struct {
		name, src string
		want      int
	}{
		{"net/http constant", `import "net/http"; var _ = http.StatusCreated`, 1},
		{"renamed net/http import", `import h "net/http"; var _ = h.StatusOK`, 1},
		{"Status field", `var _ = &E{Status: 422, Title: "x"}`, 1},
		{"status field of a result", `var _ = result{status: 201}`, 1},
		{"comparison", `func f(ve *E) bool { return ve.Status == 404 || 409 == ve.Status }`, 2},
		{"class threshold", `func f(status int) bool { return status >= 500 }`, 1},
		{"assignment", `func f() { var w W; w.status = 200 }`, 1},
		{"WriteHeader", `func f(w W) { w.WriteHeader(503) }`, 1},
		{"error constructor argument", `func f() error { return ErrWriteOutcomeUnknown(504, "x", "y") }`, 1},
		{"beside a status argument", `func f(s int) int { return max(s, 0) + max(sw.status, 200) }`, 1},
		{"switch on a status", `func f(status int) { switch status { case 401, 403: } }`, 2},
		{"numbers that are no status", `const PageSize = 200; var b [128]byte; func f(n int) int { return n/400 + max(n, 256) }`, 0},
		{"out of range", `var _ = E{Status: 0}; var _ = x.status == 1000`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package x; "+tt.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(statusLiterals(f)); got != tt.want {
				t.Errorf("found %d status literals, want %d", got, tt.want)
			}
		})
	}
}

// statusLiterals are the positions in f of net/http status constants and of integer
// literals from 100 to 599 used as a status.
func statusLiterals(f *ast.File) []token.Pos {
	httpName := ""
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == "net/http" {
			httpName = "http"
			if im.Name != nil {
				httpName = im.Name.Name
			}
		}
	}
	var out []token.Pos
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && httpName != "" && x.Name == httpName && strings.HasPrefix(n.Sel.Name, "Status") {
				out = append(out, n.Pos())
			}
		case *ast.BasicLit:
			if isStatusNumber(n) && usedAsStatus(n, parent, stack) {
				out = append(out, n.Pos())
			}
		}
		return true
	})
	return out
}

func isStatusNumber(l *ast.BasicLit) bool {
	if l.Kind != token.INT {
		return false
	}
	v, err := strconv.Atoi(l.Value)
	return err == nil && v >= 100 && v <= 599
}

// usedAsStatus reports whether the literal lit, below parent, stands for a status.
func usedAsStatus(lit *ast.BasicLit, parent ast.Node, stack []ast.Node) bool {
	switch p := parent.(type) {
	case *ast.KeyValueExpr:
		return p.Value == lit && namesStatus(p.Key)
	case *ast.BinaryExpr:
		other := p.X
		if other == lit {
			other = p.Y
		}
		return namesStatus(other)
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if namesStatus(l) {
				return true
			}
		}
	case *ast.CallExpr:
		name := strings.ToLower(calleeName(p.Fun))
		if name == "writeheader" || strings.Contains(name, "status") || strings.Contains(name, "err") || strings.Contains(name, "unknown") {
			return true
		}
		for _, a := range p.Args {
			if a != lit && namesStatus(a) {
				return true
			}
		}
	case *ast.CaseClause:
		for i := len(stack) - 2; i >= 0; i-- {
			if sw, ok := stack[i].(*ast.SwitchStmt); ok {
				return sw.Tag != nil && namesStatus(sw.Tag)
			}
		}
	}
	return false
}

// namesStatus reports whether e is a variable or field whose name says status.
func namesStatus(e ast.Expr) bool {
	return strings.Contains(strings.ToLower(calleeName(e)), "status")
}

func calleeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}
