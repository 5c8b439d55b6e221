package tests

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citedPath matches a repository path as comments and guides cite it: a top-level
// folder of the project, then folders and a file with an extension.
var citedPath = regexp.MustCompile("(?:^|[\\s(`'\"])((?:cmd|gateway|graphql|translate|restv2|state|migrate|tests|configs|docs|schema|sim)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.(?:go|md|yaml|yml|graphql|gz|txt|json|csv|xml|svg))")

// Every repository path a source comment, a guide or a configuration cites exists, so
// a move that forgets a reference fails here rather than sending a reader nowhere.
func TestCitedPathsExist(t *testing.T) {
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".yaml", ".yml":
		default:
			if d.Name() != "Makefile" && d.Name() != "Dockerfile" {
				return nil
			}
		}
		if strings.HasSuffix(path, "generated.go") || strings.HasSuffix(path, "_gen.go") {
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		for _, m := range citedPath.FindAllStringSubmatch(string(text), -1) {
			cited := m[1]
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(cited))); err != nil {
				t.Errorf("%s cites %s, which does not exist", rel, cited)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
