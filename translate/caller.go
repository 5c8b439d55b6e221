package translate

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Caller is who a v2 request acts for: the SHA-256 of its API key and the one account
// the request is scoped to. Every cache key starts with it, so no caller is answered
// from another key's or another account's entry.
type Caller struct {
	KeyHash   string // hex SHA-256 of the API key; the key itself is never kept
	AccountID int64
}

// HashKey returns the hex SHA-256 of an API key.
func HashKey(key string) string {
	hash, _ := KeySum(key)
	return hash
}

// KeySum returns the hex SHA-256 of an API key and the SHA-256 itself, for a caller
// that needs both (the gateway hands the sum to graphql.WithAPIKeySum, so a request
// hashes its key once).
func KeySum(key string) (hash string, sum [sha256.Size]byte) {
	sum = sha256.Sum256([]byte(key))
	var dst [2 * sha256.Size]byte
	hex.Encode(dst[:], sum[:])
	return string(dst[:]), sum
}

// Short is the first 8 hex characters of the key hash, safe for logs and reports.
func (c Caller) Short() string {
	if len(c.KeyHash) < 8 {
		return c.KeyHash
	}
	return c.KeyHash[:8]
}

// cacheKey is the tenant-scoped key of a cached item.
func (c Caller) cacheKey(kind string, parts ...string) string {
	return c.cacheKeyAt(kind, -1, parts...)
}

// cacheKeyAt is cacheKey with the account's write count gen written after kind
// (gen < 0: none), as kind@gen.
func (c Caller) cacheKeyAt(kind string, gen int64, parts ...string) string {
	n := len(c.KeyHash) + len(kind) + 45
	for _, p := range parts {
		n += len(p) + 1
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(c.KeyHash)
	b.WriteByte('|')
	var num [20]byte
	b.Write(strconv.AppendInt(num[:0], c.AccountID, 10))
	b.WriteByte('|')
	b.WriteString(kind)
	if gen >= 0 {
		b.WriteByte('@')
		b.Write(strconv.AppendInt(num[:0], gen, 10))
	}
	for _, p := range parts {
		b.WriteByte('|')
		b.WriteString(p)
	}
	return b.String()
}
