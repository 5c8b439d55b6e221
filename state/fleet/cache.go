package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/v2bridge/v2bridge/state"
)

// Shared cache (store.shared_cache): the translator's cached v2 answers live
// in the store, so an answer fetched through one replica is served by the others.
//
//   - An entry's key is the SHA-256 of the translator's cache key, which already names
//     the caller (SHA-256 of the API key), the account and the account's write count
//     (translate.Caller.cacheKeyAt): the identity is the local cache's, and a write
//     through any replica retires the entries of the account at once because every
//     replica's count rises (writes.go) and its next read asks for another key.
//   - Each entry expires with its cache's TTL (PX), like the local entry.
//   - A key's entries are served only while the fleet's acceptance record of the key
//     (auth:<key hash>, written when NerdGraph accepts the key, deleted when it refuses
//     it, expiring with the auth TTL) is present: a revoked key is refused fleet-wide.
//   - Writes are capped: an entry larger than MaxCacheEntryBytes is not written, and
//     the bytes written per window (the longest cache TTL) are counted in the store, so
//     that at most MaxCacheBytes are live at any time (an entry lives at most one
//     window, so the live entries were written in this window or the last, each held
//     to half the bound). Entries not written are counted (CacheStats).

// DefaultCacheEntryBytes and DefaultCacheBytes are the shared cache's default bounds.
const (
	DefaultCacheEntryBytes = 256 << 10
	DefaultCacheBytes      = 64 << 20
)

// CacheOptions switch the shared cache on and bound it (Options.Cache).
type CacheOptions struct {
	// MaxEntryBytes is the largest entry written (key and value; default
	// DefaultCacheEntryBytes).
	MaxEntryBytes int64
	// MaxBytes bounds the bytes of the live entries (default DefaultCacheBytes).
	MaxBytes int64
	// Window is the longest TTL of a shared entry (the accounting window).
	Window time.Duration
}

// cacheState is the shared cache's configuration and counters.
type cacheState struct {
	opts CacheOptions

	hits, misses, written  atomic.Int64
	tooLarge, overBudget   atomic.Int64
	fallbacks, unshareable atomic.Int64
}

// newCacheState applies o's defaults.
func newCacheState(o CacheOptions) *cacheState {
	if o.MaxEntryBytes <= 0 {
		o.MaxEntryBytes = DefaultCacheEntryBytes
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultCacheBytes
	}
	if o.Window <= 0 {
		o.Window = 10 * time.Minute
	}
	return &cacheState{opts: o}
}

// SharesCache reports whether the shared cache is on (Options.Cache).
func (s *Store) SharesCache() bool { return s != nil && s.cache != nil }

// CacheStats returns the shared cache's counters (zero when it is off).
func (s *Store) CacheStats() state.CacheStats {
	cs := s.cache
	if cs == nil {
		return state.CacheStats{}
	}
	return state.CacheStats{Hits: cs.hits.Load(), Misses: cs.misses.Load(), Written: cs.written.Load(),
		TooLarge: cs.tooLarge.Load(), OverBudget: cs.overBudget.Load(), Unshareable: cs.unshareable.Load(),
		Fallbacks: cs.fallbacks.Load()}
}

// CacheUnshareable counts a value the translator keeps local.
func (s *Store) CacheUnshareable() {
	if cs := s.cache; cs != nil {
		cs.unshareable.Add(1)
	}
}

// entryKey is the store key of the cache entry named by cacheKey.
func (s *Store) entryKey(cacheName, cacheKey string) string {
	sum := sha256.Sum256([]byte(cacheKey))
	return s.key("c", cacheName, hex.EncodeToString(sum[:]))
}

// errCacheOff is returned by the cache calls when Options.Cache was not set.
var errCacheOff = errors.New("shared cache off")

// GetCached reads the entry cacheKey of cacheName and the fleet's acceptance of keyHash
// in one round trip: the entry's bytes (nil: none), how long it has left, and how long
// the fleet's acceptance of keyHash has left (<= 0: none, the entry must not be
// served). An error means the store is down or slow (counted as a fallback).
func (s *Store) GetCached(ctx context.Context, cacheName, cacheKey, keyHash string) (value []byte, ttl, authLeft time.Duration, err error) {
	cs := s.cache
	if cs == nil {
		return nil, 0, 0, errCacheOff
	}
	if !s.usable() {
		cs.fallbacks.Add(1)
		return nil, 0, 0, s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	ek := s.entryKey(cacheName, cacheKey)
	p := s.rdb.Pipeline()
	get := p.Get(c, ek)
	left := p.PTTL(c, ek)
	auth := p.PTTL(c, s.key("auth", keyHash))
	if _, err := p.Exec(c); err != nil && !errors.Is(err, redis.Nil) {
		s.fail(err)
		cs.fallbacks.Add(1)
		return nil, 0, 0, err
	}
	if b, err := get.Bytes(); err == nil {
		value = b
	}
	ttl, authLeft = left.Val(), auth.Val()
	if value != nil && ttl > 0 && authLeft > 0 {
		cs.hits.Add(1)
	} else {
		cs.misses.Add(1)
	}
	return value, ttl, authLeft, nil
}

// cacheSet writes an entry within the window's byte budget, atomically: the bytes are
// added to the window's count first, and taken back (the entry not written) when the
// count passes the budget.
var cacheSet = newScript(budgetLua("KEYS[2]", "ARGV[2]", "ARGV[3]", "ARGV[4]") +
	"redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[5])\nreturn 1")

// budgetLua is the start of a script that counts n bytes in the byte budget key (a
// window's count, which expires window ms after its first bytes) and, when the count
// passes budget, takes them back and returns 0. Its arguments are Lua expressions
// (KEYS[i], ARGV[i]); the script goes on when the bytes fit.
func budgetLua(key, n, budget, window string) string {
	return "local n = tonumber(" + n + ")\n" +
		"local used = redis.call('INCRBY', " + key + ", n)\n" +
		"if used == n then redis.call('PEXPIRE', " + key + ", " + window + ") end\n" +
		"if used > tonumber(" + budget + ") then\n" +
		"  redis.call('DECRBY', " + key + ", n)\n" +
		"  return 0\n" +
		"end\n"
}

// SetCached writes value as the entry cacheKey of cacheName for ttl, within the bounds
// (an entry past them is not written and counted). An error means the store is down
// or slow (counted as a fallback).
func (s *Store) SetCached(ctx context.Context, cacheName, cacheKey string, value []byte, ttl time.Duration) error {
	cs := s.cache
	if cs == nil {
		return errCacheOff
	}
	if !s.usable() {
		cs.fallbacks.Add(1)
		return s.Status()
	}
	ek := s.entryKey(cacheName, cacheKey)
	n := int64(len(ek) + len(value))
	if n > cs.opts.MaxEntryBytes {
		cs.tooLarge.Add(1)
		return nil
	}
	ms := max(ttl.Milliseconds(), 1)
	win := cs.opts.Window.Milliseconds()
	slot := time.Now().UnixMilli() / win
	c, cancel := s.ctx(ctx)
	defer cancel()
	ok, err := cacheSet.Run(c, s.rdb, []string{ek, s.key("cbytes", strconv.FormatInt(slot, 10))},
		value, n, cs.opts.MaxBytes/2, 2*win, ms).Int64()
	if err != nil {
		s.fail(err)
		cs.fallbacks.Add(1)
		return err
	}
	if ok == 1 {
		cs.written.Add(1)
	} else {
		cs.overBudget.Add(1)
	}
	return nil
}

// KeyAccepted records that NerdGraph accepted keyHash now: the fleet serves its shared
// entries for ttl.
func (s *Store) KeyAccepted(ctx context.Context, keyHash string, ttl time.Duration) {
	if s.cache == nil || !s.usable() {
		return
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	if err := s.rdb.Set(c, s.key("auth", keyHash), "1", max(ttl, time.Millisecond)).Err(); err != nil {
		s.fail(err)
	}
}

// KeyRefused records that NerdGraph refused keyHash: no replica serves its shared
// entries any more.
func (s *Store) KeyRefused(ctx context.Context, keyHash string) {
	if s.cache == nil || !s.usable() {
		return
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	if err := s.rdb.Del(c, s.key("auth", keyHash)).Err(); err != nil {
		s.fail(err)
	}
}
