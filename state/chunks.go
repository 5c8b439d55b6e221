package state

import (
	"context"
	"time"
)

// SharedChunks keeps a cached value too large for one shared cache entry in the
// fleet's store (store.shared_cache; state/fleet.Store) as bounded chunks: the chunks
// are written under a new generation, then a small manifest naming it, so a reader
// that finds the manifest finds every chunk it names (or a chunk gone missing, which
// it takes as no entry at all). Keys are the local cache's (caller's key hash first),
// so the tenant boundary is the local cache's, and an entry is served only while the
// fleet's acceptance of the caller's key holds, as for SharedCache.
type SharedChunks interface {
	// GetChunks returns the entry key of cache name: the meta written with it and its
	// chunks (nil: none, or not whole), and the time left of the fleet's acceptance of
	// keyHash (<= 0: do not serve it).
	GetChunks(ctx context.Context, name, key, keyHash string) (meta []byte, chunks [][]byte, authLeft time.Duration, err error)
	// SetChunks writes meta and chunks as the entry key of cache name for ttl (within
	// the store's bounds: a chunk past the entry bound, or an entry past the byte
	// budget, is not written).
	SetChunks(ctx context.Context, name, key string, meta []byte, chunks [][]byte, ttl time.Duration) error
	// TryLock takes the fleet-wide lock of key of cache name for at most ttl: ok false
	// when another holder has it. release gives it back early (ok only).
	TryLock(ctx context.Context, name, key string, ttl time.Duration) (release func(), ok bool, err error)
}
