package fleet

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Chunked entries of the shared cache (state.SharedChunks): a value too large for one
// entry (MaxEntryBytes), such as an account's name index, is written as chunks under a
// generation of its own, then a manifest naming the generation and the chunk count:
//
//   - x:<cache>:<sha256(key)> is the manifest, written last (in the same MULTI as the
//     chunks), and x:<cache>:<sha256(key)>:<generation>:<i> the chunks, all with the
//     entry's TTL; the previous generation's chunks are left chunkGrace to live, so a
//     reader that read the old manifest still finds them.
//   - Each chunk is bounded by MaxEntryBytes; the entry's bytes are counted in a budget
//     of their own (xbytes, MaxBytes/2 per window of the entry's TTL, as cbytes is for
//     single entries), so chunked entries never crowd out the others.
//   - A reader reads the manifest with the fleet's acceptance of the caller's key (one
//     round trip), then the chunks (one MGET); a chunk missing means no entry.
//   - xlock:<cache>:<sha256(key)> is a lock (SET NX PX) so that one replica of the fleet
//     at a time reads a value the others will share.

// chunkGrace is how long the previous generation's chunks outlive a new manifest.
const chunkGrace = 30 * time.Second

// manifest is what the manifest key holds.
type manifest struct {
	Gen    string `json:"g"`
	Chunks int    `json:"n"`
	Meta   []byte `json:"m"`
}

// chunkedKey is the store key of kind (x: the manifest, xlock: the lock) of the chunked
// entry cacheKey of cacheName.
func (s *Store) chunkedKey(kind, cacheName, cacheKey string) string {
	sum := sha256.Sum256([]byte(cacheKey))
	return s.key(kind, cacheName, hex.EncodeToString(sum[:]))
}

func (s *Store) manifestKey(cacheName, cacheKey string) string {
	return s.chunkedKey("x", cacheName, cacheKey)
}

func (s *Store) chunkKey(manifestKey, gen string, i int) string {
	return manifestKey + ":" + gen + ":" + strconv.Itoa(i)
}

// GetChunks reads the chunked entry cacheKey of cacheName: its meta and chunks (nil:
// none, or one chunk missing) and the time left of the fleet's acceptance of keyHash
// (<= 0: the entry must not be served). An error means the store is down or slow.
func (s *Store) GetChunks(ctx context.Context, cacheName, cacheKey, keyHash string) (meta []byte, chunks [][]byte, authLeft time.Duration, err error) {
	cs := s.cache
	if cs == nil {
		return nil, nil, 0, errCacheOff
	}
	if !s.usable() {
		cs.fallbacks.Add(1)
		return nil, nil, 0, s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	mk := s.manifestKey(cacheName, cacheKey)
	p := s.rdb.Pipeline()
	get := p.Get(c, mk)
	auth := p.PTTL(c, s.key("auth", keyHash))
	if _, err := p.Exec(c); err != nil && !errors.Is(err, redis.Nil) {
		s.fail(err)
		cs.fallbacks.Add(1)
		return nil, nil, 0, err
	}
	authLeft = auth.Val()
	b, err := get.Bytes()
	var m manifest
	if err != nil || authLeft <= 0 || json.Unmarshal(b, &m) != nil || m.Chunks <= 0 || m.Chunks > maxChunks {
		cs.misses.Add(1)
		return nil, nil, authLeft, nil
	}
	keys := make([]string, m.Chunks)
	for i := range keys {
		keys[i] = s.chunkKey(mk, m.Gen, i)
	}
	vals, err := s.rdb.MGet(c, keys...).Result()
	if err != nil {
		s.fail(err)
		cs.fallbacks.Add(1)
		return nil, nil, 0, err
	}
	chunks = make([][]byte, len(vals))
	for i, v := range vals {
		str, ok := v.(string)
		if !ok {
			cs.misses.Add(1)
			return nil, nil, authLeft, nil
		}
		chunks[i] = []byte(str)
	}
	cs.hits.Add(1)
	return m.Meta, chunks, authLeft, nil
}

// maxChunks bounds the chunks of one entry a reader asks for.
const maxChunks = 4096

// chunksBudget counts ARGV[1] bytes in the window's budget KEYS[1] (ARGV[2] bytes, the
// window ARGV[3] ms) and takes them back when it is passed: 1 counted, 0 over budget.
var chunksBudget = newScript(budgetLua("KEYS[1]", "ARGV[1]", "ARGV[2]", "ARGV[3]") + "return 1")

// SetChunks writes meta and chunks as the chunked entry cacheKey of cacheName for ttl:
// not at all when a chunk passes MaxEntryBytes or the entry the budget (both
// counted). An error means the store is down or slow.
func (s *Store) SetChunks(ctx context.Context, cacheName, cacheKey string, meta []byte, chunks [][]byte, ttl time.Duration) error {
	cs := s.cache
	if cs == nil {
		return errCacheOff
	}
	if !s.usable() {
		cs.fallbacks.Add(1)
		return s.Status()
	}
	if len(chunks) == 0 || len(chunks) > maxChunks {
		cs.tooLarge.Add(1)
		return nil
	}
	mk := s.manifestKey(cacheName, cacheKey)
	var gb [8]byte
	_, _ = rand.Read(gb[:])
	gen := hex.EncodeToString(gb[:])
	n := int64(len(mk) + len(meta))
	for i, ch := range chunks {
		size := int64(len(s.chunkKey(mk, gen, i)) + len(ch))
		if size > cs.opts.MaxEntryBytes {
			cs.tooLarge.Add(1)
			return nil
		}
		n += size
	}
	m, err := json.Marshal(manifest{Gen: gen, Chunks: len(chunks), Meta: meta})
	if err != nil {
		return err
	}
	win := max(ttl.Milliseconds(), 1)
	slot := time.Now().UnixMilli() / win
	c, cancel := s.ctx(ctx)
	defer cancel()
	ok, err := chunksBudget.Run(c, s.rdb, []string{s.key("xbytes", strconv.FormatInt(win, 10), strconv.FormatInt(slot, 10))},
		n, cs.opts.MaxBytes/2, 2*win).Int64()
	if err == nil && ok == 0 {
		cs.overBudget.Add(1)
		return nil
	}
	var old []byte
	if err == nil {
		old, err = s.rdb.Get(c, mk).Bytes()
		if errors.Is(err, redis.Nil) {
			err = nil
		}
	}
	if err == nil {
		tx := s.rdb.TxPipeline()
		for i, ch := range chunks {
			tx.Set(c, s.chunkKey(mk, gen, i), ch, ttl)
		}
		tx.Set(c, mk, m, ttl)
		var prev manifest
		if old != nil && json.Unmarshal(old, &prev) == nil && prev.Chunks <= maxChunks {
			for i := range prev.Chunks {
				tx.PExpire(c, s.chunkKey(mk, prev.Gen, i), chunkGrace)
			}
		}
		_, err = tx.Exec(c)
	}
	if err != nil {
		s.fail(err)
		cs.fallbacks.Add(1)
		return err
	}
	cs.written.Add(1)
	return nil
}

// unlockScript deletes the lock KEYS[1] when it still holds the token ARGV[1].
const unlockScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

var unlock = newScript(unlockScript)

// TryLock takes the fleet-wide lock of the entry cacheKey of cacheName for at most ttl
// (SET NX PX): ok false when another replica holds it. release gives it back (only if
// it is still this holder's). An error means the store is down or slow.
func (s *Store) TryLock(ctx context.Context, cacheName, cacheKey string, ttl time.Duration) (release func(), ok bool, err error) {
	if s.cache == nil {
		return nil, false, errCacheOff
	}
	if !s.usable() {
		return nil, false, s.Status()
	}
	var tb [12]byte
	_, _ = rand.Read(tb[:])
	token := hex.EncodeToString(tb[:])
	key := s.chunkedKey("xlock", cacheName, cacheKey)
	c, cancel := s.ctx(ctx)
	defer cancel()
	ok, err = s.rdb.SetNX(c, key, token, max(ttl, time.Millisecond)).Result()
	if err != nil {
		s.fail(err)
		return nil, false, err
	}
	if !ok {
		return nil, false, nil
	}
	return func() {
		c, cancel := s.ctx(context.Background())
		defer cancel()
		if err := unlock.Run(c, s.rdb, []string{key}, token).Err(); err != nil {
			s.fail(err) // the lock expires with its ttl
		}
	}, true, nil
}
