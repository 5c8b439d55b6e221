package state

import (
	"context"
	"strings"
	"time"
)

// SharedCache keeps cached v2 answers in the fleet's store (store.shared_cache;
// state/fleet.Store): an answer fetched through one replica is served by the others
// without a NerdGraph round trip. The local cache stays in front of it (L1): a local
// hit costs no store round trip, and an entry read from the store is kept locally for
// what is left of its TTL only. Entries are keyed by the local cache's key (caller's
// key hash + account + the account's write count), so the tenant boundary and write
// retirement are the local cache's. Errors mean the store is down or slow: the replica
// uses its local cache alone.
type SharedCache interface {
	// GetCached returns the entry key of cache name (nil: none), its time left, and
	// the time left of the fleet's acceptance of keyHash (<= 0: do not serve it).
	GetCached(ctx context.Context, name, key, keyHash string) (value []byte, ttl, authLeft time.Duration, err error)
	// SetCached writes the entry key of cache name for ttl (within the store's bounds).
	SetCached(ctx context.Context, name, key string, value []byte, ttl time.Duration) error
	// KeyAccepted and KeyRefused keep the fleet's record of NerdGraph's verdict on a
	// key, which shared entries are served under (the auth TTL rule, fleet-wide).
	KeyAccepted(ctx context.Context, keyHash string, ttl time.Duration)
	KeyRefused(ctx context.Context, keyHash string)
	// CacheUnshareable counts a value kept local (no codec for its type).
	CacheUnshareable()
}

// SharedTimeout bounds one call to the fleet's store made without a deadline of the
// caller's (the store's own timeout is shorter).
const SharedTimeout = time.Second

// Codec turns the values of one cache into bytes and back. Encode's false means the
// value stays local (a type the codec does not know, or one JSON cannot carry).
type Codec struct {
	Encode func(v any) ([]byte, bool)
	Decode func(b []byte) (any, bool)
}

// Share puts the cache in front of the fleet's store, its values carried by codec.
// Call it before the cache is used.
func (c *Cache) Share(shared SharedCache, codec Codec) {
	if c != nil {
		c.shared, c.codec = shared, codec
	}
}

// getShared looks key up in the store after a local miss. A hit is kept locally for
// what is left of the entry's TTL, and the fleet's acceptance of the caller's key is
// taken as this replica's (fleetAccepted), so the local hits that follow keep the auth
// TTL rule.
func (c *Cache) getShared(key string) (any, bool) {
	keyHash, _, _ := strings.Cut(key, "|")
	ctx, cancel := context.WithTimeout(context.Background(), SharedTimeout)
	defer cancel()
	b, ttl, authLeft, err := c.shared.GetCached(ctx, c.name, key, keyHash)
	if err != nil || b == nil || ttl <= 0 || authLeft <= 0 {
		return nil, false
	}
	v, ok := c.codec.Decode(b)
	if !ok {
		return nil, false
	}
	if c.fleetAccepted != nil {
		c.fleetAccepted(keyHash, authLeft)
	}
	c.setLocal(key, v, ttl)
	return v, true
}

// setShared writes key's value to the store (after the local Set).
func (c *Cache) setShared(key string, v any) {
	b, ok := c.codec.Encode(v)
	if !ok {
		c.shared.CacheUnshareable()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), SharedTimeout)
	defer cancel()
	_ = c.shared.SetCached(ctx, c.name, key, b, c.ttl)
}

// Shared reports whether the cache's entries are kept in the fleet's store too.
func (c *Cache) Shared() bool { return c != nil && c.shared != nil }
