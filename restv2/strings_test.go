package restv2

import (
	"math/rand/v2"
	"testing"
)

// randomText is n bytes drawn mostly from printable ASCII, with the bytes every
// escaper treats specially (quotes, backslashes, controls, markup, UTF-8 and invalid
// bytes) mixed in.
func randomText(r *rand.Rand, n int) string {
	const special = "\"\\\x00\x01\x1f\t\n\r&<>\x7f\x80\xff"
	runes := []string{"é", "\u2028", "\u2029", "\ufffe", "\uffff", "😀"}
	b := make([]byte, 0, n)
	for len(b) < n {
		switch k := r.IntN(20); {
		case k == 0:
			b = append(b, special[r.IntN(len(special))])
		case k == 1:
			b = append(b, runes[r.IntN(len(runes))]...)
		default:
			b = append(b, byte(0x20+r.IntN(0x5f)))
		}
	}
	return string(b)
}

// TestAppendJSONStringFastPath: a string whose first byte is a control character
// never takes the fast path, so its escaping after that byte is the byte-by-byte
// loop's; every string must escape as that loop does.
func TestAppendJSONStringFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 25))
	for range 20000 {
		s := randomText(r, r.IntN(40))
		got := string(appendJSONString(nil, s))
		slow := string(appendJSONString(nil, "\x01"+s))
		if want := `"` + slow[len(`"\u0001`):]; got != want {
			t.Fatalf("appendJSONString(%q) = %s, byte by byte %s", s, got, want)
		}
	}
}

// TestXMLTextEscapingEdges: each escaped ASCII character and the edges around them:
// a lone 0x80 byte becomes U+FFFD, a control below 0x20 too, a space is kept.
func TestXMLTextEscapingEdges(t *testing.T) {
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

// TestJSONStringEdges: the two cases of non-ASCII handling: a lone invalid byte,
// and U+2028 and U+2029, each escaped.
func TestJSONStringEdges(t *testing.T) {
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

// TestXMLNameBounds: the last letter and digit of each range are name characters;
// the characters just past them are not.
func TestXMLNameBounds(t *testing.T) {
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
