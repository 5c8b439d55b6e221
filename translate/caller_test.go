package translate

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestKeySum: KeySum's hash is HashKey's, and its sum is the key's SHA-256.
func TestKeySum(t *testing.T) {
	for _, key := range []string{"NRAK-DEMO-ACCOUNT-1", "NRAK-DEMO-ACCOUNT-2", "x", ""} {
		hash, sum := KeySum(key)
		want := sha256.Sum256([]byte(key))
		if sum != want {
			t.Errorf("KeySum(%q) sum %x, want %x", key, sum, want)
		}
		if hash != hex.EncodeToString(want[:]) || hash != HashKey(key) {
			t.Errorf("KeySum(%q) hash %s, HashKey %s, want %x", key, hash, HashKey(key), want)
		}
	}
}
