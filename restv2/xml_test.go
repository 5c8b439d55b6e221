package restv2

import (
	"strings"
	"testing"
)

// TestXMLRootlessTopLevel: a root-less document becomes its single top-level value's
// element, or is wrapped in <hash> when it has more than one (values nested in a
// top-level value do not count).
func TestXMLRootlessTopLevel(t *testing.T) {
	tests := []struct {
		name string
		enc  func(e Encoder)
		root string
	}{
		{"one object with nested values", func(e Encoder) {
			e.BeginObject("error")
			e.BeginObject("inner")
			e.Int("a", 1)
			e.EndObject()
			e.String("title", "t")
			e.EndObject()
		}, "<error>"},
		{"two objects", func(e Encoder) {
			e.BeginObject("a")
			e.EndObject()
			e.BeginObject("b")
			e.EndObject()
		}, "<hash>"},
		{"an object then a scalar", func(e Encoder) {
			e.BeginObject("a")
			e.Int("x", 1)
			e.EndObject()
			e.Int("b", 2)
		}, "<hash>"},
		{"two scalars", func(e Encoder) {
			e.Int("a", 1)
			e.Int("b", 2)
		}, "<hash>"},
		{"one scalar", func(e Encoder) { e.String("only", "x") }, "<only>"},
		{"an array with two items", func(e Encoder) {
			e.BeginArray("things", "thing")
			e.Int("thing", 1)
			e.Int("thing", 2)
			e.EndArray()
		}, "<things>"},
		{"unbalanced end first", func(e Encoder) {
			e.EndObject()
			e.BeginObject("a")
			e.EndObject()
		}, "<a"},
	}
	for _, tt := range tests {
		got := string(XMLRenderer{}.Render(nil, docFunc{enc: tt.enc}))
		body := strings.TrimPrefix(got, xmlDeclaration)
		if !strings.HasPrefix(body, tt.root) {
			t.Errorf("%s: rendered %q, want the root %s", tt.name, got, tt.root)
		}
	}
}
