package restv2

import (
	"errors"
	"testing"
)

// TestIsFormBodyByTypeOrShape: a declared form is a form whatever its shape, a declared JSON or XML
// body never is; an undeclared (or unknown) type is a form when shaped like k=v.
func TestIsFormBodyByTypeOrShape(t *testing.T) {
	tests := []struct {
		ct, body string
		want     bool
	}{
		{"", "", false},
		{"", "  ", false},
		{"", "a=b", true},
		{"", " a=b&c=d ", true},
		{"", "=b", false},
		{"", "ab", false},
		{"", `{"a":"="}`, false},
		{"", `[{"a":"="}]`, false},
		{"", `<a b="c"/>`, false},
		{"application/x-www-form-urlencoded", `{"a":1}`, true},
		{"application/x-www-form-urlencoded; charset=utf-8", "ab", true},
		{"application/json", "a=b", false},
		{"application/xml", "a=b", false},
		{"text/xml", "a=b", false},
		{"text/plain", "a=b", true},
		{"text/plain", "ab", false},
		{"not a media type;;", "a=b", true},
	}
	for _, tt := range tests {
		if got := IsFormBody(tt.ct, []byte(tt.body)); got != tt.want {
			t.Errorf("IsFormBody(%q, %q) = %v, want %v", tt.ct, tt.body, got, tt.want)
		}
	}
}

// TestBadRuneEdges: the edges of each class: NUL; tab, newline and carriage return
// allowed; the other C0 controls, DEL and the C1 controls (0x80 to 0x9f) refused and
// named by their U+ code in upper-case hex; the surrogate range.
func TestBadRuneEdges(t *testing.T) {
	for r, want := range map[rune]string{
		0: "contains a NUL character", '\t': "", '\n': "", '\r': "",
		0x01: "contains a control character (U+1)", 0x1f: "contains a control character (U+1F)", 0x20: "",
		0x7e: "", 0x7f: "contains a control character (U+7F)", 0x80: "contains a control character (U+80)",
		0x9f: "contains a control character (U+9F)", 0xa0: "", 0x0b: "contains a control character (U+B)",
		0xd7ff: "", 0xd800: "contains a lone UTF-16 surrogate", 0xdfff: "contains a lone UTF-16 surrogate", 0xe000: "",
	} {
		if got := badRune(r); got != want {
			t.Errorf("badRune(%U) = %q, want %q", r, got, want)
		}
	}
}

// TestCheckBodyText: which body is read how, the field each problem is named by,
// and the surrogate-pair rule on escapes (jsonText's frames and paths, jsonString's
// escapes and pair bounds, hex4's bound).
func TestCheckBodyText(t *testing.T) {
	tests := []struct {
		name, ct, body, want string // want: the 422 title, "" for accepted
	}{
		{"empty", "application/json", "", ""},
		{"plain JSON", "application/json", `{"deployment":{"revision":"v1\tok"}}`, ""},
		{"nested field", "application/json", `{"deployment":{"user":"a","revision":"v1` + "\x01" + `"}}`, "deployment.revision contains a control character (U+1)"},
		{"array index", "application/json", `{"ids":["a","b","c` + "\x00" + `"]}`, "ids[2] contains a NUL character"},
		{"nested arrays", "application/json", `[["a"],["b","\u0007"]]`, "[1][1] contains a control character (U+7)"},
		{"top-level string", "application/json", `"\u0000"`, "the request body contains a NUL character"},
		{"bad field name", "application/json", `{"a":{"b\u0001":1}}`, "a contains a control character (U+1)"},
		{"bad top field name", "application/json", `{"x\u0001":1}`, "a field name contains a control character (U+1)"},
		{"field after an object", "application/json", `{"a":{"b":1},"c":"\u007f"}`, "c contains a control character (U+7F)"},
		{"value after a colon is not a key", "application/json", `{"k":"v` + "\x1f" + `"}`, "k contains a control character (U+1F)"},
		{"invalid UTF-8", "application/json", "{\"a\":\"\xff\"}", "a is not valid UTF-8"},
		{"first problem wins", "application/json", "{\"a\":\"\\u0000\xff\"}", "a contains a NUL character"},
		{"valid 2-byte", "application/json", `{"a":"é日本🚀"}`, ""},
		{"C1 raw", "application/json", "{\"a\":\"\u0085\"}", "a contains a control character (U+85)"},
		{"surrogate pair escape", "application/json", `{"a":"\ud83d\ude80"}`, ""},
		{"lone high surrogate", "application/json", `{"a":"\ud83d"}`, "a contains a lone UTF-16 surrogate"},
		{"lone high then other escape", "application/json", `{"a":"\ud83d\u0041"}`, "a contains a lone UTF-16 surrogate"},
		{"high then high", "application/json", `{"a":"\udbff\udbff\udc00"}`, "a contains a lone UTF-16 surrogate"},
		{"last high + first low", "application/json", `{"a":"\udbff\udc00"}`, ""},
		{"first high + last low", "application/json", `{"a":"\ud800\udfff"}`, ""},
		{"lone low surrogate", "application/json", `{"a":"\udc00"}`, "a contains a lone UTF-16 surrogate"},
		{"high surrogate then text", "application/json", `{"a":"\ud800x"}`, "a contains a lone UTF-16 surrogate"},
		{"high surrogate at the end", "application/json", `{"a":"\ud800`, "a contains a lone UTF-16 surrogate"},
		{"high surrogate, backslash at the end", "application/json", `{"a":"\ud800\`, "a contains a lone UTF-16 surrogate"},
		{"escaped quote and backslash", "application/json", `{"a":"q\"\\","b":"\u0001"}`, "b contains a control character (U+1)"},
		{"short escape at the end", "application/json", `{"a":"\u00`, ""},
		{"bad hex escape", "application/json", `{"a":"\uzzzz","b":"\u0002"}`, "b contains a control character (U+2)"},
		{"escape of U+001F", "application/json", `{"a":"\u001F"}`, "a contains a control character (U+1F)"},
		{"escape of a space", "application/json", `{"a":"\u0020"}`, ""},
		{"unterminated string", "application/json", "{\"a\":\"\x01", "a contains a control character (U+1)"},
		{"+json content type", "application/vnd.api+json", `{"a":"\u0000"}`, "a contains a NUL character"},
		{"JSON body without its type", "text/plain", ` {"a":"\u0000"}`, "a contains a NUL character"},
		{"JSON array body without its type", "", `["\u0000"]`, "[0] contains a NUL character"},
		{"form", "application/x-www-form-urlencoded", "deployment%5Brevision%5D=v%01&x=1", "deployment[revision] contains a control character (U+1)"},
		{"form name", "application/x-www-form-urlencoded", "a%00=1", "a parameter name contains a NUL character"},
		{"form malformed escape skipped", "application/x-www-form-urlencoded", "a=%zz&b=%FF", "b is not valid UTF-8"},
		{"form fine", "application/x-www-form-urlencoded", "a=1&b=caf%C3%A9&c", ""},
		{"raw body", "application/xml", "<a>\x00</a>", "the request body contains a NUL character"},
		{"raw body fine", "application/xml", "<a>\t</a>", ""},
	}
	for _, tt := range tests {
		err := CheckBodyText(tt.ct, []byte(tt.body))
		var ve *Error
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tt.name, err)
		case tt.want != "" && (!errors.As(err, &ve) || ve.Status != 422 || ve.Title != tt.want):
			t.Errorf("%s: %v, want 422 %q", tt.name, err, tt.want)
		}
	}
}

// TestJSONTextStrayPunctuation: a closing bracket, a comma or a colon outside any object
// or array (a body the decoder will refuse with 400) is skipped, and the field after it is
// still named.
func TestJSONTextStrayPunctuation(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{`}`, ""},
		{`]`, ""},
		{`,`, ""},
		{`:`, ""},
		{`}{"a":"\u0001"}`, "a contains a control character (U+1)"},
		{`,{"b":"\u0002"}`, "b contains a control character (U+2)"},
		{`:["\u0003"]`, "[0] contains a control character (U+3)"},
	} {
		err := CheckBodyText("application/json", []byte(tt.body))
		var ve *Error
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v, want accepted", tt.body, err)
		case tt.want != "" && (!errors.As(err, &ve) || ve.Status != 422 || ve.Title != tt.want):
			t.Errorf("%q: %v, want 422 %q", tt.body, err, tt.want)
		}
	}
}

// TestBlankBodyNotJSON: a body of white space only, without a content type, is not JSON
// (and has nothing to check).
func TestBlankBodyNotJSON(t *testing.T) {
	for _, body := range []string{" ", "\r\n\t "} {
		if isJSONBody("", []byte(body)) {
			t.Errorf("isJSONBody(%q) = true", body)
		}
		if err := CheckBodyText("", []byte(body)); err != nil {
			t.Errorf("CheckBodyText(%q) = %v, want accepted", body, err)
		}
	}
}

// TestJSONEscapeCutShortInSpareCapacity: a \u escape cut short by the end of the body is
// never completed from bytes past the body's end (a body read into a larger buffer has them
// in its capacity).
func TestJSONEscapeCutShortInSpareCapacity(t *testing.T) {
	full := []byte(`{"a":"\u0001"}`)
	for _, b := range [][]byte{full[:10], full[:10:10], full[:8], full[:8:8]} {
		if err := CheckBodyText("application/json", b); err != nil {
			t.Errorf("%q (capacity %d): %v, want accepted (the escape is cut short)", b, cap(b), err)
		}
	}
}

func TestIsFormBody(t *testing.T) {
	tests := []struct {
		ct, body string
		want     bool
	}{
		{"application/x-www-form-urlencoded", "names[]=HttpDispatcher", true},
		{"application/x-www-form-urlencoded; charset=utf-8", "a=b", true},
		{"", "filter[name]=x", true},
		{"", `{"deployment":{}}`, false},
		{"application/json", "a=b", false},
		{"", "", false},
		{"", "<application/>", false},
		{"text/plain", "justtext", false},
	}
	for _, tt := range tests {
		if got := IsFormBody(tt.ct, []byte(tt.body)); got != tt.want {
			t.Errorf("IsFormBody(%q, %q) = %v", tt.ct, tt.body, got)
		}
	}
}
