package graphql

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// scanner reads JSON text (RFC 8259) in one pass without reflection, for the few
// selections decoded by hand (EachInventoryRow). It accepts and
// refuses exactly what encoding/json and goccy/go-json accept and refuse for these
// shapes (TestInventoryRowsAgree, FuzzInventoryRows): strict number and
// literal grammar, no raw control characters in strings, valid escapes, invalid UTF-8
// kept (replaced by U+FFFD where a string is decoded), nesting at most maxDepth.
type scanner struct {
	b     []byte
	i     int
	depth int
}

// maxDepth is encoding/json's nesting limit (encoding/json scanner.go maxNestingDepth).
const maxDepth = 10000

var (
	errSyntax   = errors.New("invalid JSON")
	errEnd      = errors.New("unexpected end of JSON input")
	errTooDeep  = errors.New("exceeded max depth")
	errNotArray = errors.New("not an array")
)

// syntax is a syntax error at the scanner's position.
func (s *scanner) syntax() error {
	if s.i >= len(s.b) {
		return errEnd
	}
	return fmt.Errorf("%w: unexpected %q at offset %d", errSyntax, s.b[s.i], s.i)
}

func (s *scanner) ws() {
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return // the common case: compact JSON
	}
	i := s.i
	for i < len(s.b) && (s.b[i] == ' ' || s.b[i] == '\n' || s.b[i] == '\t' || s.b[i] == '\r') {
		i++
	}
	s.i = i
}

// peek returns the next byte after white space (0 at the end).
func (s *scanner) peek() byte {
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// end reports an error unless only white space is left.
func (s *scanner) end() error {
	s.ws()
	if s.i != len(s.b) {
		return s.syntax()
	}
	return nil
}

// literal reads true, false or null.
func (s *scanner) literal(lit string) error {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		for k := 0; k < len(lit); k++ { // report the first byte that differs
			if s.i >= len(s.b) || s.b[s.i] != lit[k] {
				return s.syntax()
			}
			s.i++
		}
	}
	s.i += len(lit)
	return nil
}

// null reads a null when one is next (after white space).
func (s *scanner) null() (bool, error) {
	if s.peek() != 'n' {
		return false, nil
	}
	return true, s.literal("null")
}

// number reads a JSON number and returns its text.
func (s *scanner) number() ([]byte, error) {
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i >= len(s.b):
		return nil, errEnd
	case s.b[s.i] == '0':
		s.i++
	case s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return nil, s.syntax()
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if !s.digits() {
			return nil, s.syntax()
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return nil, s.syntax()
		}
	}
	return s.b[start:s.i], nil
}

func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// str reads a string at the scanner's position (its opening quote) and returns its
// contents as written (escapes not decoded) and whether it has an escape.
func (s *scanner) str() (raw []byte, escaped bool, err error) {
	b, i := s.b, s.i // locals: the loop below is the scanner's hottest
	if i >= len(b) || b[i] != '"' {
		return nil, false, s.syntax()
	}
	i++
	start := i
	for i < len(b) {
		// Eight bytes at a time to the first byte that stops a string's plain run
		// (stop8), then a table lookup per byte.
		for i+8 <= len(b) {
			if m := stop8(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		for i < len(b) && strPlain[b[i]] == 1 {
			i++
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			s.i = i + 1
			return b[start:i], escaped, nil
		case c == '\\':
			escaped = true
			i++
			if i >= len(b) {
				s.i = i
				return nil, false, errEnd
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				i++
				for k := 0; k < 4; k++ {
					if i >= len(b) {
						s.i = i
						return nil, false, errEnd
					}
					if !isHex(b[i]) {
						s.i = i
						return nil, false, s.syntax()
					}
					i++
				}
			default:
				s.i = i
				return nil, false, s.syntax()
			}
		case c < 0x20:
			s.i = i
			return nil, false, s.syntax()
		default:
			i++
		}
	}
	s.i = i
	return nil, false, errEnd
}

// stop8 has the high bit set in the lowest byte of w (little-endian) that is '"',
// '\\' or a control character (below 0x20), and possibly in higher bytes; 0 when there
// is none. The bit tricks of "Bit Twiddling Hacks" (Sean Eron Anderson,
// graphics.stanford.edu/~seander/bithacks.html#ValueInWord and #HasLessInWord): a
// borrow can only mark bytes above the first true one, so the lowest mark is exact
// (TestStop8).
func stop8(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote := w ^ (ones * '"')
	slash := w ^ (ones * '\\')
	return ((quote-ones)&^quote | (slash-ones)&^slash | (w-ones*0x20)&^w) & highs
}

// strPlain is 1 at the bytes a string holds as written: not '"', '\\' or a control
// character.
const strPlain = "" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x01\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// unquote decodes the contents of a valid JSON string (encoding/json decode.go
// unquoteBytes: the same replacements of invalid input).
func unquote(raw []byte) string {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			i++
			switch raw[i] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(raw[i+1:])
				i += 4
				if utf16IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
						r2 = hex4(raw[i+3:])
					}
					if dec := utf16Decode(r, r2); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						i += 6
						break
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
			default: // '"', '\\', '/'
				out = append(out, raw[i])
			}
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				out = append(out, "\ufffd"...)
			} else {
				out = append(out, raw[i:i+size]...)
			}
			i += size
		}
	}
	return string(out)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

func utf16IsSurrogate(r rune) bool { return r >= 0xd800 && r < 0xe000 }

// utf16Decode is unicode/utf16.DecodeRune: a high and a low surrogate make one rune;
// anything else is U+FFFD.
func utf16Decode(r1, r2 rune) rune {
	if r1 >= 0xd800 && r1 < 0xdc00 && r2 >= 0xdc00 && r2 < 0xe000 {
		return (r1-0xd800)<<10 | (r2 - 0xdc00) + 0x10000
	}
	return utf8.RuneError
}

// value reads any JSON value and returns its text.
func (s *scanner) value() ([]byte, error) {
	s.ws()
	start := s.i
	if err := s.skip(); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}

// skip reads any JSON value (after white space).
func (s *scanner) skip() error {
	switch c := s.peek(); {
	case c == '"':
		_, _, err := s.str()
		return err
	case c == '{':
		return s.object(func(*scanner, []byte) error { return nil })
	case c == '[':
		return s.array(func(s *scanner) error { return s.skip() })
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		_, err := s.number()
		return err
	default:
		return s.syntax()
	}
}

// object reads an object; member is called for each member with the scanner at its
// value (after the colon) and must read that value or leave it to object (which
// skips what member did not read).
func (s *scanner) object(member func(s *scanner, key []byte) error) error {
	if s.peek() != '{' {
		return s.syntax()
	}
	if s.depth++; s.depth > maxDepth {
		return errTooDeep
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		s.ws()
		raw, escaped, err := s.str()
		if err != nil {
			return err
		}
		key := raw
		if escaped || !isASCII(raw) && !utf8.Valid(raw) {
			key = []byte(unquote(raw))
		}
		if s.peek() != ':' {
			return s.syntax()
		}
		s.i++
		s.ws()
		at := s.i
		if err := member(s, key); err != nil {
			return err
		}
		if s.i == at {
			if err := s.skip(); err != nil {
				return err
			}
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return s.syntax()
		}
	}
}

// array reads an array, calling item with the scanner at each item, which it must
// read.
func (s *scanner) array(item func(s *scanner) error) error {
	if s.peek() != '[' {
		return s.syntax()
	}
	if s.depth++; s.depth > maxDepth {
		return errTooDeep
	}
	s.i++
	if s.peek() == ']' {
		s.i++
		s.depth--
		return nil
	}
	for {
		s.ws()
		if err := item(s); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return s.syntax()
		}
	}
}

// keyIs reports whether a member's key selects the field name (ASCII), as
// encoding/json matches keys: exactly, or after both are folded rune by rune to
// the smallest rune of its simple case-folding orbit (encoding/json fold.go
// appendFoldedName: an ASCII letter's upper case, 'S' for U+017F, 'K' for U+212A).
func keyIs(key []byte, name string) bool {
	if len(key) == len(name) && string(key) == name {
		return true
	}
	if len(key) > 0 && key[0] < utf8.RuneSelf && upper(key[0]) != upper(name[0]) {
		return false // the common miss: another field's name
	}
	j := 0
	for i := 0; i < len(key); {
		var r rune
		if c := key[i]; c < utf8.RuneSelf {
			r = rune(c)
			i++
		} else {
			var n int
			r, n = utf8.DecodeRune(key[i:])
			least := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				least = min(least, f)
			}
			r = least
			i += n
		}
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		if j >= len(name) {
			return false
		}
		c := rune(name[j])
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if r != c {
			return false
		}
		j++
	}
	return j == len(name)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// float reads a number into a float64 field as encoding/json does: null leaves it,
// anything but a number is an error, and so is a number out of float64's range.
func (s *scanner) float(dst *float64) error {
	switch c := s.peek(); {
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		text, err := s.number()
		if err != nil {
			return err
		}
		if v, ok := smallInt(text); ok {
			*dst = v
			return nil
		}
		v, err := strconv.ParseFloat(string(text), 64)
		if err != nil {
			return fmt.Errorf("number %s: %w", text, err)
		}
		*dst = v
		return nil
	default:
		return s.typeError("number")
	}
}

// typeError reads the value of the wrong type (so that a syntax error still wins, as
// in encoding/json) and returns a type error.
func (s *scanner) typeError(want string) error {
	if err := s.skip(); err != nil {
		return err
	}
	return fmt.Errorf("json: cannot unmarshal into a %s", want)
}

// smallInt converts a number written as at most 15 digits (an integer below 2^53, as
// epoch milliseconds are), which float64 holds exactly: ParseFloat's result, faster.
func smallInt(text []byte) (float64, bool) {
	if len(text) == 0 || len(text) > 15 {
		return 0, false
	}
	var n uint64
	for _, c := range text {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return float64(n), true
}
