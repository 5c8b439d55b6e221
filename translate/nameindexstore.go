package translate

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"time"

	"github.com/v2bridge/v2bridge/state"
)

// A name index in the fleet's store (state.SharedChunks): a meta (when it was read,
// the account's write count then, the entry count and the languages) and chunks of at
// most nameIndexChunk entries, each entry as uvarint id, uvarint name length, name,
// uvarint (language's place in the meta << 1 | reporting). Anything that does not
// decode to exactly the meta's count is no index at all: the replica reads NerdGraph.

// nameIndexChunk is the most entries of one chunk (well under the store's entry bound
// for names of any length NerdGraph gives).
const nameIndexChunk = 2000

// nameIndexMeta is the meta of a stored index.
type nameIndexMeta struct {
	ReadAt    int64    `json:"at"` // Unix ms
	Gen       uint64   `json:"gen"`
	Count     int      `json:"n"`
	Languages []string `json:"langs"`
}

// shareIndex writes ix to the fleet's store (not in a fleet: nothing), for the max
// staleness.
func (t *Translator) shareIndex(key string, ix *nameIndex) {
	if t.index.shared == nil {
		return
	}
	meta, chunks := encodeIndex(ix)
	ctx, cancel := context.WithTimeout(context.Background(), state.SharedTimeout)
	defer cancel()
	_ = t.index.shared.SetChunks(ctx, "name_index", key, meta, chunks, t.index.maxStale)
}

// sharedIndex reads key's index from the fleet's store: false when it is not there,
// does not decode, or the fleet's acceptance of c's key has lapsed. A hit takes the
// fleet's acceptance as this replica's, as the shared cache does.
func (t *Translator) sharedIndex(c Caller, key string) (*nameIndex, bool) {
	if t.index.shared == nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), state.SharedTimeout)
	defer cancel()
	meta, chunks, authLeft, err := t.index.shared.GetChunks(ctx, "name_index", key, c.KeyHash)
	if err != nil || chunks == nil || authLeft <= 0 {
		return nil, false
	}
	ix, ok := decodeIndex(meta, chunks, t.index.maxApps)
	if !ok {
		return nil, false
	}
	t.auth.fleetAccepted(c.KeyHash, authLeft)
	return ix, true
}

// encodeIndex is ix's meta and chunks.
func encodeIndex(ix *nameIndex) (meta []byte, chunks [][]byte) {
	m := nameIndexMeta{ReadAt: ix.readAt.UnixMilli(), Gen: ix.gen, Count: len(ix.entries)}
	place := map[string]uint64{}
	for lo := 0; lo < len(ix.entries) || lo == 0; lo += nameIndexChunk {
		es := ix.entries[lo:min(lo+nameIndexChunk, len(ix.entries))]
		var b []byte
		for _, e := range es {
			p, ok := place[e.language]
			if !ok {
				p = uint64(len(m.Languages))
				place[e.language] = p
				m.Languages = append(m.Languages, e.language)
			}
			flag := p << 1
			if e.reporting {
				flag |= 1
			}
			b = binary.AppendUvarint(b, uint64(e.id))
			b = binary.AppendUvarint(b, uint64(len(e.name)))
			b = append(b, e.name...)
			b = binary.AppendUvarint(b, flag)
		}
		chunks = append(chunks, b)
	}
	meta, _ = json.Marshal(m) // strings and numbers only
	return meta, chunks
}

// decodeIndex is the index of meta and chunks; false when they do not hold exactly
// the meta's entries (at most maxApps).
func decodeIndex(meta []byte, chunks [][]byte, maxApps int) (*nameIndex, bool) {
	var m nameIndexMeta
	if json.Unmarshal(meta, &m) != nil || m.Count < 0 || m.Count > maxApps ||
		len(chunks) != max((m.Count+nameIndexChunk-1)/nameIndexChunk, 1) {
		return nil, false
	}
	entries := make([]nameEntry, 0, m.Count)
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
			entries = append(entries, nameEntry{id: int64(id), name: name, language: m.Languages[flag>>1], reporting: flag&1 == 1})
		}
	}
	if len(entries) != m.Count {
		return nil, false
	}
	return &nameIndex{entries: entries, readAt: time.UnixMilli(m.ReadAt), gen: m.Gen}, true
}
