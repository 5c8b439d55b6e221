package render

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
