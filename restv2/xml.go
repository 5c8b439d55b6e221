package restv2

import (
	"math"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

const (
	xmlDeclaration = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	// xmlFallbackRoot wraps root-less documents that do not emit exactly one value.
	xmlFallbackRoot = "hash"
	// xmlDefaultItem names array items when neither the item call nor BeginArray
	// gave a name.
	xmlDefaultItem = "item"
)

// XML appends doc rendered as indented XML to dst and returns the extended buffer.
// A nil doc renders as <hash/>.
func XML(dst []byte, doc Document) []byte {
	if md, ok := metricDataSource(doc); ok {
		return metricDataXML(dst, md) // the same bytes, written directly (metricdata.go)
	}
	e := xmlEncoders.Get().(*xmlEncoder)
	e.reset(dst)
	e.buf = append(e.buf, xmlDeclaration...)
	root := xmlFallbackRoot
	if doc != nil {
		root = doc.Root()
		if root == "" {
			e.probe = topCounter{}
			doc.EncodeV2(&e.probe)
			if e.probe.values != 1 {
				root = xmlFallbackRoot
			}
		}
	}
	if root != "" {
		e.begin(root, "", false)
	}
	e.base = len(e.stack)
	if doc != nil {
		doc.EncodeV2(e)
	}
	e.base = 0
	for len(e.stack) > 0 {
		e.end()
	}
	out := e.buf
	e.buf = nil
	xmlEncoders.Put(e)
	return out
}

// xmlEncoders recycles encoders (see jsonEncoders).
var xmlEncoders = sync.Pool{New: func() any { return new(xmlEncoder) }}

// xmlFrame is an open element.
type xmlFrame struct {
	name string // element name, already a valid XML name
	item string // arrays: default name of the items; "" for objects
	// pending: the start tag lacks its closing '>' because no child has been
	// written yet; an element closed in that state becomes self-closing.
	pending bool
}

// xmlEncoder implements Encoder.
type xmlEncoder struct {
	buf   []byte
	stack []xmlFrame
	// base is the depth of the wrapping root element; End calls never close it.
	base  int
	probe topCounter
}

var _ Encoder = (*xmlEncoder)(nil)

func (e *xmlEncoder) reset(dst []byte) {
	e.buf = dst
	clear(e.stack) // drop the names so the pool does not pin them
	e.stack = e.stack[:0]
	e.base = 0
}

// child prepares a child element of the innermost open element: it finishes that
// element's start tag when needed, indents, and returns the child's element name.
func (e *xmlEncoder) child(name string) string {
	n := len(e.stack)
	if n > 0 {
		top := &e.stack[n-1]
		if top.pending {
			e.buf = append(e.buf, '>', '\n')
			top.pending = false
		}
		if top.item != "" && name == "" {
			name = top.item
		}
	}
	e.indent(n)
	return xmlName(name)
}

func (e *xmlEncoder) indent(depth int) {
	const spaces = "                                                                "
	for n := 2 * depth; n > 0; n -= len(spaces) {
		e.buf = append(e.buf, spaces[:min(n, len(spaces))]...)
	}
}

func (e *xmlEncoder) begin(name, item string, array bool) {
	name = e.child(name)
	e.buf = append(e.buf, '<')
	e.buf = append(e.buf, name...)
	f := xmlFrame{name: name, pending: true}
	if array {
		f.item = xmlDefaultItem
		if item != "" {
			f.item = xmlName(item)
		}
	}
	e.stack = append(e.stack, f)
}

// end closes the innermost open element unless it is the wrapping root.
func (e *xmlEncoder) end() {
	n := len(e.stack)
	if n <= e.base {
		return
	}
	f := e.stack[n-1]
	e.stack[n-1] = xmlFrame{}
	e.stack = e.stack[:n-1]
	if f.pending {
		e.buf = append(e.buf, '/', '>', '\n')
		return
	}
	e.indent(n - 1)
	e.buf = append(e.buf, '<', '/')
	e.buf = append(e.buf, f.name...)
	e.buf = append(e.buf, '>', '\n')
}

// open writes <name> for a scalar and returns the element name for close.
func (e *xmlEncoder) open(name string) string {
	name = e.child(name)
	e.buf = append(e.buf, '<')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '>')
	return name
}

func (e *xmlEncoder) close(name string) {
	e.buf = append(e.buf, '<', '/')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '>', '\n')
}

func (e *xmlEncoder) BeginObject(name string) { e.begin(name, "", false) }

func (e *xmlEncoder) BeginArray(name, item string) { e.begin(name, item, true) }

func (e *xmlEncoder) EndObject() { e.end() }

func (e *xmlEncoder) EndArray() { e.end() }

func (e *xmlEncoder) Int(name string, v int64) {
	name = e.open(name)
	e.buf = strconv.AppendInt(e.buf, v, 10)
	e.close(name)
}

func (e *xmlEncoder) Float(name string, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		e.Null(name)
		return
	}
	name = e.open(name)
	e.buf = appendXMLFloat(e.buf, v)
	e.close(name)
}

// appendXMLFloat writes v in plain decimal notation with at least one decimal.
func appendXMLFloat(b []byte, v float64) []byte {
	if v == 0 {
		v = 0 // -0 → 0
	}
	start := len(b)
	b = appendFloat(b, v)
	for _, c := range b[start:] {
		if c == '.' {
			return b
		}
	}
	return append(b, '.', '0')
}

func (e *xmlEncoder) String(name string, v string) {
	name = e.open(name)
	e.buf = appendXMLText(e.buf, v)
	e.close(name)
}

func (e *xmlEncoder) Time(name string, t time.Time) {
	name = e.open(name)
	e.buf = appendTime(e.buf, t)
	e.close(name)
}

func (e *xmlEncoder) Bool(name string, v bool) {
	name = e.open(name)
	e.buf = strconv.AppendBool(e.buf, v)
	e.close(name)
}

func (e *xmlEncoder) Null(name string) {
	name = e.child(name)
	e.buf = append(e.buf, '<')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '/', '>', '\n')
}

// appendXMLText appends s as escaped XML character data (see the package
// documentation).
func appendXMLText(b []byte, s string) []byte {
	start := 0 // s[start:i] is pending, to be copied unchanged
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			var esc string
			switch {
			case c == '&':
				esc = "&amp;"
			case c == '<':
				esc = "&lt;"
			case c == '>':
				esc = "&gt;"
			case c == '\r':
				esc = "&#xD;"
			case c < 0x20 && c != '\t' && c != '\n':
				esc = "\ufffd"
			default:
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, esc...)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == 0xFFFE || r == 0xFFFF {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}

// xmlName returns name when it is a portable XML element name, else its sanitised
// form (see the package documentation). Only invalid names allocate.
func xmlName(name string) string {
	if isXMLName(name) {
		return name
	}
	b := make([]byte, 0, len(name)+1)
	if name == "" || !isNameStart(name[0]) {
		b = append(b, '_')
	}
	for _, r := range name { // invalid UTF-8 yields one RuneError per byte
		if r < utf8.RuneSelf && isNameChar(byte(r)) {
			b = append(b, byte(r))
		} else {
			b = append(b, '_')
		}
	}
	return string(b)
}

func isXMLName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

func isNameStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isNameChar(c byte) bool {
	return isNameStart(c) || ('0' <= c && c <= '9') || c == '-' || c == '.'
}

// topCounter is a Encoder that counts a document's top-level values, to find
// whether a root-less document has the single value that can be its root.
type topCounter struct {
	depth, values int
}

func (c *topCounter) begin() {
	if c.depth == 0 {
		c.values++
	}
	c.depth++
}

func (c *topCounter) end() {
	if c.depth > 0 {
		c.depth--
	}
}

func (c *topCounter) scalar() {
	if c.depth == 0 {
		c.values++
	}
}

func (c *topCounter) BeginObject(string)     { c.begin() }
func (c *topCounter) BeginArray(_, _ string) { c.begin() }
func (c *topCounter) EndObject()             { c.end() }
func (c *topCounter) EndArray()              { c.end() }
func (c *topCounter) Int(string, int64)      { c.scalar() }
func (c *topCounter) Float(string, float64)  { c.scalar() }
func (c *topCounter) String(string, string)  { c.scalar() }
func (c *topCounter) Bool(string, bool)      { c.scalar() }
func (c *topCounter) Null(string)            { c.scalar() }
func (c *topCounter) Time(string, time.Time) { c.scalar() }
