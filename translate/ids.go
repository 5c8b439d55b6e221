package translate

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
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

// GUID is a decoded NerdGraph entity GUID: base64 (standard alphabet, no padding) of
// "accountId|DOMAIN|TYPE|domainId".
type GUID struct {
	AccountID int64
	Domain    string
	Type      string
	DomainID  string
}

// Entity domains and types of the REST v2 resources.
const (
	DomainAPM     = "APM"
	DomainBrowser = "BROWSER"
	DomainMobile  = "MOBILE"
	DomainEXT     = "EXT"
	TypeApp       = "APPLICATION"
	TypeKeyTx     = "KEY_TRANSACTION"
)

// String encodes the GUID, always unpadded.
func (g GUID) String() string {
	var raw [96]byte
	b := strconv.AppendInt(raw[:0], g.AccountID, 10)
	b = append(append(append(append(append(b, '|'), g.Domain...), '|'), g.Type...), '|')
	return encodeGUID(append(b, g.DomainID...))
}

// AppGUID is the GUID of a REST application id of the given domain (APM, BROWSER,
// MOBILE) in an account; REST ids become GUIDs without a lookup.
func AppGUID(accountID int64, domain string, appID int64) string {
	var raw [96]byte
	b := strconv.AppendInt(raw[:0], accountID, 10)
	b = append(append(append(b, '|'), domain...), "|"+TypeApp+"|"...)
	return encodeGUID(strconv.AppendInt(b, appID, 10))
}

// encodeGUID is raw in the GUIDs' base64 (standard alphabet, no padding), with one
// allocation: the string's.
func encodeGUID(raw []byte) string {
	var out [128]byte
	n := base64.RawStdEncoding.EncodedLen(len(raw))
	if n > len(out) {
		return base64.RawStdEncoding.EncodeToString(raw)
	}
	base64.RawStdEncoding.Encode(out[:n], raw)
	return string(out[:n])
}

// ParseGUID decodes a GUID leniently (trailing '=' padding is accepted) and checks it
// has at least four '|'-separated parts with a numeric account id.
func ParseGUID(s string) (GUID, error) {
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return GUID{}, fmt.Errorf("guid %q: %w", s, err)
	}
	parts := strings.SplitN(string(raw), "|", 4)
	if len(parts) < 4 {
		return GUID{}, fmt.Errorf("guid %q: %w", s, errors.New("want accountId|DOMAIN|TYPE|domainId"))
	}
	acct, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil {
		return GUID{}, fmt.Errorf("guid %q: account id: %w", s, err)
	}
	return GUID{AccountID: acct, Domain: parts[1], Type: parts[2], DomainID: parts[3]}, nil
}

// hostIDMemo remembers the host ids (HostID: a SHA-256 each) of the hosts application
// pages name, so a page of 200 applications and their hosts costs map lookups rather
// than hashes. It holds a pure function of its keys (account, application, host name),
// nothing a caller could not compute, and is emptied when it reaches max entries.
type hostIDMemo struct {
	mu  sync.RWMutex
	ids map[hostKey]int64
	max int
}

// hostKey is what a host id is a function of.
type hostKey struct {
	account, app int64
	host         string
}

func newHostIDMemo(max int) *hostIDMemo { return &hostIDMemo{ids: map[hostKey]int64{}, max: max} }

// hostID is HostID(accountID, appID, host); a nil memo computes it.
func (m *hostIDMemo) hostID(accountID, appID int64, host string) int64 {
	if m == nil {
		return HostID(accountID, appID, host)
	}
	k := hostKey{accountID, appID, host}
	m.mu.RLock()
	id, ok := m.ids[k]
	m.mu.RUnlock()
	if ok {
		return id
	}
	id = HostID(accountID, appID, host)
	m.mu.Lock()
	if len(m.ids) >= m.max {
		clear(m.ids)
	}
	m.ids[k] = id
	m.mu.Unlock()
	return id
}
