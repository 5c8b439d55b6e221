package graphql

import (
	"context"
	"encoding/json"
	"sync"

	gql "github.com/Khan/genqlient/graphql"
)

// InventoryColumns names the members of an inventory row besides NerdGraph's own
// "facet": the aliases the NRQL query gave its columns. The code that writes the query
// owns them and hands the same value to EachInventoryRow. Names are ASCII (keyIs).
type InventoryColumns struct {
	// Hosts and Agents are the aliases of the uniques() lists of hosts and agent
	// instances; LastSeen is the alias of max(timestamp).
	Hosts, Agents, LastSeen string
}

// InventoryRow is one row of the applications' inventory NRQL as EachInventoryRow
// reads it: values as written (JSON text, slices of the answer: valid until it
// changes; the row and its slices themselves only during the call).
type InventoryRow struct {
	// Facet is the facet's value (FACET appId: one attribute, so a single value, not a
	// list); nil when the row has none.
	Facet []byte
	// Hosts and Agents are the uniques() lists' values.
	Hosts, Agents [][]byte
	// LastSeen is max(timestamp) in epoch milliseconds.
	LastSeen float64
}

// EachInventoryRow reads an NRQL result array of inventory rows
// ([{"facet": appId, cols.Hosts: [...], cols.Agents: [...], cols.LastSeen: ms, ...},
// ...]) in one pass over data, calling row with each. It returns the number of rows.
//
// It decodes what goccy/go-json (and encoding/json) decode into
// []struct{Facet json.RawMessage; Hosts, Agents []json.RawMessage; LastSeen float64}
// and refuses what they refuse (TestInventoryRowsAgree, FuzzInventoryRows): JSON null
// is no rows; a null row is a row without values; keys match case-insensitively;
// unknown keys are skipped; a later duplicate key wins. On an error, rows already
// passed to row are to be discarded by the caller (a decoder refuses the whole array).
func EachInventoryRow(data []byte, cols InventoryColumns, row func(r *InventoryRow)) (int, error) {
	s := scanner{b: data}
	if s.peek() == 0 {
		return 0, errEnd
	}
	if null, err := s.null(); null || err != nil {
		if err != nil {
			return 0, err
		}
		return 0, s.end()
	}
	if s.peek() != '[' {
		if err := s.skip(); err != nil {
			return 0, err
		}
		return 0, errNotArray
	}
	var r InventoryRow
	n := 0
	member := func(s *scanner, key []byte) (err error) {
		switch {
		case keyIs(key, "facet"):
			r.Facet, err = s.value()
		case keyIs(key, cols.Hosts):
			r.Hosts, err = s.list(r.Hosts[:0])
		case keyIs(key, cols.Agents):
			r.Agents, err = s.list(r.Agents[:0])
		case keyIs(key, cols.LastSeen):
			err = s.float(&r.LastSeen)
		}
		return err
	}
	err := s.array(func(s *scanner) error {
		n++
		r = InventoryRow{Hosts: r.Hosts[:0], Agents: r.Agents[:0]}
		switch s.peek() {
		case 'n':
			if err := s.literal("null"); err != nil {
				return err
			}
		case '{':
			if err := s.object(member); err != nil {
				return err
			}
		default:
			return s.typeError("object")
		}
		row(&r)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, s.end()
}

// list reads an array into dst as a decoder fills a []json.RawMessage: each value's
// text; null leaves dst empty; anything but an array is a type error.
func (s *scanner) list(dst [][]byte) ([][]byte, error) {
	if null, err := s.null(); null || err != nil {
		return dst, err
	}
	if s.peek() != '[' {
		return dst, s.typeError("array")
	}
	err := s.array(func(s *scanner) error {
		if s.i < len(s.b) && s.b[s.i] == '"' { // the usual value (array starts it at one)
			start := s.i
			_, _, err := s.str()
			dst = append(dst, s.b[start:s.i])
			return err
		}
		v, err := s.value()
		dst = append(dst, v)
		return err
	})
	return dst, err
}

// inventoryBuffers holds the buffers of AppList's account-wide inventory rows (a raw
// JSON array, about 170 bytes a row: 72 KB for the demo account's 427) and of
// AppInventory's rows of one page (about 100 KB for 200 applications × 3 hosts), given back by
// ReleaseInventory once read: json.RawMessage copies the rows into the buffer it holds
// when it has the room (its UnmarshalJSON appends to it), so a page's rows are not a new
// allocation each. A pool, like restv2's render buffers: it holds no caller's data
// between uses (a buffer is overwritten whole before it is read).
var inventoryBuffers = sync.Pool{}

// maxInventoryBuffer bounds the buffers kept: an account's inventory is at most 5000
// rows (NRQL's facet limit), about 850 KB.
const maxInventoryBuffer = 1 << 20

// inventoryBuffer is a buffer of the pool, empty, or nil when it has none.
func inventoryBuffer() json.RawMessage {
	if p, _ := inventoryBuffers.Get().(*json.RawMessage); p != nil {
		return (*p)[:0]
	}
	return nil
}

// ReleaseInventory gives the buffer of an AppList or AppInventory answer's inventory
// rows back for the next answer, once they have been read. raw must not be used afterwards.
func ReleaseInventory(raw json.RawMessage) {
	if cap(raw) == 0 || cap(raw) > maxInventoryBuffer {
		return
	}
	raw = raw[:0]
	inventoryBuffers.Put(&raw)
}

// presize has AppInventory's rows of one page (translate inventoryFor) decoded into a
// pooled buffer, as AppList's account-wide ones are; the translator gives it back once
// read (ReleaseInventory). It sets nothing when the pool has no buffer (presizer).
func (d *AppInventoryResponse) presize(context.Context, *gql.Request, int) bool {
	if d.Actor != nil {
		return false
	}
	buf := inventoryBuffer()
	if buf == nil {
		return false
	}
	d.Actor = &AppInventoryActor{Account: &AppInventoryActorAccount{
		Nrql: &AppInventoryActorAccountNrqlNrdbResultContainer{Results: buf}}}
	return true
}

func (d *AppInventoryResponse) unpresize() { *d = AppInventoryResponse{} }

// The responses that ready themselves for their answers (presize.go).
var (
	_ presizer = (*AppInventoryResponse)(nil)
)
