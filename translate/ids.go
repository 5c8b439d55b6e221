package translate

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
)

// SurrogateID derives a stable 31-bit id for things NerdGraph has no numeric id for
// (application hosts, change-tracking events, issues): the first 8 bytes of
// sha256(namespace|accountId|key), masked to 31 bits so int32 and JavaScript clients keep
// working. The same inputs give the same id in every process.
func SurrogateID(namespace string, accountID int64, key string) int64 {
	var stack [128]byte
	return surrogate(surrogatePrefix(stack[:0], namespace, accountID), key)
}

// HostID is the surrogate id of a host of an APM application.
func HostID(accountID, appID int64, host string) int64 {
	var stack [128]byte
	b := surrogatePrefix(stack[:0], "host", accountID)
	b = strconv.AppendInt(b, appID, 10)
	return surrogate(append(b, '|'), host)
}

// surrogatePrefix appends "namespace|accountId|", the start of a surrogate's input.
func surrogatePrefix(b []byte, namespace string, accountID int64) []byte {
	b = append(b, namespace...)
	b = append(b, '|')
	b = strconv.AppendInt(b, accountID, 10)
	return append(b, '|')
}

// surrogate hashes prefix+key into the 31-bit id (never 0).
func surrogate(prefix []byte, key string) int64 {
	sum := sha256.Sum256(append(prefix, key...))
	id := int64(binary.BigEndian.Uint64(sum[:8]) & 0x7fffffff)
	if id == 0 {
		id = 1
	}
	return id
}
