package graphql

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The tests in this file were written for the mutants of jsonscan.go that survived
// the mutation run at b689aed (gremlins, go test ./graphql), and for its lines no
// test reached; each names the mutants it kills (jsonscan.go:LINE:COL OPERATOR).
//
// Survivors that no input can tell from the code (equivalent mutants):
//
//   - jsonscan.go:73:17 CONDITIONALS_BOUNDARY (k <= len(lit)): literal's loop runs only
//     when the bytes at s.i are not lit (line 72), so some k < len(lit) returns; the
//     loop never reaches k == len(lit).
//   - jsonscan.go:143:8 CONDITIONALS_BOUNDARY (for i <= len(b)): at i == len(b) the
//     extra pass breaks out at line 149 (i >= len(b)) with the same i and errEnd.
//   - jsonscan.go:146:9 CONDITIONALS_NEGATION (i >= len(b) && ...): the outer loop
//     guarantees i < len(b) there, so the mutant only skips the fast loop over plain
//     bytes; the switch's default (line 187) steps over the same bytes one by one,
//     and '"', '\\' and control bytes go to the same cases.
//   - jsonscan.go:427:14 CONDITIONALS_NEGATION (len(key) != len(name) && ...): the
//     fast path for an exact match; for the ASCII names keyIs is defined for
//     ("facet", "lastSeen"), the folding loop answers true for key == name too.
//   - jsonscan.go:430:28 CONDITIONALS_BOUNDARY (key[0] <= utf8.RuneSelf) and
//     jsonscan.go:436:21 CONDITIONALS_BOUNDARY (c <= utf8.RuneSelf): the only byte
//     they add is 0x80, a stray continuation byte that utf8.DecodeRune reads as
//     U+FFFD (size 1); taken as rune 0x80 or as U+FFFD it equals no byte of an
//     ASCII name, so keyIs answers false either way, at the same step.

// scanErr is how an error of the scanner is compared: errEnd, errSyntax at an
// offset (the scanner's position), or nil.
func scanErr(err error, s *scanner) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, errEnd):
		return "end"
	case errors.Is(err, errSyntax):
		return fmt.Sprintf("syntax@%d", s.i)
	case errors.Is(err, errTooDeep):
		return "deep"
	}
	return err.Error()
}

// TestLiteralMut reads true, false and null at the end of the input, cut short, and
// misspelled in the last byte, checking the error's kind and the position reached.
// Kills jsonscan.go:72:13 ARITHMETIC_BASE and INVERT_NEGATIVES (len(s.b)+s.i: "[nul"
// slices past the end), 73:17 CONDITIONALS_NEGATION (k >= len(lit): "nulx" read as
// null), 74:11 CONDITIONALS_BOUNDARY (s.i > len(s.b): index out of range at "nul"),
// 74:11 CONDITIONALS_NEGATION and 74:35 CONDITIONALS_NEGATION (a syntax error at the
// literal's first byte instead of errEnd or the byte that differs), 77:7
// INCREMENT_DECREMENT (s.i-- walks backwards). The input may be a prefix of a
// longer buffer (as a pooled body is) whose spare capacity goes on with the literal:
// the literal must not be read from beyond len(s.b) (72:13 reads "[nul" + "l" as null).
func TestLiteralMut(t *testing.T) {
	for _, c := range []struct {
		in    string
		spare string // in the buffer's capacity past the input
		at    int
		lit   string
		want  string
		end   int // s.i afterwards
	}{
		{"[nul", "l]", 1, "null", "end", 4},
		{"nu", "ll", 0, "null", "end", 2},
		{"[tru", "e", 1, "true", "end", 4},
		{"[fals", "e]", 1, "false", "end", 5},
		{"null", "", 0, "null", "ok", 4},
		{"nullx", "", 0, "null", "ok", 4},
		{"[null]", "", 1, "null", "ok", 5},
		{"[true", "", 1, "true", "ok", 5},
		{"false", "", 0, "false", "ok", 5},
		{"nul", "", 0, "null", "end", 3},
		{"[nul", "", 1, "null", "end", 4},
		{"[n", "", 1, "null", "end", 2},
		{"[fals", "", 1, "false", "end", 5},
		{"nulx", "", 0, "null", "syntax@3", 3},
		{"[tru0]", "", 1, "true", "syntax@4", 4},
		{"[trUe]", "", 1, "true", "syntax@3", 3},
		{"[nUll]", "", 1, "null", "syntax@2", 2},
		{"falsE", "", 0, "false", "syntax@4", 4},
		{"xull", "", 0, "null", "syntax@0", 0},
	} {
		s := scanner{b: []byte(c.in + c.spare)[:len(c.in)], i: c.at}
		if got := scanErr(s.literal(c.lit), &s); got != c.want || s.i != c.end {
			t.Errorf("literal(%q) at %d in %q: %s, at %d; want %s, at %d", c.lit, c.at, c.in, got, s.i, c.want, c.end)
		}
	}
}

// TestNumberMut reads numbers ending at the end of the input, after each of their
// parts, and stopping before what follows them. number is only called at '-' or a
// digit, but it answers for the end of input itself (line 99).
// Kills jsonscan.go:95:9 CONDITIONALS_BOUNDARY (s.i <= len(s.b): index out of range on
// empty input), 108:9, 114:9, 116:10 and 128:10 CONDITIONALS_BOUNDARY (a number that
// ends the input: "5", "1.5", "1e", "12"), 116:34 CONDITIONALS_NEGATION (an exponent
// without a sign read as signed: "1e5" refused).
func TestNumberMut(t *testing.T) {
	for _, c := range []struct {
		in, want string // want: the number's text, or the error
	}{
		{"", "end"},
		{"-", "end"},
		{"-x", "syntax@1"},
		{"x", "syntax@0"},
		{"0", "0"},
		{"-0", "-0"},
		{"5", "5"},
		{"12", "12"},
		{"01", "0"},
		{"-12]", "-12"},
		{"1.", "end"},
		{"1.x", "syntax@2"},
		{"1.5", "1.5"},
		{"1.50,", "1.50"},
		{"1e", "end"},
		{"1E", "end"},
		{"1e+", "end"},
		{"1e-", "end"},
		{"1ex", "syntax@2"},
		{"1e+x", "syntax@3"},
		{"1e5", "1e5"},
		{"1E5", "1E5"},
		{"1e+5", "1e+5"},
		{"1e-5", "1e-5"},
		{"1e05]", "1e05"},
		{"-0.5e-3", "-0.5e-3"},
		{"1.5E+10}", "1.5E+10"},
		{"7x", "7"},
	} {
		s := scanner{b: []byte(c.in)}
		text, err := s.number()
		got := scanErr(err, &s)
		if err == nil {
			got = string(text)
			if s.i != len(text) {
				t.Errorf("number(%q): at %d after %q", c.in, s.i, text)
			}
		}
		if got != c.want {
			t.Errorf("number(%q) = %s, want %s", c.in, got, c.want)
		}
		// The number's text is what ParseFloat reads in full.
		if err == nil {
			if _, perr := strconv.ParseFloat(string(text), 64); perr != nil {
				t.Errorf("number(%q) = %q: %v", c.in, text, perr)
			}
		}
	}
}

// TestStrMut reads strings cut short at each of their parts, with bad escapes and
// raw control bytes, checking the error's kind and the position.
// Kills jsonscan.go:138:7 CONDITIONALS_BOUNDARY (i > len(b): str at the end of input),
// 146:9 CONDITIONALS_BOUNDARY (i <= len(b): strPlain[b[len(b)]]), 149:8
// CONDITIONALS_BOUNDARY (i > len(b): b[len(b)]), 160:9 CONDITIONALS_BOUNDARY (a
// backslash that ends the input), 170:11 CONDITIONALS_BOUNDARY (\u cut short), and
// with the hex digits at each end of their ranges 216:35, 216:59, 216:71
// CONDITIONALS_BOUNDARY and 216:59, 216:71 CONDITIONALS_NEGATION (isHex).
func TestStrMut(t *testing.T) {
	for _, c := range []struct {
		in, want string // want: the raw contents and whether escaped, or the error
	}{
		{``, "end"},
		{`x`, "syntax@0"},
		{`"`, "end"},
		{`"abc`, "end"},
		{`"abc"`, "abc false"},
		{`""`, " false"},
		{`"a"b"`, "a false"},
		{`"é"`, "é false"},
		{"\"\x80\xff\"", "\x80\xff false"},
		{`"a\`, "end"},
		{`"a\"`, "end"},
		{`"a\"b"`, `a\"b true`},
		{`"\\\/\b\f\n\r\t"`, `\\\/\b\f\n\r\t true`},
		{`"\x"`, "syntax@2"},
		{`"\U0041"`, "syntax@2"},
		{`"\u`, "end"},
		{`"\u12`, "end"},
		{`"\u123`, "end"},
		{`"\u1234`, "end"},
		{`"\u1234"`, `\u1234 true`},
		{`"\u09aA"`, `\u09aA true`},
		{`"\ufFfF"`, `\ufFfF true`},
		{`"\uaaaa\uAAAA"`, `\uaaaa\uAAAA true`},
		{`"\u00e0\u00E0"`, `\u00e0\u00E0 true`},
		{`"\u00G0"`, "syntax@5"},
		{`"\u00g0"`, "syntax@5"},
		{`"\u00@0"`, "syntax@5"},
		{"\"\\u00`0\"", "syntax@5"},
		{`"\u00/0"`, "syntax@5"},
		{`"\u00:0"`, "syntax@5"},
		{`"\u00Z0"`, "syntax@5"},
		{`"\u12x4"`, "syntax@5"},
		{"\"a\tb\"", "syntax@2"},
		{"\"a\x00\"", "syntax@2"},
		{"\"a\x1f\"", "syntax@2"},
		{"\"a\x20\x7f\"", "a\x20\x7f false"},
	} {
		s := scanner{b: []byte(c.in)}
		raw, escaped, err := s.str()
		got := scanErr(err, &s)
		if err == nil {
			got = fmt.Sprint(string(raw), " ", escaped)
			if s.i != len(raw)+2 {
				t.Errorf("str(%q): at %d", c.in, s.i)
			}
		}
		if got != c.want {
			t.Errorf("str(%q) = %s, want %s", c.in, got, c.want)
		}
		// encoding/json agrees on what is a string (a prefix ending at s.i).
		if err == nil {
			var v string
			if uerr := stdjson.Unmarshal([]byte(c.in[:s.i]), &v); uerr != nil {
				t.Errorf("str(%q) read, encoding/json: %v", c.in, uerr)
			}
		} else if stdjson.Valid([]byte(c.in)) {
			t.Errorf("str(%q) refused, encoding/json reads it", c.in)
		}
	}
}

// TestIsHexMut checks isHex at every byte.
// Kills jsonscan.go:216:35 CONDITIONALS_BOUNDARY (c > 'a'), 216:59
// CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (c > 'A', c < 'A'), 216:71
// CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (c < 'F', c > 'F').
func TestIsHexMut(t *testing.T) {
	for c := range 256 {
		want := strings.IndexByte("0123456789abcdefABCDEF", byte(c)) >= 0
		if got := isHex(byte(c)); got != want {
			t.Errorf("isHex(%q) = %v", byte(c), got)
		}
	}
}

// TestUnquoteMut decodes string contents as encoding/json does: every escape,
// surrogate pairs and lone or misordered surrogates, the code points around the
// surrogates, valid UTF-8 and invalid bytes. EachInventoryRow decodes only keys, where
// none of these can turn into an ASCII letter, so this is visible only here.
// Kills jsonscan.go:264:9 and 264:35 CONDITIONALS_NEGATION (an invalid byte kept
// instead of U+FFFD), 291:47 CONDITIONALS_BOUNDARY (\ud800 not a surrogate: the pair
// \ud800\udc00 lost), 291:62 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (\ue000
// taken for a surrogate). Reaches the lines no test reached: 243–252 (surrogates),
// 267 (valid multi-byte UTF-8 in an escaped string), 279–284 (hex4's three digit
// ranges), 296–297 (utf16Decode).
func TestUnquoteMut(t *testing.T) {
	for _, raw := range []string{
		``, `abc`, `\"\\\/\b\f\n\r\t`, `a\u0041\u00e9\u00E9\uABCD\uabcd\u09aF`,
		`\ud83d\ude00`, `\uD83D\uDE00x`, `\ud800\udc00`, `\udbff\udfff`, `\ud800`,
		`\ud800x`, `\ud800\u0041`, `\ud800\n`, `\ud800abcdef`, `\udc00`, `\udc00\ud800`,
		`\ud800\ud800\udc00`, `\udc00\udc00`, `\ud800\ue000`, `\ud7ff`, `\ue000`, `\udfff`, `\uffff`, `\u0000`,
		`é\n`, "\\nK\u212a\u017f", "\x80", "a\xffb\\n", "\xe9", "\xef\xbf\xbd\\t",
		"\xed\xa0\x80\\t", "\xf0\x9f\x98\\t", "\xf0\x9f\x98\x80\\t", "\xc0\xaf\\t",
	} {
		var want string
		if err := stdjson.Unmarshal([]byte(`"`+raw+`"`), &want); err != nil {
			t.Fatalf("encoding/json %q: %v", raw, err)
		}
		if got := unquote([]byte(raw)); got != want {
			t.Errorf("unquote(%q) = %+q, encoding/json %+q", raw, got, want)
		}
	}
}

// TestKeyIsMut compares keyIs with encoding/json's key matching for names and keys
// made of the ASCII letters at the ends of their ranges ('a', 'z', 'A', 'Z'), the
// bytes next to them, which are not letters ('`', '{', '@', '['), and the two
// non-ASCII runes that fold to ASCII (U+017F, U+212A), and the empty key.
// Kills jsonscan.go:449:20 CONDITIONALS_BOUNDARY (a key's 'z' not upper-cased),
// 456:20 CONDITIONALS_BOUNDARY (a name's 'z' not upper-cased), 477:9 and 477:19
// CONDITIONALS_BOUNDARY (upper leaves 'a' or 'z': the first-byte check misses),
// 430:14 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (key[0] of the empty key).
func TestKeyIsMut(t *testing.T) {
	alpha := []string{"a", "z", "A", "Z", "`", "{", "@", "[", "k", "s", "\u017f", "\u212a", "é"}
	keys := []string{""}
	names := []string{"facet", "lastSeen", "hosts", "agents"}
	for _, x := range alpha {
		keys = append(keys, x)
		for _, y := range alpha {
			keys = append(keys, x+y)
		}
	}
	for _, x := range alpha[:10] { // tag names: ASCII
		if x == "`" {
			continue // not a valid tag name
		}
		names = append(names, x)
		for _, y := range alpha[:10] {
			if y != "`" {
				names = append(names, x+y)
			}
		}
	}
	for _, key := range keys {
		for _, name := range names {
			if got, want := keyIs([]byte(key), name), stdFoldEqual(key, name); got != want {
				t.Errorf("keyIs(%q, %q) = %v, encoding/json %v", key, name, got, want)
			}
		}
	}
}

// TestUpperIsASCIIMut checks upper and isASCII at every byte.
// Kills jsonscan.go:477:9 and 477:19 CONDITIONALS_BOUNDARY (upper('a'), upper('z')),
// 469:8 CONDITIONALS_BOUNDARY and CONDITIONALS_NEGATION (isASCII of 0x80, of ASCII).
// (isASCII only chooses whether object decodes a key before keyIs, which reads a
// byte 0x80 as U+FFFD either way: not visible through EachInventoryRow.)
func TestUpperIsASCIIMut(t *testing.T) {
	for c := range 256 {
		want := byte(c)
		if c < 0x80 {
			want = byte(unicode.ToUpper(rune(c)))
		}
		if got := upper(byte(c)); got != want {
			t.Errorf("upper(%q) = %q, want %q", byte(c), got, want)
		}
		if got := isASCII([]byte{'a', byte(c), 'z'}); got != (c < 0x80) {
			t.Errorf("isASCII(a%qz) = %v", byte(c), got)
		}
	}
	if !isASCII(nil) || isASCII([]byte("é")) || !isASCII([]byte("facet")) {
		t.Error("isASCII")
	}
}

// TestSmallIntMut checks which numbers smallInt converts (integers of 1 to 15
// digits) and that it converts them as ParseFloat does. float falls back on
// ParseFloat for what smallInt declines, so a smallInt that declines more is seen
// only here (a slower path); one that accepts more is seen by TestInventoryRowsAgree.
// Kills jsonscan.go:521:15 CONDITIONALS_NEGATION (declines all), 521:33
// CONDITIONALS_BOUNDARY (declines 15 digits) and CONDITIONALS_NEGATION (declines up
// to 15, overflows on more), 526:8 and 526:19 CONDITIONALS_BOUNDARY (declines '0',
// '9') and CONDITIONALS_NEGATION (declines every digit).
func TestSmallIntMut(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"0", true}, {"9", true}, {"10", true}, {"90", true}, {"1795175940000", true},
		{"999999999999999", true}, {"100000000000000", true},
		{"1000000000000000", false}, {"9007199254740993", false},
		{"123456789012345678901234", false},
		{"", false}, {"-5", false}, {"-0", false}, {"1.5", false}, {"1e5", false}, {"1E5", false},
		{"1/", false}, {"1:", false},
	} {
		v, ok := smallInt([]byte(c.in))
		if ok != c.ok {
			t.Errorf("smallInt(%q) ok = %v, want %v", c.in, ok, c.ok)
			continue
		}
		if ok {
			if want, _ := strconv.ParseFloat(c.in, 64); v != want {
				t.Errorf("smallInt(%q) = %v, ParseFloat %v", c.in, v, want)
			}
		}
	}
}

// checkStdRows compares EachInventoryRow with encoding/json alone on data, and checks
// that data is accepted or refused as ok says (for inputs past goccy's reach or
// where goccy and encoding/json need not agree, such as nesting at the limit).
func checkStdRows(t *testing.T, name string, data []byte, ok bool) {
	t.Helper()
	want, wantErr := decodeRows(stdjson.Unmarshal, data)
	if (wantErr == nil) != ok {
		t.Fatalf("%s: encoding/json error %v, test expects ok=%v", name, wantErr, ok)
	}
	got, n, err := scanRows(data)
	if (err == nil) != ok {
		t.Fatalf("%s: EachInventoryRow error %v, encoding/json %v", name, err, wantErr)
	}
	if ok && (n != len(want) || !sameRows(got, want)) {
		t.Fatalf("%s: %d rows, encoding/json %d", name, n, len(want))
	}
}

// TestDepthMut nests arrays and objects up to encoding/json's limit (maxDepth
// levels, counting the rows' array, the row and its facet array) and one past it,
// and closes many empty and non-empty arrays and objects in a row, so that depth
// must come back down at each close.
// Kills jsonscan.go:343:12 and 395:12 INCREMENT_DECREMENT (depth never grows:
// 10001 levels accepted), 343:24 and 395:24 CONDITIONALS_BOUNDARY (depth >=
// maxDepth: 10000 levels refused), 349:10, 381:11, 401:10 and 414:11
// INCREMENT_DECREMENT (a close that adds a level: 6000 closed values refused).
func TestDepthMut(t *testing.T) {
	nest := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	// objects(n) is n levels of objects: n-1 members "a" and an empty object within.
	objects := func(n int) string { return strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1) }
	for _, c := range []struct {
		name  string
		facet string // the facet array's items, nested from level 4 on
		ok    bool
	}{
		{"arrays at the limit", nest("[", "]", maxDepth-3), true},
		{"arrays past the limit", nest("[", "]", maxDepth-2), false},
		{"objects at the limit", objects(maxDepth - 3), true},
		{"objects past the limit", objects(maxDepth - 2), false},
		{"empty objects", strings.Repeat("{},", 6000) + "{}", true},
		{"objects", strings.Repeat(`{"a":1},`, 6000) + "{}", true},
		{"empty arrays", strings.Repeat("[],", 6000) + "[]", true},
		{"arrays", strings.Repeat("[1],", 6000) + "[]", true},
	} {
		data := []byte(`[{"facet":[` + c.facet + `],"lastSeen":1}]`)
		checkStdRows(t, c.name, data, c.ok)
		if _, err := EachInventoryRow(data, func(*InventoryRow) {}); !c.ok && !errors.Is(err, errTooDeep) {
			t.Errorf("%s: %v, want %v", c.name, err, errTooDeep)
		}
	}
	// Rows close too: 6000 rows of each kind.
	checkStdRows(t, "rows", []byte("["+strings.Repeat(`{"facet":[1]},{},null,`, 6000)+"{}]"), true)
}

// TestObjectArrayNotThereMut calls object and array where the next value is not an
// object or an array, which their callers (EachInventoryRow, skip) never do: each
// answers a syntax error at that value without moving past it, or errEnd at the end.
// Reaches jsonscan.go:340–342 and 392–394, which EachInventoryRow cannot.
func TestObjectArrayNotThereMut(t *testing.T) {
	for _, c := range []struct{ in, object, array string }{
		{"", "end", "end"},
		{"  ", "end", "end"},
		{" [", "syntax@1", "opens"},
		{" {", "opens", "syntax@1"},
		{"1", "syntax@0", "syntax@0"},
	} {
		s := scanner{b: []byte(c.in)}
		err := s.object(func(*scanner, []byte) error { return nil })
		if c.object == "opens" {
			if !errors.Is(err, errEnd) { // the object is cut short after '{'
				t.Errorf("object(%q) = %v", c.in, err)
			}
		} else if got := scanErr(err, &s); got != c.object {
			t.Errorf("object(%q) = %s, want %s", c.in, got, c.object)
		}
		s = scanner{b: []byte(c.in)}
		err = s.array(func(s *scanner) error { return s.skip() })
		if c.array == "opens" {
			if !errors.Is(err, errEnd) {
				t.Errorf("array(%q) = %v", c.in, err)
			}
		} else if got := scanErr(err, &s); got != c.array {
			t.Errorf("array(%q) = %s, want %s", c.in, got, c.array)
		}
	}
}
