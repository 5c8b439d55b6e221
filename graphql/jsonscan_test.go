package graphql

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	gojson "github.com/goccy/go-json"
)

// inventoryRow is what EachInventoryRow must agree with: a row decoded by a JSON
// decoder.
type inventoryRow struct {
	Facet    stdjson.RawMessage   `json:"facet"`
	Hosts    []stdjson.RawMessage `json:"hosts"`
	Agents   []stdjson.RawMessage `json:"agents"`
	LastSeen float64              `json:"lastSeen"`
}

// inventoryCorpus holds inventory answers the scanner must read as the decoders do:
// escapes, surrogates, nulls where strings and arrays belong, unknown, duplicate and
// case-folded keys, numbers at the edges, wrong types and malformed input. Rows of
// the former shape (FACET appId, host, realAgentId: the facet a list) are inputs too.
var inventoryCorpus = []string{
	`[{"agents":["858888264","858888265"],"appId":"924224343","facet":"924224343","hosts":["worker-08.dc1.example.net","worker-02.dc1.example.net"],"lastSeen":1795175940000}]`,
	`[{"facet":7,"hosts":["\u00e9-host",""],"agents":[3,4,"5"],"lastSeen":1.7e12},{"facet":8,"hosts":[],"agents":[]}]`,
	`[{"facet":7,"hosts":null,"agents":null},{"facet":null,"hosts":["a"],"hosts":["b","c"],"agents":[1],"AGENTS":[2]}]`,
	`[{"facet":7,"Hosts":["a"],"ho\u017fts":["b"],"agent\u017f":[1]}]`,
	`[{"facet":7,"hosts":"a"}]`, `[{"facet":7,"agents":{}}]`, `[{"facet":7,"hosts":[1,{"x":[]},null,true]}]`,
	`[{"facet":7,"hosts":["a",]}]`, `[{"facet":7,"hosts":["a"}]`, `[{"facet":7,"agents":[1 2]}]`, `[{"facet":7,"hosts":[`,
	`[{"facet":{"a":[1]},"hosts":["h"]}]`, `[{"facet":[1,"a",2],"lastSeen":5}]`, `[{"facet":"7","lastSeen":null}]`,
	`[{"appId":"924224343","facet":["924224343","worker-08.dc1.example.net","858888264"],"host":"worker-08.dc1.example.net","lastSeen":1795175940000,"realAgentId":"858888264"}]`,
	`[{"facet":[7,"\u00e9-host",3],"lastSeen":1.7e12},{"facet":[7,"",4],"lastSeen":1}]`,
	`[{"facet":[7,"h\ud83d\ude00\"\\\/\b\f\n\r\t",3],"lastSeen":0}]`,
	`[{"facet":[7,"\ud800x",3]}]`,
	`[ { "facet" : [ 1 , "a" , 2 ] , "lastSeen" : -0.5e-3 } , null , {} ]`,
	`[{"facet":null,"lastSeen":null}]`,
	`[{"facet":[1,"a",2],"facet":[3,"b"],"lastSeen":5,"lastSeen":null}]`,
	`[{"FACET":[1,"a",2],"LastSeen":5}]`,
	`[{"fac\u0065t":[1,"a",2],"la\u017fteen":5}]`,
	`[{"facet":[1,"a",2],"la\u017fTseen":5}]`,
	`[{"facet":[1,"a",2],"lastSeen":5,"\u0130d":1}]`,
	`[{"facet":[{"x":[1,{"y":null}]},[true,false],null],"lastSeen":1.7976931348623157e308}]`,
	`[{"facet":[1,"a",2],"lastSeen":1e400}]`,
	`[{"facet":[1,"a",2],"lastSeen":"5"}]`,
	`[{"facet":[1,"a",2],"lastSeen":true}]`,
	`[{"facet":"x","lastSeen":5}]`,
	`[{"facet":{},"lastSeen":5}]`,
	`[1]`,
	`["row"]`,
	`{}`,
	`null`,
	` null `,
	`[]`,
	``,
	`   `,
	`[{"facet":[1,"a",2]}] x`,
	`[{"facet":[1,"a",2]}`,
	`[{"facet":[1,"a",2],}]`,
	`[{"facet":[1,"a",2]},]`,
	`[{"facet":[01,"a",2]}]`,
	`[{"facet":[1.,"a",2]}]`,
	`[{"facet":[-,"a",2]}]`,
	`[{"facet":[1,"a",2],"lastSeen":+1}]`,
	`[{"facet":[1,"a` + "\t" + `",2]}]`,
	`[{"facet":[1,"a` + "\x80" + `",2]}]`,
	`[{"facet":[1,"a\x",2]}]`,
	`[{"facet":[1,"a\u12",2]}]`,
	`[{"facet":[tru,"a",2]}]`,
	`[{"facet":[nul]}]`,
	`[{"facet" 1}]`,
	`[{facet:1}]`,
	`[{"facet":[1,"a",2]} {"facet":[]}]`,
	"[{\"fac\x80t\":[1,\"a\",2]}]",
	// A null followed by more text, or cut short ("null x" is not an empty answer).
	`null x`, `null]`, `nullx`, `nul`, `n`,
	// Literals misspelled in their last byte, or cut short by the end of the input
	// after other text.
	`[{"facet":[tru0,"a",2]}]`, `[{"facet":[nulx]}]`, `[fals0]`, `[nulx]`, `[tru`, `[nu`, `[{"facet":[fals`,
	// Numbers that end the input after each of their parts, and exponents with and
	// without a sign.
	`5`, `-0`, `1.5`, `1e5`, `1E+5`, `1e`, `1E+`, `1.`, `-`, `[-`, `[5`, `[1.5`, `[1e`,
	`[{"facet":[1e5,1E+2,1e-2,0E0],"lastSeen":1e3}]`, `[{"facet":[1],"lastSeen":2E+1}]`,
	// Strings cut short at each of their parts, and objects cut before a key.
	`["abc`, `["abc\`, `["\u12`, `["\u`, `[{`, `[{"facet":[1],`, `[{"facet":[1],"`, `[{"fac`,
	// Escapes with the hex digits at the ends of their ranges, and the bytes next to
	// them, in values and keys (isHex).
	`[{"facet":["\u00aa\u00AF\uABCD\uabcd\u09fF\uFfFf"],"lastSeen":1}]`,
	`[{"facet":["\u00Ga"]}]`, `[{"facet":["\u00ga"]}]`, `[{"facet":["\u00@a"]}]`, "[{\"facet\":[\"\\u00`a\"]}]",
	`[{"facet":["\u00/a"]}]`, `[{"facet":["\u00:a"]}]`, `[{"\u0046\u0041cet":[1,"a"],"l\u0061stSeen":2}]`,
	// Keys: empty, with surrogates (paired and not), valid and invalid UTF-8, escaped.
	`[{"":1,"facet":[1,"a",2],"":[]}]`, `[{"\ud83d\ude00":1,"facet":[1],"\ud800":2,"\udc00\ud800x":3,"\ue000":4}]`,
	"[{\"\\n\u00e9\":1,\"fac\xffet\":[2],\"\\u017f\xe9\":3,\"facet\":[1]}]",
	// lastSeen with 15, 16 and more digits (the long ones overflow uint64).
	`[{"facet":[1],"lastSeen":999999999999999}]`, `[{"facet":[1],"lastSeen":9007199254740993}]`,
	`[{"facet":[1],"lastSeen":123456789012345678901234}]`, `[{"facet":[1],"lastSeen":-123456789012345678901234}]`,
	// Members not followed by ',' or '}', a lastSeen that is not a number, and
	// numbers at the ends of the digits.
	`[{"a":1 "facet":[1]}]`, `[{"facet":[1]]`, `[{"facet":[1],"lastSeen":-}]`, `[{"facet":[1],"lastSeen":1.e5}]`,
	`[{"facet":[1],"lastSeen":1e}]`, `[{"facet":[9,0,-9,-0,90.9e9],"lastSeen":9}]`, `[{"facet":[/]}]`, `[{"facet":[:]}]`,
}

// inventoryColumns are the aliases the tests' rows use: the names a JSON decoder
// matches with inventoryRow's fields.
func inventoryColumns() InventoryColumns {
	return InventoryColumns{Hosts: "hosts", Agents: "agents", LastSeen: "lastSeen"}
}

func decodeRows(unmarshal func([]byte, any) error, data []byte) ([]inventoryRow, error) {
	var rows []inventoryRow
	err := unmarshal(data, &rows)
	return rows, err
}

func scanRows(data []byte) ([]inventoryRow, int, error) {
	var rows []inventoryRow
	keep := func(vs [][]byte) (out []stdjson.RawMessage) {
		for _, v := range vs {
			out = append(out, append(stdjson.RawMessage(nil), v...))
		}
		return out
	}
	n, err := EachInventoryRow(data, inventoryColumns(), func(r *InventoryRow) {
		rows = append(rows, inventoryRow{Facet: append(stdjson.RawMessage(nil), r.Facet...),
			Hosts: keep(r.Hosts), Agents: keep(r.Agents), LastSeen: r.LastSeen})
	})
	return rows, n, err
}

// sameRows compares rows, taking an empty list as equal to a null one.
func sameRows(a, b []inventoryRow) bool {
	same := func(x, y []stdjson.RawMessage) bool {
		return slices.EqualFunc(x, y, func(p, q stdjson.RawMessage) bool { return string(p) == string(q) })
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].LastSeen != b[i].LastSeen && !(a[i].LastSeen != a[i].LastSeen && b[i].LastSeen != b[i].LastSeen) {
			return false
		}
		if string(a[i].Facet) != string(b[i].Facet) || !same(a[i].Hosts, b[i].Hosts) || !same(a[i].Agents, b[i].Agents) {
			return false
		}
	}
	return true
}

// checkInventoryRows fails t when EachInventoryRow reads data otherwise than
// goccy/go-json and encoding/json decode it (they must agree with each other first).
func checkInventoryRows(t *testing.T, data []byte) {
	t.Helper()
	want, wantErr := decodeRows(stdjson.Unmarshal, data)
	goccy, goccyErr := decodeRows(gojson.Unmarshal, data)
	if (wantErr != nil) != (goccyErr != nil) || wantErr == nil && !sameRows(want, goccy) {
		t.Skipf("encoding/json and goccy disagree on %q: %v / %v", data, wantErr, goccyErr)
	}
	got, n, err := scanRows(data)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: error = %v, decoders' = %v", data, err, wantErr)
	}
	if err != nil {
		return
	}
	if n != len(want) || !sameRows(got, want) {
		t.Fatalf("%q: rows = %d %s, decoders' = %s", data, n, fmt.Sprint(got), fmt.Sprint(want))
	}
}

func TestInventoryRowsAgree(t *testing.T) {
	for i, c := range inventoryCorpus {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkInventoryRows(t, []byte(c)) })
	}
}

func FuzzInventoryRows(f *testing.F) {
	for _, c := range inventoryCorpus {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkInventoryRows(t, data) })
}

func TestKeyIsFoldsAsEncodingJSON(t *testing.T) {
	for _, key := range []string{"lastSeen", "LASTSEEN", "la\u017ftSeen", "lastSeeN", "lastSee", "lastSeenx", "\u0130d", "id", "ID", "\u212aey", "key"} {
		for _, name := range []string{"lastSeen", "id", "key"} {
			var v map[string]any
			_ = v
			type probe struct {
				X int `json:"-"`
			}
			_ = probe{}
			want := stdFoldEqual(key, name)
			if got := keyIs([]byte(key), name); got != want {
				t.Errorf("keyIs(%q, %q) = %v, encoding/json folds to %v", key, name, got, want)
			}
		}
	}
}

// stdFoldEqual asks encoding/json whether key selects a field named name.
func stdFoldEqual(key, name string) bool {
	typ := reflect.StructOf([]reflect.StructField{{Name: "F", Type: reflect.TypeOf(0), Tag: reflect.StructTag(`json:"` + name + `"`)}})
	v := reflect.New(typ)
	b, _ := stdjson.Marshal(map[string]int{key: 1})
	_ = stdjson.Unmarshal(b, v.Interface())
	return v.Elem().Field(0).Int() == 1
}

// TestStrPlainTable checks the table against the bytes it stands for.
func TestStrPlainTable(t *testing.T) {
	if len(strPlain) != 256 {
		t.Fatalf("len(strPlain) = %d", len(strPlain))
	}
	for c := range 256 {
		want := c >= 0x20 && c != '"' && c != '\\'
		if got := strPlain[c] == 1; got != want {
			t.Errorf("strPlain[%#x] = %v, want %v", c, got, want)
		}
	}
}

// TestStop8: the lowest byte stop8 marks is the first '"', '\\' or control character
// of the word (little-endian), and it marks none when there is none; checked on every
// word of one stop byte at each position over random plain bytes, and on random words.
func TestStop8(t *testing.T) {
	first := func(w uint64) int {
		for k := 0; k < 8; k++ {
			if c := byte(w >> (8 * k)); c == '"' || c == '\\' || c < 0x20 {
				return k
			}
		}
		return 8
	}
	check := func(w uint64) {
		t.Helper()
		m := stop8(w)
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if want := first(w); got != want {
			t.Fatalf("stop8(%#016x): first stop at %d, want %d", w, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	plain := func() byte {
		for {
			if c := byte(rng.Uint32()); c >= 0x20 && c != '"' && c != '\\' {
				return c
			}
		}
	}
	for range 2000 {
		var w uint64
		for k := 0; k < 8; k++ {
			w |= uint64(plain()) << (8 * k)
		}
		check(w)
		for k := 0; k < 8; k++ {
			for _, c := range []byte{'"', '\\', 0, 0x1f, 0x01} {
				check(w&^(0xff<<(8*k)) | uint64(c)<<(8*k))
			}
		}
		check(rng.Uint64())
	}
}

// TestKeyIsAtLetterBounds compares keyIs with encoding/json's key matching for names and
// keys made of the ASCII letters at the ends of their ranges ('a', 'z', 'A', 'Z'), the
// bytes next to them, which are not letters ('`', '{', '@', '['), and the two non-ASCII
// runes that fold to ASCII (U+017F, U+212A), and the empty key.
func TestKeyIsAtLetterBounds(t *testing.T) {
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

// TestUpperAndIsASCII checks upper and isASCII at every byte. (isASCII only chooses
// whether object decodes a key before keyIs, which reads a byte 0x80 as U+FFFD either
// way: not visible through EachInventoryRow.)
func TestUpperAndIsASCII(t *testing.T) {
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

// TestDepthLimitAsEncodingJSON nests arrays and objects up to encoding/json's limit
// (maxDepth levels, counting the rows' array, the row and its facet array) and one past
// it, and closes many empty and non-empty arrays and objects in a row, so that depth
// must come back down at each close.
func TestDepthLimitAsEncodingJSON(t *testing.T) {
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
		if _, err := EachInventoryRow(data, inventoryColumns(), func(*InventoryRow) {}); !c.ok && !errors.Is(err, errTooDeep) {
			t.Errorf("%s: %v, want %v", c.name, err, errTooDeep)
		}
	}
	// Rows close too: 6000 rows of each kind.
	checkStdRows(t, "rows", []byte("["+strings.Repeat(`{"facet":[1]},{},null,`, 6000)+"{}]"), true)
}

// TestObjectArrayRefuseOtherValues calls object and array where the next value is not an
// object or an array, which their callers (EachInventoryRow, skip) never do: each
// answers a syntax error at that value without moving past it, or errEnd at the end.
func TestObjectArrayRefuseOtherValues(t *testing.T) {
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
