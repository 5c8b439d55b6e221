package sim

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// entityGUID is NerdGraph's entity guid: unpadded standard base64 of
// "accountId|DOMAIN|TYPE|domainId" (newrelic/newrelic-client-go
// pkg/entities/entity_guid_validator.go).
func entityGUID(accountID int, domain, typ, domainID string) string {
	return base64.RawStdEncoding.EncodeToString(
		[]byte(strconv.Itoa(accountID) + "|" + domain + "|" + typ + "|" + domainID))
}

// errBadGUID is returned for guids that do not decode to accountId|DOMAIN|TYPE|domainId.
var errBadGUID = errors.New("not an entity guid")

// canonicalGUID decodes guid leniently (padding is ignored) and returns its canonical,
// unpadded form, which is how the store indexes entities.
func canonicalGUID(guid string) (string, error) {
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(guid, "="))
	if err != nil {
		return "", fmt.Errorf("guid %q: %w", guid, errBadGUID)
	}
	parts := strings.Split(string(raw), "|")
	if len(parts) < 4 {
		return "", fmt.Errorf("guid %q: %w", guid, errBadGUID)
	}
	if _, err := strconv.ParseInt(parts[0], 10, 64); err != nil {
		return "", fmt.Errorf("guid %q: %w", guid, errBadGUID)
	}
	return base64.RawStdEncoding.EncodeToString(raw), nil
}
