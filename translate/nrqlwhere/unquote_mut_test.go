package nrqlwhere

import (
	"reflect"
	"testing"
)

// Tests written for the survivors of the translate tree's mutation run (issue 22,
// fourth pass at 5855b87).
//
// Equivalent survivors (package nrqlwhere):
//   - where.go:180:12 and :189:10 CONDITIONALS_BOUNDARY (`open >= 0` → `> 0` in
//     whereClauses): open is -1 or the offset just after a WHERE keyword, at least 5,
//     never 0.

// where.go:295 CONDITIONALS_BOUNDARY (`len(s) < 2` → `<= 2` in unquote): the empty
// string literal (two single quotes) is the value "", not the quotes.
func TestEmptyStringInListMut(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.EntityLists("SELECT count(*) FROM T WHERE appName IN ('', 'a', 'it\\'s')")
	if err != nil || len(got) != 1 {
		t.Fatalf("lists %+v, %v", got, err)
	}
	if want := []string{"", "a", "it's"}; !reflect.DeepEqual(got[0].Values, want) {
		t.Fatalf("values %q, want %q", got[0].Values, want)
	}
}

// where.go:301 CONDITIONALS_BOUNDARY and ARITHMETIC_BASE (`i+1 < len(s)` in unquote):
// a backslash escapes the next byte; a backslash with nothing after it is kept. (The
// lexer never hands over such a literal, `'a\'` being unterminated: this pins unquote's
// own rule, which the mutants break with an index past the end.)
func TestUnquoteMut(t *testing.T) {
	for in, want := range map[string]string{
		`''`: "", `'a'`: "a", `'it\'s'`: "it's", `'a\\b'`: `a\b`, `'a\'`: `a\`, `'\'`: `\`, `x`: "x", ``: "",
	} {
		if got := unquote(in); got != want {
			t.Errorf("unquote(%s) = %q, want %q", in, got, want)
		}
	}
}
