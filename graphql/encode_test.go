package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

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
		// The kinds of value the generated inputs hold: numbers at the edges of
		// encoding/json's float forms, the largest int64, times, omitted and null pointers.
		map[string]any{"f": []float64{0, 0.1, -2.5, 1e-7, 1e20, 1e21, 123456789.125, 5e-324},
			"i": []int64{-1, 1<<63 - 1}, "t": true, "at": time.Date(2026, 11, 28, 12, 0, 0, 5, time.UTC),
			"nested": struct {
				A *int   `json:"a,omitempty"`
				B *int   `json:"b"`
				C []byte `json:"c"`
			}{C: []byte("<>")}},
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

// TestPlainNameFollowsNameGrammar pins plainName to GraphQL's Name grammar
// (/[_A-Za-z][_0-9A-Za-z]*/, spec §2.1.9) at every ASCII byte and its range boundaries,
// and checks that an operation name of each byte is encoded as json.Encoder does (a
// name plainName wrongly accepts is written unescaped, one it wrongly refuses only
// takes the slow path).
func TestPlainNameFollowsNameGrammar(t *testing.T) {
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

// TestFlightKey: two requests get the same flight key exactly when their key and
// every byte they send are the same, whether the document is kept (its number in the
// key) or not (the whole body); a kept document's text is not in the key.
func TestFlightKey(t *testing.T) {
	var d documents
	a, b := [32]byte{'a'}, [32]byte{'b'}
	key := func(tenant [32]byte, doc, name string, vars any) (string, int) {
		var buf bytes.Buffer
		if err := d.encodeRequest(&buf, &gql.Request{Query: doc, OpName: name, Variables: vars}); err != nil {
			t.Fatal(err)
		}
		return d.flightKey(tenant, doc, buf.Bytes()), buf.Len()
	}
	v1, v2 := map[string]any{"guid": "X"}, map[string]any{"guid": "Y"}
	docs := []string{AppShow_Operation, AppList_Operation, "query Q { a }", "query Q { b }"}
	seen := map[string]string{}
	for _, doc := range docs {
		for _, tenant := range [][32]byte{a, b} {
			for _, name := range []string{"Q", "R"} {
				for _, vars := range []any{v1, v2, nil} {
					k, n := key(tenant, doc, name, vars)
					if again, _ := key(tenant, doc, name, vars); again != k {
						t.Fatalf("the same request has two keys (%.40s)", doc)
					}
					what := fmt.Sprint(tenant[0], doc, name, vars)
					if prev, dup := seen[k]; dup {
						t.Fatalf("%q and %q share a flight key", prev, what)
					}
					seen[k] = what
					q, _ := d.quoted(doc)
					if strings.Contains(k, string(q)) || len(k) != 32+1+8+n-len(`{"query":`)-len(q) {
						t.Fatalf("%.40s: key of %d bytes for a body of %d: the document is in it", doc, len(k), n)
					}
				}
			}
		}
	}
	// A document beyond maxDocuments is not kept: its key is the whole body, still
	// apart from a kept document's.
	d.n.Store(maxDocuments)
	k, n := key(a, "query Q { c }", "Q", v1)
	if len(k) <= n {
		t.Fatalf("unkept document: key of %d bytes, body %d", len(k), n)
	}
	if _, dup := seen[k]; dup {
		t.Fatal("an unkept document shares a kept one's key")
	}
}

// TestDocumentNumbersUnique: documents kept concurrently get distinct numbers.
func TestDocumentNumbersUnique(t *testing.T) {
	var d documents
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := d.quoted(fmt.Sprintf("query Q%d { a }", i%16)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	ids := map[int64]bool{}
	d.m.Range(func(_, v any) bool {
		id := v.(*document).id
		if ids[id] {
			t.Errorf("number %d kept twice", id)
		}
		ids[id] = true
		return true
	})
	if len(ids) != 16 {
		t.Fatalf("%d documents kept, want 16", len(ids))
	}
}

// BenchmarkFlightKey is the flight key of an application show (a 1.2 KB document):
// keyed by the kept document's number, and by the whole body as for a document that is
// not kept.
func BenchmarkFlightKey(b *testing.B) {
	var d documents
	var buf bytes.Buffer
	req := &gql.Request{Query: AppShow_Operation, OpName: "AppShow", Variables: map[string]any{"guid": "MTAwMDAwMXxBUE18QVBQTElDQVRJT058MzE0MjIxNTIy", "accountId": 1000001,
		"inventory": "SELECT max(timestamp) AS 'lastSeen' FROM Metric WHERE metricTimesliceName IN ('Apdex', 'HttpDispatcher') AND appId = 314221522 FACET appId, host, realAgentId SINCE 1763632800 UNTIL 1763640000 LIMIT MAX"}}
	if err := d.encodeRequest(&buf, req); err != nil {
		b.Fatal(err)
	}
	m := map[string]int{}
	for _, tt := range []struct {
		name string
		doc  string
	}{{"kept", AppShow_Operation}, {"whole body", "not kept"}} {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				k := d.flightKey([32]byte{'a'}, tt.doc, buf.Bytes())
				m[k]++ // singleflight hashes the key into its map
				delete(m, k)
			}
		})
	}
}
