package gateway

import "strings"

// MappedKey is what a legacy key (REST API key, admin key, license key — none of which
// NerdGraph accepts) stands for: a user key, and optionally the account it is scoped to.
type MappedKey struct {
	UserKey   string
	AccountID int64
}

// KeyMap maps the hex SHA-256 of a presented key to its MappedKey. The configuration
// holds only hashes; the user keys come from the environment or files.
type KeyMap map[string]MappedKey

// lookup finds the mapping of a key hash. The map is keyed by the SHA-256 of the key,
// never the key, so the lookup time does not depend on how much of a guessed key is
// right (a timing probe learns nothing about the key itself).
func (m KeyMap) lookup(keyHash string) (MappedKey, bool) {
	mk, ok := m[keyHash]
	return mk, ok
}

// isUserKey reports whether a key has the shape of a NerdGraph user key.
func isUserKey(key string) bool { return strings.HasPrefix(key, "NRAK-") }
