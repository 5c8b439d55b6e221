package graphql

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"sync"
	"sync/atomic"

	gql "github.com/Khan/genqlient/graphql"
	gojson "github.com/goccy/go-json"
)

// documents keeps each operation document's JSON string form. The documents are the
// generated operations' constants (a few dozen, fixed at build time), so re-escaping
// one on every call (its newlines and quotes, a few kilobytes;
// BenchmarkGatewayApplicationShow) is work done once here. At
// most maxDocuments are kept; any other document is encoded each time.
type documents struct {
	m   sync.Map // document → *document
	n   atomic.Int64
	ids atomic.Int64 // the last number handed out
}

// document is a kept operation document: its JSON string (quotes included) and a
// number that no other kept document has.
type document struct {
	json []byte
	id   int64
}

const maxDocuments = 512

// quoted is doc as a JSON string, exactly as encoding/json writes it.
func (d *documents) quoted(doc string) ([]byte, error) {
	if v, ok := d.m.Load(doc); ok {
		return v.(*document).json, nil
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	if d.n.Load() < maxDocuments {
		if _, loaded := d.m.LoadOrStore(doc, &document{json: b, id: d.ids.Add(1)}); !loaded {
			d.n.Add(1)
		}
	}
	return b, nil
}

// flightKey is the singleflight key of body, the request encodeRequest wrote for doc
// on behalf of tenant: two requests share a flight only when the key and every byte
// they send are the same. A kept document stands in the key as its number instead of
// its text (0.5 to 1.2 KB; the key is copied and hashed on every query:
// BenchmarkFlightKey); two kept documents never share a number (each candidate draws
// its own from ids before LoadOrStore), so the key still tells every request apart.
// Any other document is keyed by the whole body.
func (d *documents) flightKey(tenant [32]byte, doc string, body []byte) string {
	v, ok := d.m.Load(doc)
	if !ok {
		return string(tenant[:]) + "\x00" + string(body)
	}
	e := v.(*document)
	skip := len(`{"query":`) + len(e.json)
	var id [8]byte
	binary.BigEndian.PutUint64(id[:], uint64(e.id))
	return string(tenant[:]) + "\x01" + string(id[:]) + string(body[skip:])
}

// encodeRequest writes req to buf byte for byte as json.NewEncoder(buf).Encode(req)
// does (TestEncodeRequestMatchesEncoder): the query, the variables unless nil
// (omitempty), the operation name, and a newline.
func (d *documents) encodeRequest(buf *bytes.Buffer, req *gql.Request) error {
	q, err := d.quoted(req.Query)
	if err != nil {
		return err
	}
	buf.WriteString(`{"query":`)
	buf.Write(q)
	if req.Variables != nil {
		buf.WriteString(`,"variables":`)
		// goccy/go-json writes the bytes encoding/json writes for the variables
		// (TestEncodeRequestMatchesEncoder), in less time.
		if err := gojson.NewEncoder(buf).Encode(req.Variables); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // the Encoder's newline
	}
	buf.WriteString(`,"operationName":`)
	if plainName(req.OpName) {
		buf.WriteByte('"')
		buf.WriteString(req.OpName)
		buf.WriteByte('"')
	} else {
		name, err := json.Marshal(req.OpName)
		if err != nil {
			return err
		}
		buf.Write(name)
	}
	buf.WriteString("}\n")
	return nil
}

// plainName is whether s is a GraphQL name (/[_A-Za-z][_0-9A-Za-z]*/, GraphQL spec
// §2.1.9), which JSON writes between quotes as it is.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}
