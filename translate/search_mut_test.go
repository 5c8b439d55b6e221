package translate

import "testing"

// Mutants of validProperty (search.go:88-:90, `case` expressions: gremlins reports them
// NOT COVERED whatever runs them, so each was applied by hand with go test -overlay):
// `_` anywhere, `.` and digits only after the first character, ASCII letters and
// digits only. search.go:89:10 and :90:10 CONDITIONALS_BOUNDARY (`r < 128` → `<=`) are
// equivalent: U+0080 is a control character, neither letter nor digit.
func TestValidPropertyMut(t *testing.T) {
	for p, want := range map[string]bool{
		"": false, "_": true, "a_b": true, "_a": true,
		"a.b": true, "a.": true, ".a": false,
		"a1": true, "1a": false, "a\u0663": false, "\u00e9": false, "aé": false,
		"a-b": false, "entity.guid": true, "tags.env_1": true,
	} {
		if got := validProperty(p); got != want {
			t.Errorf("validProperty(%q) = %v, want %v", p, got, want)
		}
	}
}
