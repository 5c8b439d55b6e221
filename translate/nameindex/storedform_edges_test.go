package nameindex

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"
)

// Indexes of a count at a chunk's edge, at the cap exactly and with the largest id
// round-trip through the stored form.
func TestStoredFormRoundTripsAtItsEdges(t *testing.T) {
	for _, n := range []int{1, chunkEntries - 1, chunkEntries, chunkEntries + 1, 2*chunkEntries - 1} {
		ix := &index{gen: 1}
		for i := range n {
			ix.entries = append(ix.entries, Entry{ID: int64(i + 1), Name: fmt.Sprint("app ", i), Language: "go"})
		}
		ix.entries[n-1].ID = 1 << 62
		meta, chunks := encode(ix)
		if want := (n + chunkEntries - 1) / chunkEntries; len(chunks) != want {
			t.Errorf("%d entries: %d chunks, want %d", n, len(chunks), want)
		}
		got, ok := decode(meta, chunks, n) // the cap is the count: still held
		if !ok || !slices.Equal(got.entries, ix.entries) {
			t.Errorf("%d entries at the cap do not round-trip", n)
		}
	}
}

// A name's length past the chunk's end does not decode (and does not panic).
func TestStoredFormNameLongerThanItsChunk(t *testing.T) {
	b := binary.AppendUvarint(nil, 1)
	rest := []byte("ab")
	b = binary.AppendUvarint(b, uint64(len(rest)+1))
	b = append(b, rest...)
	if _, ok := decode([]byte(`{"n":1,"langs":["go"]}`), [][]byte{b}, 10); ok {
		t.Fatal("decoded")
	}
}
