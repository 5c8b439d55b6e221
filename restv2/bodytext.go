package restv2

import (
	"bytes"
	"mime"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// IsFormBody reports whether a body carries form-encoded parameters: declared as
// such (curl -d sends application/x-www-form-urlencoded, also on GET), or undeclared
// and shaped like k=v pairs rather than JSON or XML.
func IsFormBody(contentType string, body []byte) bool {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return false
	}
	if contentType != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		if err == nil {
			switch mt {
			case "application/x-www-form-urlencoded":
				return true
			case "application/json", "application/xml", "text/xml":
				return false
			}
		}
	}
	return body[0] != '{' && body[0] != '[' && body[0] != '<' && bytes.IndexByte(body, '=') > 0
}

// Text rules of write bodies. They run on the raw bytes, before any
// decoder: Go's JSON decoder replaces invalid UTF-8 and lone surrogate escapes with
// U+FFFD, so a check after decoding cannot see them. A string value may not hold
// invalid UTF-8, a lone UTF-16 surrogate, NUL, or another control character (C0, DEL,
// C1); tab, newline and carriage return stay allowed, as in REST v2's free-text fields
// (changelog, description).

// CheckBodyText applies the text rules to a write body: a JSON body field by field, a
// form body parameter by parameter, anything else (XML) as a whole. The error is a
// 422 naming the field.
func CheckBodyText(contentType string, body []byte) error {
	if len(body) == 0 {
		return nil
	}
	var field, problem string
	switch {
	case IsFormBody(contentType, body):
		field, problem = formText(string(body))
	case isJSONBody(contentType, body):
		field, problem = jsonText(body)
	default:
		field, problem = "the request body", rawText(body)
	}
	if problem == "" {
		return nil
	}
	return Unprocessable(field + " " + problem)
}

func isJSONBody(contentType string, body []byte) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		return true
	}
	b := bytes.TrimSpace(body)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// formText checks each percent-decoded parameter name and value of a form body.
func formText(form string) (field, problem string) {
	for form != "" {
		var seg string
		seg, form, _ = strings.Cut(form, "&")
		k, v, _ := strings.Cut(seg, "=")
		key, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			continue // ParseParams answers malformed escapes with its own 400
		}
		if p := rawText([]byte(key)); p != "" {
			return "a parameter name", p
		}
		if p := rawText([]byte(value)); p != "" {
			return key, p
		}
	}
	return "", ""
}

// rawText checks decoded text: what is wrong with it, or "".
func rawText(b []byte) string {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			return "is not valid UTF-8"
		}
		if p := badRune(r); p != "" {
			return p
		}
		b = b[n:]
	}
	return ""
}

func badRune(r rune) string {
	switch {
	case r == 0:
		return "contains a NUL character"
	case r == '\t' || r == '\n' || r == '\r':
		return ""
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return "contains a control character (U+" + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + ")"
	case r >= 0xd800 && r <= 0xdfff:
		return "contains a lone UTF-16 surrogate"
	}
	return ""
}

// jsonFrame is one open container while scanning a JSON body.
type jsonFrame struct {
	object    bool
	expectKey bool
	key       string
	index     int
}

// jsonText scans a JSON body's string literals on the raw bytes, naming each by its
// path (deployment.revision, application_ids[2]). Structure errors are left to the
// decoder (a 400 later).
func jsonText(b []byte) (field, problem string) {
	var stack []jsonFrame
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			stack = append(stack, jsonFrame{object: true, expectKey: true})
		case '[':
			stack = append(stack, jsonFrame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].object {
					stack[n-1].expectKey = true
				} else {
					stack[n-1].index++
				}
			}
		case ':':
			if n := len(stack); n > 0 {
				stack[n-1].expectKey = false
			}
		case '"':
			end, p := jsonString(b, i+1)
			n := len(stack)
			if n > 0 && stack[n-1].object && stack[n-1].expectKey {
				stack[n-1].key = string(b[i+1 : min(end, len(b))])
				if p != "" {
					return jsonPath(stack[:n-1], "a field name"), p
				}
			} else if p != "" {
				return jsonPath(stack, "the request body"), p
			}
			i = end
		}
	}
	return "", ""
}

func jsonPath(stack []jsonFrame, whole string) string {
	var sb strings.Builder
	for _, f := range stack {
		switch {
		case f.object && sb.Len() > 0:
			sb.WriteString("." + f.key)
		case f.object:
			sb.WriteString(f.key)
		default:
			sb.WriteString("[" + strconv.Itoa(f.index) + "]")
		}
	}
	if sb.Len() == 0 {
		return whole
	}
	return sb.String()
}

// jsonString checks the string literal starting at b[i] (after its opening quote) and
// returns the index of its closing quote and what is wrong with it ("" when nothing).
func jsonString(b []byte, i int) (end int, problem string) {
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i, problem
		case c == '\\' && i+1 < len(b):
			if b[i+1] != 'u' {
				i += 2
				continue
			}
			r, ok := hex4(b, i+2)
			if !ok {
				i += 2
				continue // malformed escape: the decoder's 400
			}
			i += 6
			if r >= 0xd800 && r <= 0xdbff {
				if lo, ok := hex4(b, i+2); ok && i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' && lo >= 0xdc00 && lo <= 0xdfff {
					i += 6
					continue
				}
			}
			if p := badRune(r); p != "" && problem == "" {
				problem = p
			}
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 && problem == "" {
				problem = "is not valid UTF-8"
			} else if p := badRune(r); p != "" && problem == "" {
				problem = p
			}
			i += max(n, 1)
		}
	}
	return len(b), problem
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}
