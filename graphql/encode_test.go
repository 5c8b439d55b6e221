package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	gql "github.com/Khan/genqlient/graphql"
)

// marshalsItself writes its own JSON, with characters encoding/json escapes.
type marshalsItself struct{ V string }

func (m marshalsItself) MarshalJSON() ([]byte, error) {
	return []byte(`{"v": "<` + m.V + `>" }`), nil
}

// The request body is byte for byte what json.NewEncoder(buf).Encode(req) wrote, on
// the first (encoded) and second (remembered) use of each document: the canned
// upstream of tests/bench and every recorded request depend on it.
func TestEncodeRequestMatchesEncoder(t *testing.T) {
	cursor := "c<&>\u2028"
	var nilInput *__AppCursorInput
	docs := []string{
		AppShow_Operation, AppList_Operation, DeploymentCreateEvent_Operation,
		"query Q { a(b: \"<&>\u2028\u2029\\\"\") }\n\t", "query \xff\xfe invalid UTF-8", "",
	}
	vars := []any{
		nil, nilInput, &__AppCursorInput{Query: "name LIKE '<x>' & \"y\"", Cursor: &cursor},
		&__AppCursorInput{}, map[string]any{"b": []int{1, 2}, "a": "\x00"}, marshalsItself{V: "&"},
		json.RawMessage(`{ "x" : 1 }`),
	}
	for _, name := range []string{"AppShow", "", "with space", "é", "_a9"} {
		for di, doc := range docs {
			for vi, v := range vars {
				var d documents
				for use := range 2 {
					req := &gql.Request{Query: doc, Variables: v, OpName: name}
					var want, got bytes.Buffer
					werr := json.NewEncoder(&want).Encode(req)
					gerr := d.encodeRequest(&got, req)
					if (werr == nil) != (gerr == nil) || !bytes.Equal(got.Bytes(), want.Bytes()) {
						t.Fatalf("op %q doc %d vars %d use %d:\n got %q (%v)\nwant %q (%v)", name, di, vi, use, got.Bytes(), gerr, want.Bytes(), werr)
					}
				}
			}
		}
	}
}

// At most maxDocuments documents are remembered; the others are still encoded right.
func TestDocumentsBounded(t *testing.T) {
	var d documents
	for i := range maxDocuments + 50 {
		doc := fmt.Sprintf("query Q%d { a }", i)
		var got bytes.Buffer
		if err := d.encodeRequest(&got, &gql.Request{Query: doc, OpName: "Q"}); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"query":"query Q%d { a }","operationName":"Q"}`+"\n", i); got.String() != want {
			t.Fatalf("got %q, want %q", got.String(), want)
		}
	}
	if n := d.n.Load(); n != maxDocuments {
		t.Fatalf("%d documents remembered, want %d", n, maxDocuments)
	}
}

// TestPlainNameMut pins plainName to GraphQL's Name grammar (/[_A-Za-z][_0-9A-Za-z]*/,
// spec §2.1.9) at every ASCII byte and its range boundaries, and checks that an
// operation name of each byte is encoded as json.Encoder does (encode.go:79, :83: the
// boundaries and negations of plainName's tests, which the few names of
// TestEncodeRequestMatchesEncoder left alive; a name plainName wrongly accepts is
// written unescaped, one it wrongly refuses only takes the slow path).
func TestPlainNameMut(t *testing.T) {
	name := func(c byte) bool {
		return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	}
	for c := 0; c < 256; c++ {
		b := byte(c)
		for _, tc := range []struct {
			s    string
			want bool
		}{
			{string([]byte{b}), name(b)},
			{string([]byte{'a', b}), name(b) || (b >= '0' && b <= '9')},
			{string([]byte{'_', b, 'z'}), name(b) || (b >= '0' && b <= '9')},
			{string([]byte{b, '9'}), name(b)},
		} {
			if got := plainName(tc.s); got != tc.want {
				t.Errorf("plainName(%q) = %v, want %v", tc.s, got, tc.want)
			}
			var want, got bytes.Buffer
			req := &gql.Request{Query: "query { a }", OpName: tc.s}
			_ = json.NewEncoder(&want).Encode(req)
			var d documents
			if err := d.encodeRequest(&got, req); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("op name %q: got %q (%v), want %q", tc.s, got.Bytes(), err, want.Bytes())
			}
		}
	}
	for _, s := range []string{"", "0", "9a", "a-b", "a\"b", "a\\b", "a<b", "\u2028"} {
		if plainName(s) {
			t.Errorf("plainName(%q) = true", s)
		}
	}
	for _, s := range []string{"a", "Z", "_", "__", "a0", "AppShow", "z9Z_"} {
		if !plainName(s) {
			t.Errorf("plainName(%q) = false", s)
		}
	}
}
