package nameindex

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"time"

	"github.com/v2bridge/v2bridge/state"
)

// A name index in the fleet's store (state.SharedChunks): a meta (when it was read,
// the account's write count then, the entry count and the languages) and chunks of at
// most chunkEntries entries, each entry as uvarint id, uvarint name length, name,
// uvarint (language's place in the meta << 1 | reporting). Anything that does not
// decode to exactly the meta's count is no index at all: the replica reads NerdGraph.

// chunkEntries is the most entries of one chunk (well under the store's entry bound
// for names of any length NerdGraph gives).
const chunkEntries = 2000

// meta is the meta of a stored index.
type meta struct {
	ReadAt    int64    `json:"at"` // Unix ms
	Gen       uint64   `json:"gen"`
	Count     int      `json:"n"`
	Languages []string `json:"langs"`
}

// share writes ix to the fleet's store (not in a fleet: nothing), for the max
// staleness.
func (x *Indexes) share(key string, ix *index) {
	if x.shared == nil {
		return
	}
	meta, chunks := encode(ix)
	ctx, cancel := context.WithTimeout(context.Background(), state.SharedTimeout)
	defer cancel()
	_ = x.shared.SetChunks(ctx, "name_index", key, meta, chunks, x.maxStale)
}

// sharedIndex reads c's index from the fleet's store: false when it is not there,
// does not decode, or the fleet's acceptance of c's key has lapsed. A hit takes the
// fleet's acceptance as this replica's, as the shared cache does.
func (x *Indexes) sharedIndex(c Caller) (*index, bool) {
	if x.shared == nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), state.SharedTimeout)
	defer cancel()
	meta, chunks, authLeft, err := x.shared.GetChunks(ctx, "name_index", c.Key, c.KeyHash)
	if err != nil || chunks == nil || authLeft <= 0 {
		return nil, false
	}
	ix, ok := decode(meta, chunks, x.maxApps)
	if !ok {
		return nil, false
	}
	x.opts.Accepted(c.KeyHash, authLeft)
	return ix, true
}

// encode is ix's meta and chunks.
func encode(ix *index) (metaText []byte, chunks [][]byte) {
	m := meta{ReadAt: ix.readAt.UnixMilli(), Gen: ix.gen, Count: len(ix.entries)}
	place := map[string]uint64{}
	for lo := 0; lo < len(ix.entries) || lo == 0; lo += chunkEntries {
		es := ix.entries[lo:min(lo+chunkEntries, len(ix.entries))]
		var b []byte
		for _, e := range es {
			p, ok := place[e.Language]
			if !ok {
				p = uint64(len(m.Languages))
				place[e.Language] = p
				m.Languages = append(m.Languages, e.Language)
			}
			flag := p << 1
			if e.Reporting {
				flag |= 1
			}
			b = binary.AppendUvarint(b, uint64(e.ID))
			b = binary.AppendUvarint(b, uint64(len(e.Name)))
			b = append(b, e.Name...)
			b = binary.AppendUvarint(b, flag)
		}
		chunks = append(chunks, b)
	}
	metaText, _ = json.Marshal(m) // strings and numbers only
	return metaText, chunks
}

// decode is the index of metaText and chunks; false when they do not hold exactly
// the meta's entries (at most maxApps).
func decode(metaText []byte, chunks [][]byte, maxApps int) (*index, bool) {
	var m meta
	if json.Unmarshal(metaText, &m) != nil || m.Count < 0 || m.Count > maxApps ||
		len(chunks) != max((m.Count+chunkEntries-1)/chunkEntries, 1) {
		return nil, false
	}
	entries := make([]Entry, 0, m.Count)
	for _, b := range chunks {
		for len(b) > 0 {
			id, n := binary.Uvarint(b)
			if n <= 0 || id == 0 || id > 1<<62 {
				return nil, false
			}
			b = b[n:]
			size, n := binary.Uvarint(b)
			if n <= 0 || size > uint64(len(b)-n) {
				return nil, false
			}
			name := string(b[n : n+int(size)])
			b = b[n+int(size):]
			flag, n := binary.Uvarint(b)
			if n <= 0 || flag>>1 >= uint64(len(m.Languages)) || len(entries) == m.Count {
				return nil, false
			}
			b = b[n:]
			entries = append(entries, Entry{ID: int64(id), Name: name, Language: m.Languages[flag>>1], Reporting: flag&1 == 1})
		}
	}
	if len(entries) != m.Count {
		return nil, false
	}
	return &index{entries: entries, readAt: time.UnixMilli(m.ReadAt), gen: m.Gen}, true
}
