package graphql

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

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

// TestScanLiteral reads true, false and null at the end of the input, cut short, and
// misspelled in the last byte, checking the error's kind and the position reached. The
// input may be a prefix of a longer buffer (as a pooled body is) whose spare capacity
// goes on with the literal: the literal must not be read from beyond len(s.b).
func TestScanLiteral(t *testing.T) {
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

// TestScanNumber reads numbers ending at the end of the input, after each of their
// parts, and stopping before what follows them. number is only called at '-' or a
// digit, but it answers for the end of input itself.
func TestScanNumber(t *testing.T) {
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

// TestScanString reads strings cut short at each of their parts, with bad escapes, raw
// control bytes and hex digits at each end of their ranges, checking the error's kind
// and the position.
func TestScanString(t *testing.T) {
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

// TestIsHex checks isHex at every byte.
func TestIsHex(t *testing.T) {
	for c := range 256 {
		want := strings.IndexByte("0123456789abcdefABCDEF", byte(c)) >= 0
		if got := isHex(byte(c)); got != want {
			t.Errorf("isHex(%q) = %v", byte(c), got)
		}
	}
}

// TestUnquoteAsEncodingJSON decodes string contents as encoding/json does: every escape,
// surrogate pairs and lone or misordered surrogates, the code points around the
// surrogates, valid UTF-8 and invalid bytes. EachInventoryRow decodes only keys, where
// none of these can turn into an ASCII letter, so this is visible only here.
func TestUnquoteAsEncodingJSON(t *testing.T) {
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

// TestSmallIntAsParseFloat checks which numbers smallInt converts (integers of 1 to 15
// digits) and that it converts them as ParseFloat does. float falls back on ParseFloat
// for what smallInt declines, so a smallInt that declines more is seen only here (a
// slower path); one that accepts more is seen by TestInventoryRowsAgree.
func TestSmallIntAsParseFloat(t *testing.T) {
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
