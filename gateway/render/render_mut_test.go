package render

// Tests written against the survivors of `make mutate PKG=./gateway/render`
// (gremlins v0.6.0, before: 81 killed, 12 lived, 13 not covered, 6 timed out; 87.10 %).
// The escaping `case` expressions (xml.go:232-240, json.go:174 and :177) sit outside Go's
// coverage blocks, so gremlins lists them NOT COVERED whatever the tests; the tables
// here and in render_test.go kill them (checked by hand with go test -overlay).
//
// Equivalent survivors (listed in tests/MUTATION.md):
//   - xml.go:106 CONDITIONALS_BOUNDARY (`n > 0` → `n >= 0` in indent): at n == 0 the
//     extra turn appends spaces[:0], nothing, and the loop ends;
//   - xml.go:276 CONDITIONALS_BOUNDARY (`r < utf8.RuneSelf` → `<=` in xmlName): the one
//     rune it adds, U+0080, is turned into byte 0x80, which isNameChar refuses, so it
//     becomes '_' either way.

import (
	"strings"
	"testing"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestXMLTextEscapingEdgesMut: each escaped ASCII character and the edges around them
// (xml.go:229 `c < utf8.RuneSelf` → `<=`: a lone 0x80 byte must become U+FFFD;
// :232-:240 each case negated; :240 `c < 0x20` → `<=`: a space is kept).
func TestXMLTextEscapingEdgesMut(t *testing.T) {
	for give, want := range map[string]string{
		"&":           "&amp;",
		"<":           "&lt;",
		">":           "&gt;",
		"\r":          "&#xD;",
		"\x01":        "\ufffd",
		"\x1f":        "\ufffd",
		" ":           " ",
		"\t":          "\t",
		"\n":          "\n",
		"a\x80b":      "a\ufffdb",
		"\x7f":        "\x7f",
		"x&y<z>w\rv ": "x&amp;y&lt;z&gt;w&#xD;v ",
	} {
		if got := string(appendXMLText(nil, give)); got != want {
			t.Errorf("appendXMLText(%q) = %q, want %q", give, got, want)
		}
	}
}

// TestJSONStringEdgesMut: the two cases of non-ASCII handling (json.go:174 a lone
// invalid byte, :177 U+2028 and U+2029 each; their negations).
func TestJSONStringEdgesMut(t *testing.T) {
	for give, want := range map[string]string{
		"\u2028":  `"\u2028"`,
		"\u2029":  `"\u2029"`,
		"\u2027":  "\"\u2027\"",
		"\xff":    "\"\ufffd\"",
		"é\xc3":   "\"é\ufffd\"",
		"\u202a!": "\"\u202a!\"",
	} {
		if got := string(appendJSONString(nil, give)); got != want {
			t.Errorf("appendJSONString(%q) = %s, want %s", give, got, want)
		}
	}
}

// TestXMLNameBoundsMut: the last letter and digit of each range are name characters
// (xml.go:298 `c <= 'Z'` → `<`, :302 `c <= '9'` → `<`).
func TestXMLNameBoundsMut(t *testing.T) {
	for _, name := range []string{"Z", "aZ", "z", "a9", "a0", "A", "_"} {
		if got := xmlName(name); got != name {
			t.Errorf("xmlName(%q) = %q, want it unchanged", name, got)
		}
	}
	for give, want := range map[string]string{"[": "__", "a`": "a_", "a{": "a_", "a:": "a_", "a/": "a_", "9": "_9"} {
		if got := xmlName(give); got != want {
			t.Errorf("xmlName(%q) = %q, want %q", give, got, want)
		}
	}
}

// TestXMLRootlessTopLevelMut: a root-less document becomes its single top-level value's
// element, or is wrapped in <hash> when it has more than one (the top-level counter:
// xml.go:315 `c.depth++` → `--`, :319 `c.depth > 0` → `>=` and negated, :320
// `c.depth--` → `++`, :326 `c.values++` → `--`).
func TestXMLRootlessTopLevelMut(t *testing.T) {
	tests := []struct {
		name string
		enc  func(e v2.Encoder)
		root string
	}{
		{"one object with nested values", func(e v2.Encoder) {
			e.BeginObject("error")
			e.BeginObject("inner")
			e.Int("a", 1)
			e.EndObject()
			e.String("title", "t")
			e.EndObject()
		}, "<error>"},
		{"two objects", func(e v2.Encoder) {
			e.BeginObject("a")
			e.EndObject()
			e.BeginObject("b")
			e.EndObject()
		}, "<hash>"},
		{"an object then a scalar", func(e v2.Encoder) {
			e.BeginObject("a")
			e.Int("x", 1)
			e.EndObject()
			e.Int("b", 2)
		}, "<hash>"},
		{"two scalars", func(e v2.Encoder) {
			e.Int("a", 1)
			e.Int("b", 2)
		}, "<hash>"},
		{"one scalar", func(e v2.Encoder) { e.String("only", "x") }, "<only>"},
		{"an array with two items", func(e v2.Encoder) {
			e.BeginArray("things", "thing")
			e.Int("thing", 1)
			e.Int("thing", 2)
			e.EndArray()
		}, "<things>"},
		{"unbalanced end first", func(e v2.Encoder) {
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

// TestBufferPoolBoundMut: a buffer of exactly MaxRetainedBufferSize is kept, a larger
// one never (render.go:94 `cap(*b) > MaxRetainedBufferSize` → `>=` and negated). A pool
// may drop what it is given (it does so at random under -race), so the kept case tries
// up to 50 times; the dropped case can never see the buffer come back.
func TestBufferPoolBoundMut(t *testing.T) {
	big := make([]byte, 0, MaxRetainedBufferSize+1)
	for i := 0; i < 50; i++ {
		PutBuffer(&big)
		if b := GetBuffer(); cap(*b) == cap(big) {
			t.Fatalf("a buffer of %d bytes came back from the pool", cap(big))
		}
	}
	edge := make([]byte, 0, MaxRetainedBufferSize)
	for i := 0; i < 50; i++ {
		PutBuffer(&edge)
		if b := GetBuffer(); b == &edge {
			return
		}
	}
	t.Errorf("a buffer of exactly MaxRetainedBufferSize (%d) never came back from the pool", MaxRetainedBufferSize)
}
