package translate

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Caller is who a v2 request acts for: the SHA-256 of its API key and the one account
// the request is scoped to. Every cache key starts with it (DESIGN.md rule 4).
type Caller struct {
	KeyHash   string // hex SHA-256 of the API key; the key itself is never kept
	AccountID int64
}

// HashKey returns the hex SHA-256 of an API key.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
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
	n := len(c.KeyHash) + len(kind) + 24
	for _, p := range parts {
		n += len(p) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, c.KeyHash...)
	b = append(b, '|')
	b = strconv.AppendInt(b, c.AccountID, 10)
	b = append(b, '|')
	b = append(b, kind...)
	for _, p := range parts {
		b = append(b, '|')
		b = append(b, p...)
	}
	return string(b)
}
