package restv2

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenDocs are rendered in both formats and compared with testdata/<name>.golden.*.
func goldenDocs() []struct {
	name string
	doc  Document
} {
	list := exampleAppList()
	list.withLinks = true
	return []struct {
		name string
		doc  Document
	}{
		{"applications_list", list},
		{"metric_data", exampleMetricDataJSON()},
		{"metric_data_2014", exampleMetricDataXML()},
		{"error", ErrNoAPIKey()},
		{"error_messages", Unprocessable("Validation error occurred when updating the application",
			"name can't be blank", "<field> <problem>")},
		{"empty", EmptyDocument{}},
		{"empty_root", docFunc{root: "servers_response", enc: func(Encoder) {}}},
		{"rootless_many", docFunc{enc: func(e Encoder) {
			e.Int("a", 1)
			e.Int("b", 2)
		}}},
		{"rootless_array", docFunc{enc: func(e Encoder) {
			e.BeginArray("channels", "channel")
			e.BeginObject("channel")
			e.Int("id", 7)
			e.EndObject()
			e.EndArray()
		}}},
		{"kitchen_sink", kitchenSink()},
	}
}

func TestGolden(t *testing.T) {
	for _, tt := range goldenDocs() {
		for _, f := range []struct {
			ext    string
			render func([]byte, Document) []byte
		}{{"json", JSON}, {"xml", XML}} {
			t.Run(tt.name+"."+f.ext, func(t *testing.T) {
				got := f.render(nil, tt.doc)
				path := filepath.Join("testdata", tt.name+".golden."+f.ext)
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./restv2 -update)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s (run go test ./restv2 -update):\ngot:\n%s\nwant:\n%s", f.ext, path, got, want)
				}
			})
		}
	}
}

// TestReproducesRESTExamples checks the renderers against real REST v2 bodies.
func TestReproducesRESTExamples(t *testing.T) {
	tests := []struct {
		give    Document
		fixture string
	}{
		{exampleAppList(), "applications_list.json"},
		{exampleMetricDataJSON(), "metric_data.json"},
		{ErrNoAPIKey(), "error_401_no_api_key.json"},
		{Unprocessable("Validation error occurred when updating the application", "<field> <problem>"),
			"error_with_messages.reconstructed.json"},
		{exampleMetricDataXML(), "metric_data_response.xml"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("..", "tests", "testdata", "restv2", tt.fixture))
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(tt.fixture, ".xml") {
				if got := XML(nil, tt.give); !bytes.Equal(got, want) {
					t.Errorf("XML differs from the captured body:\ngot:\n%s\nwant:\n%s", got, want)
				}
				return
			}
			got := JSON(nil, tt.give)
			var gotV, wantV any
			if err := json.Unmarshal(got, &gotV); err != nil {
				t.Fatalf("invalid JSON %s: %v", got, err)
			}
			if err := json.Unmarshal(want, &wantV); err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(gotV, wantV) {
				t.Errorf("not JSON-equal:\ngot  %s\nwant %s", got, want)
			}
			// Stronger: same key order and number formatting as the example.
			var compact bytes.Buffer
			if err := json.Compact(&compact, want); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, compact.Bytes()) {
				t.Errorf("not byte-equal to the compacted example:\ngot  %s\nwant %s", got, compact.Bytes())
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	ab, _ := json.Marshal(a) // maps marshal with sorted keys
	bb, _ := json.Marshal(b)
	return bytes.Equal(ab, bb)
}

// TestJSONAndXMLMirror parses both renderings of every golden document and checks
// that the XML tree mirrors the JSON value key for key.
func TestJSONAndXMLMirror(t *testing.T) {
	for _, tt := range goldenDocs() {
		t.Run(tt.name, func(t *testing.T) {
			j := JSON(nil, tt.doc)
			x := XML(nil, tt.doc)
			jv, err := parseJSONTree(j)
			if err != nil {
				t.Fatalf("JSON does not parse: %v\n%s", err, j)
			}
			xe, err := parseXMLTree(x)
			if err != nil {
				t.Fatalf("XML does not parse: %v\n%s", err, x)
			}
			switch root := tt.doc.Root(); {
			case root != "":
				checkName(t, "root", xe, root)
				mirror(t, root, jv, xe)
			case len(jv.keys) == 1:
				checkName(t, "root", xe, jv.keys[0])
				mirror(t, jv.keys[0], jv.members[0], xe)
			default:
				checkName(t, "root", xe, xmlFallbackRoot)
				mirror(t, xmlFallbackRoot, jv, xe)
			}
		})
	}
}

// jsonNode is a parsed JSON value that keeps member order.
type jsonNode struct {
	kind    byte // '{', '[', 's', 'n' (number), 'b', '0' (null)
	keys    []string
	members []*jsonNode // object members or array items
	text    string      // scalars: string, number literal, true/false
}

func parseJSONTree(b []byte) (*jsonNode, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	n, err := parseJSONValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, &json.SyntaxError{}
	}
	return n, nil
}

func parseJSONValue(d *json.Decoder) (*jsonNode, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		n := &jsonNode{kind: byte(v)}
		for d.More() {
			if v == '{' {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			m, err := parseJSONValue(d)
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, m)
		}
		_, err := d.Token() // closing delimiter
		return n, err
	case string:
		return &jsonNode{kind: 's', text: v}, nil
	case json.Number:
		return &jsonNode{kind: 'n', text: v.String()}, nil
	case bool:
		n := &jsonNode{kind: 'b', text: "false"}
		if v {
			n.text = "true"
		}
		return n, nil
	default:
		return &jsonNode{kind: '0'}, nil
	}
}

// xmlElem is a parsed XML element.
type xmlElem struct {
	name     string
	children []*xmlElem
	text     string
}

func parseXMLTree(b []byte) (*xmlElem, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	var stack []*xmlElem
	var root *xmlElem
	for {
		tok, err := d.Token()
		if err != nil {
			if root != nil && errors.Is(err, io.EOF) {
				return root, nil
			}
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root != nil && len(stack) == 0 {
				return nil, &xml.SyntaxError{Msg: "second root element"}
			}
			e := &xmlElem{name: tok.Name.Local}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, e)
			} else {
				root = e
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
}

func checkName(t *testing.T, path string, x *xmlElem, key string) {
	t.Helper()
	if want := xmlName(key); x.name != want {
		t.Errorf("%s: element <%s>, want <%s>", path, x.name, want)
	}
}

func mirror(t *testing.T, path string, j *jsonNode, x *xmlElem) {
	t.Helper()
	switch j.kind {
	case '{', '[':
		if strings.TrimSpace(x.text) != "" {
			t.Errorf("%s: container element has text %q", path, x.text)
		}
		if len(x.children) != len(j.members) {
			t.Errorf("%s: %d child elements, want %d", path, len(x.children), len(j.members))
			return
		}
		for i, m := range j.members {
			p := path + "[" + x.children[i].name + "]"
			if j.kind == '{' {
				checkName(t, p, x.children[i], j.keys[i])
			}
			mirror(t, p, m, x.children[i])
		}
	default:
		if len(x.children) != 0 {
			t.Errorf("%s: scalar element has children", path)
		}
		want := j.text
		if j.kind == 'n' && !strings.Contains(want, ".") {
			if xt := x.text; strings.HasSuffix(xt, ".0") && xt[:len(xt)-2] == want {
				want = xt // XML floats keep a decimal point; JSON drops it
			}
		}
		if x.text != want {
			t.Errorf("%s: XML text %q, JSON %c %q", path, x.text, j.kind, j.text)
		}
	}
}

func TestJSONStringEscaping(t *testing.T) {
	tests := []struct {
		give string
		want string
	}{
		{"", `""`},
		{"plain", `"plain"`},
		{`quote " backslash \ slash /`, `"quote \" backslash \\ slash /"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f\""},
		{"<script>&amp;</script>", `"<script>&amp;</script>"`},
		{"café 日本 🚀", `"café 日本 🚀"`},
		{"line\u2028para\u2029end", `"line\u2028para\u2029end"`},
		{"bad\xffutf8\xc3", "\"bad\ufffdutf8\ufffd\""},
		{"\xed\xa0\x80", "\"\ufffd\ufffd\ufffd\""}, // encoded surrogate
		{"\ufffd", "\"\ufffd\""},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := string(appendJSONString(nil, tt.give))
			if got != tt.want {
				t.Errorf("appendJSONString(%q) = %s, want %s", tt.give, got, tt.want)
			}
			var back string
			if err := json.Unmarshal([]byte(got), &back); err != nil {
				t.Fatalf("invalid JSON %s: %v", got, err)
			}
			if utf8.ValidString(tt.give) && back != tt.give {
				t.Errorf("round trip = %q, want %q", back, tt.give)
			}
		})
	}
}

func TestXMLTextEscaping(t *testing.T) {
	tests := []struct {
		give string
		want string
		back string // what a parser reads back
	}{
		{"plain", "plain", "plain"},
		{`<a href="x">Tom & 'Jerry'</a>`, `&lt;a href="x"&gt;Tom &amp; 'Jerry'&lt;/a&gt;`, `<a href="x">Tom & 'Jerry'</a>`},
		{"]]>", "]]&gt;", "]]>"},
		{"tab\tlf\ncr\rend", "tab\tlf\ncr&#xD;end", "tab\tlf\ncr\rend"},
		{"nul\x00bell\x07esc\x1b", "nul\ufffdbell\ufffdesc\ufffd", "nul\ufffdbell\ufffdesc\ufffd"},
		{"nonchar\uffff\ufffe", "nonchar\ufffd\ufffd", "nonchar\ufffd\ufffd"},
		{"bad\xffutf8", "bad\ufffdutf8", "bad\ufffdutf8"},
		{"café 日本 🚀 \u2028", "café 日本 🚀 \u2028", "café 日本 🚀 \u2028"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := string(appendXMLText(nil, tt.give))
			if got != tt.want {
				t.Errorf("appendXMLText(%q) = %q, want %q", tt.give, got, tt.want)
			}
			var v struct {
				S string `xml:"s"`
			}
			if err := xml.Unmarshal([]byte("<r><s>"+got+"</s></r>"), &v); err != nil {
				t.Fatalf("parse %q: %v", got, err)
			}
			if v.S != tt.back {
				t.Errorf("parsed back %q, want %q", v.S, tt.back)
			}
		})
	}
}

func TestXMLNames(t *testing.T) {
	tests := []struct {
		give string
		want string
	}{
		{"application_summary", "application_summary"},
		{"application.servers", "application.servers"},
		{"Apdex-score", "Apdex-score"},
		{"_x", "_x"},
		{"calls per minute", "calls_per_minute"},
		{"95th_percentile", "_95th_percentile"},
		{"-x", "_-x"},
		{".x", "_.x"},
		{"ns:name", "ns_name"},
		{"a/b[c]", "a_b_c_"},
		{"café", "caf_"},
		{"bad\xff", "bad_"},
		{"", "_"},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got := xmlName(tt.give)
			if got != tt.want {
				t.Errorf("xmlName(%q) = %q, want %q", tt.give, got, tt.want)
			}
			if err := xml.Unmarshal([]byte("<"+got+"/>"), new(struct{})); err != nil {
				t.Errorf("<%s/> does not parse: %v", got, err)
			}
		})
	}
}

func TestFloats(t *testing.T) {
	tests := []struct {
		give     float64
		wantJSON string
		wantXML  string
	}{
		{304, "304", "304.0"},
		{1, "1", "1.0"},
		{0, "0", "0.0"},
		{math.Copysign(0, -1), "0", "0.0"},
		{0.5, "0.5", "0.5"},
		{0.0016, "0.0016", "0.0016"},
		{3.73, "3.73", "3.73"},
		{-12.25, "-12.25", "-12.25"},
		{1e-7, "0.0000001", "0.0000001"},
		{1e21, "1000000000000000000000", "1000000000000000000000.0"},
		{0.30000000000000004, "0.30000000000000004", "0.30000000000000004"},
	}
	for _, tt := range tests {
		t.Run(tt.wantJSON, func(t *testing.T) {
			doc := docFunc{root: "r", enc: func(e Encoder) { e.Float("f", tt.give) }}
			if got, want := string(JSON(nil, doc)), `{"f":`+tt.wantJSON+`}`; got != want {
				t.Errorf("JSON = %s, want %s", got, want)
			}
			wantX := xmlDeclaration + "<r>\n  <f>" + tt.wantXML + "</f>\n</r>\n"
			if got := string(XML(nil, doc)); got != wantX {
				t.Errorf("XML = %q, want %q", got, wantX)
			}
		})
	}
}

// TestUnbalanced checks that encoder misuse still yields well-formed output.
func TestUnbalanced(t *testing.T) {
	tests := []struct {
		name     string
		give     func(e Encoder)
		wantJSON string
		wantXML  string
	}{
		{
			name:     "extra ends",
			give:     func(e Encoder) { e.EndObject(); e.Int("a", 1); e.EndArray() },
			wantJSON: `{"a":1}`,
			wantXML:  xmlDeclaration + "<r>\n  <a>1</a>\n</r>\n",
		},
		{
			name:     "left open",
			give:     func(e Encoder) { e.BeginObject("o"); e.BeginArray("l", "i"); e.Int("", 1) },
			wantJSON: `{"o":{"l":[1]}}`,
			wantXML:  xmlDeclaration + "<r>\n  <o>\n    <l>\n      <i>1</i>\n    </l>\n  </o>\n</r>\n",
		},
		{
			name:     "mismatched end",
			give:     func(e Encoder) { e.BeginArray("l", "i"); e.EndObject(); e.Int("b", 2) },
			wantJSON: `{"l":[],"b":2}`,
			wantXML:  xmlDeclaration + "<r>\n  <l/>\n  <b>2</b>\n</r>\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := docFunc{root: "r", enc: tt.give}
			if got := string(JSON(nil, doc)); got != tt.wantJSON {
				t.Errorf("JSON = %s, want %s", got, tt.wantJSON)
			}
			if got := string(XML(nil, doc)); got != tt.wantXML {
				t.Errorf("XML = %q, want %q", got, tt.wantXML)
			}
		})
	}
}

func TestNilDocument(t *testing.T) {
	if got := string(JSON(nil, nil)); got != "{}" {
		t.Errorf("JSON(nil) = %s", got)
	}
	if got, want := string(XML(nil, nil)), xmlDeclaration+"<hash/>\n"; got != want {
		t.Errorf("XML(nil) = %q, want %q", got, want)
	}
}

func TestAppendsToDst(t *testing.T) {
	doc := ErrNoAPIKey()
	if got, want := string(JSON([]byte("prefix:"), doc)), `prefix:{"error":{"title":"No API key specified"}}`; got != want {
		t.Errorf("JSON = %s, want %s", got, want)
	}
	if got := string(XML([]byte("prefix:"), doc)); !strings.HasPrefix(got, "prefix:<?xml") {
		t.Errorf("XML = %q", got)
	}
}

func TestForFormat(t *testing.T) {
	tests := []struct {
		give            string
		wantOK          bool
		wantContentType string
	}{
		{"json", true, "application/json"},
		{"xml", true, "application/xml; charset=utf-8"},
		{"XML", true, "application/xml; charset=utf-8"},
		{"html", false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			r, ok := ForFormat(tt.give)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if !ok {
				return
			}
			if got := r.ContentType(); got != tt.wantContentType {
				t.Errorf("ContentType = %q, want %q", got, tt.wantContentType)
			}
			doc := ErrInvalidAPIKey()
			var want []byte
			if strings.Contains(tt.wantContentType, "json") {
				want = JSON(nil, doc)
			} else {
				want = XML(nil, doc)
			}
			if got := r.Render(nil, doc); !bytes.Equal(got, want) {
				t.Errorf("Render = %s, want %s", got, want)
			}
		})
	}
}

func TestBufferPool(t *testing.T) {
	b := GetBuffer()
	if len(*b) != 0 {
		t.Fatalf("GetBuffer len = %d", len(*b))
	}
	*b = append(*b, "data"...)
	PutBuffer(b)
	if b2 := GetBuffer(); len(*b2) != 0 {
		t.Errorf("reused buffer len = %d", len(*b2))
	}
	big := make([]byte, 0, MaxRetainedBufferSize+1)
	PutBuffer(&big) // dropped, must not panic
	PutBuffer(nil)
}

// TestConcurrentRendering shares the pools between goroutines (run with -race).
func TestConcurrentRendering(t *testing.T) {
	doc := benchAppList(20)
	wantJ, wantX := JSON(nil, doc), XML(nil, doc)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				buf := GetBuffer()
				*buf = JSON((*buf)[:0], doc)
				if !bytes.Equal(*buf, wantJ) {
					t.Error("concurrent JSON differs")
				}
				*buf = XML((*buf)[:0], doc)
				if !bytes.Equal(*buf, wantX) {
					t.Error("concurrent XML differs")
				}
				PutBuffer(buf)
			}
		})
	}
	wg.Wait()
}

func FuzzStrings(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\x00\x1f<&>", "\u2028\xff\xfe", "日本\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc := docFunc{enc: func(e Encoder) { e.String("s", s) }}
		var jv struct{ S string }
		if err := json.Unmarshal(JSON(nil, doc), &jv); err != nil {
			t.Fatalf("JSON for %q: %v", s, err)
		}
		if utf8.ValidString(s) && jv.S != s {
			t.Errorf("JSON round trip %q → %q", s, jv.S)
		}
		var xv string
		if err := xml.Unmarshal(XML(nil, doc), &xv); err != nil {
			t.Fatalf("XML for %q: %v", s, err)
		}
	})
}

// TestBufferPoolBound: a buffer of exactly MaxRetainedBufferSize is kept, a larger
// one never. A pool
// may drop what it is given (it does so at random under -race), so the kept case tries
// up to 50 times; the dropped case can never see the buffer come back.
func TestBufferPoolBound(t *testing.T) {
	big := make([]byte, 0, MaxRetainedBufferSize+1)
	for i := 0; i < 50; i++ {
		PutBuffer(&big)
		if b := GetBuffer(); cap(*b) == cap(big) {
			t.Fatalf("a buffer of %d bytes came back from the pool", cap(big))
		}
	}
	edge := make([]byte, 0, MaxRetainedBufferSize)
	for i := 0; i < 50; i++ {
		PutBuffer(&edge)
		if b := GetBuffer(); b == &edge {
			return
		}
	}
	t.Errorf("a buffer of exactly MaxRetainedBufferSize (%d) never came back from the pool", MaxRetainedBufferSize)
}
