package translate

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

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
	raw := strconv.FormatInt(g.AccountID, 10) + "|" + g.Domain + "|" + g.Type + "|" + g.DomainID
	return base64.RawStdEncoding.EncodeToString([]byte(raw))
}

// AppGUID is the GUID of a REST application id of the given domain (APM, BROWSER,
// MOBILE) in an account; REST ids become GUIDs without a lookup.
func AppGUID(accountID int64, domain string, appID int64) string {
	return GUID{AccountID: accountID, Domain: domain, Type: TypeApp, DomainID: strconv.FormatInt(appID, 10)}.String()
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
