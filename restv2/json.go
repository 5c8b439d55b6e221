package restv2

import (
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// JSON appends doc rendered as compact JSON to dst and returns the extended buffer.
// A nil doc renders as {}.
func JSON(dst []byte, doc Document) []byte {
	if md, ok := metricDataSource(doc); ok {
		return metricDataJSON(dst, md) // the same bytes, written directly (metricdata.go)
	}
	// The same bytes, written directly (applications.go).
	switch d := doc.(type) {
	case *ApplicationList:
		if d != nil {
			return applicationListJSON(dst, d)
		}
	case *ApplicationShow:
		if d != nil {
			return applicationShowJSON(dst, d)
		}
	}
	return genericJSON(dst, doc)
}

// genericJSON is JSON through the generic encoder (doc's EncodeV2).
func genericJSON(dst []byte, doc Document) []byte {
	e := jsonEncoders.Get().(*jsonEncoder)
	e.reset(dst)
	e.buf = append(e.buf, '{')
	if doc != nil {
		doc.EncodeV2(e)
	}
	for len(e.stack) > 0 {
		e.end()
	}
	out := append(e.buf, '}')
	e.buf = nil
	jsonEncoders.Put(e)
	return out
}

// jsonEncoders recycles encoders: handing one to EncodeV2 as an interface makes it
// escape, and the pool keeps a render free of allocations.
var jsonEncoders = sync.Pool{New: func() any { return new(jsonEncoder) }}

// jsonEncoder implements Encoder. The top-level object is implicit (opened and
// closed by JSON); stack holds one entry per container opened inside it, true for
// arrays.
type jsonEncoder struct {
	buf   []byte
	stack []bool
	// comma is set when the next member or item needs a separator.
	comma bool
}

var _ Encoder = (*jsonEncoder)(nil)

func (e *jsonEncoder) reset(dst []byte) {
	e.buf = dst
	e.stack = e.stack[:0]
	e.comma = false
}

// key starts a value: the separator and, inside an object, the quoted member name.
func (e *jsonEncoder) key(name string) {
	if e.comma {
		e.buf = append(e.buf, ',')
	}
	e.comma = true
	if n := len(e.stack); n == 0 || !e.stack[n-1] {
		e.buf = appendJSONString(e.buf, name)
		e.buf = append(e.buf, ':')
	}
}

func (e *jsonEncoder) BeginObject(name string) {
	e.key(name)
	e.buf = append(e.buf, '{')
	e.stack = append(e.stack, false)
	e.comma = false
}

func (e *jsonEncoder) BeginArray(name, _ string) {
	e.key(name)
	e.buf = append(e.buf, '[')
	e.stack = append(e.stack, true)
	e.comma = false
}

func (e *jsonEncoder) EndObject() { e.end() }

func (e *jsonEncoder) EndArray() { e.end() }

// end closes the innermost open container; with none open it does nothing.
func (e *jsonEncoder) end() {
	n := len(e.stack)
	if n == 0 {
		return
	}
	if e.stack[n-1] {
		e.buf = append(e.buf, ']')
	} else {
		e.buf = append(e.buf, '}')
	}
	e.stack = e.stack[:n-1]
	e.comma = true
}

func (e *jsonEncoder) Int(name string, v int64) {
	e.key(name)
	e.buf = strconv.AppendInt(e.buf, v, 10)
}

func (e *jsonEncoder) Float(name string, v float64) {
	e.key(name)
	e.buf = appendJSONFloat(e.buf, v)
}

func (e *jsonEncoder) String(name string, v string) {
	e.key(name)
	e.buf = appendJSONString(e.buf, v)
}

func (e *jsonEncoder) Time(name string, t time.Time) {
	e.key(name)
	e.buf = append(e.buf, '"')
	e.buf = appendTime(e.buf, t) // digits, '-', ':', '+', 'T': nothing to escape
	e.buf = append(e.buf, '"')
}

func (e *jsonEncoder) Bool(name string, v bool) {
	e.key(name)
	e.buf = strconv.AppendBool(e.buf, v)
}

func (e *jsonEncoder) Null(name string) {
	e.key(name)
	e.buf = append(e.buf, "null"...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a quoted JSON string (see the package documentation
// for the escaping rules).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	// Most strings (every member name, most values) are printable ASCII without a
	// quote or a backslash: found eight bytes at a time and copied at once.
	i := 0
	for i+8 <= len(s) && plainASCII8(s[i:i+8]) {
		i += 8
	}
	for i < len(s) && s[i] >= 0x20 && s[i] < utf8.RuneSelf && s[i] != '"' && s[i] != '\\' {
		i++
	}
	if i == len(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0 // s[start:i] is pending, to be copied unchanged
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainASCII8 reports whether the 8 bytes of s are all ASCII at or above 0x20 and
// none is '"' or '\\' (the bit tricks of "Bit Twiddling Hacks", Sean Eron Anderson,
// graphics.stanford.edu/~seander/bithacks.html#HasLessInWord).
func plainASCII8(s string) bool {
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote := w ^ (ones * '"')
	slash := w ^ (ones * '\\')
	return (w|(quote-ones)&^quote|(slash-ones)&^slash|(w-ones*0x20)&^w)&highs == 0
}
