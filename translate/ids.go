package translate

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
)

// SurrogateID derives a stable 31-bit id for things NerdGraph has no numeric id for
// (application hosts, change-tracking events, issues): the first 8 bytes of
// sha256(namespace|accountId|key), masked to 31 bits so int32 and JavaScript clients keep
// working (MAPPING.md §1.4). The same inputs give the same id in every process.
func SurrogateID(namespace string, accountID int64, key string) int64 {
	h := sha256.New()
	h.Write([]byte(namespace))
	h.Write([]byte{'|'})
	h.Write(strconv.AppendInt(nil, accountID, 10))
	h.Write([]byte{'|'})
	h.Write([]byte(key))
	var sum [sha256.Size]byte
	id := int64(binary.BigEndian.Uint64(h.Sum(sum[:0])[:8]) & 0x7fffffff)
	if id == 0 {
		id = 1
	}
	return id
}

// HostID is the surrogate id of a host of an APM application.
func HostID(accountID, appID int64, host string) int64 {
	return SurrogateID("host", accountID, strconv.FormatInt(appID, 10)+"|"+host)
}
