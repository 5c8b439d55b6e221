package main

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/v2bridge/v2bridge/gateway"
)

// normalise rewrites the values a file may write another way than the gateway compares
// them, so that what `config check` accepts and prints is what serve uses (both read the
// configuration through loadEffective):
//
//   - keys[].sha256: lower-case hex without surrounding blanks, as translate.HashKey
//     writes the hash of a presented key;
//   - compare.ignore and compare.routes.*.ignore: object keys without blanks, in lower
//     case as REST v2 writes every key; an empty list is no list (the defaults, as
//     configs/v2bridge.yaml says of `ignore: []`, or the route inheriting compare.ignore);
//   - trusted_proxies: entries without surrounding blanks.
func (c *fileConfig) normalise() {
	for i := range c.Keys {
		c.Keys[i].SHA256 = strings.ToLower(strings.TrimSpace(c.Keys[i].SHA256))
	}
	c.Compare.Ignore = normaliseIgnore(c.Compare.Ignore)
	for name, rc := range c.Compare.Routes {
		rc.Ignore = normaliseIgnore(rc.Ignore)
		c.Compare.Routes[name] = rc
	}
	for i, p := range c.TrustedProxies {
		c.TrustedProxies[i] = strings.TrimSpace(p)
	}
}

// normaliseIgnore is an ignore list as the comparison matches it: nil when empty, else
// each key trimmed and in lower case.
func normaliseIgnore(keys []string) []string {
	if len(keys) == 0 {
		return nil
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.ToLower(strings.TrimSpace(k))
	}
	return out
}

// checkRouteNames lists the compare.routes entries that name no route: their settings
// would never apply (the routes table's names are checked by modes).
func (cc compareConfig) checkRouteNames() error {
	known := map[string]bool{}
	for _, r := range gateway.Routes() {
		known[r.Name] = true
	}
	var errs []error
	for name := range cc.Routes {
		if !known[name] {
			errs = append(errs, fmt.Errorf("compare.routes.%s: no route of that name (see the README's route table)", name))
		}
	}
	return errors.Join(errs...)
}

// unmapPrefix is p over IPv4 addresses when p is written as an IPv4-mapped IPv6
// prefix (::ffff:10.0.0.1, ::ffff:10.0.0.0/104): the gateway compares a client's
// address unmapped, which such a prefix never contains.
func unmapPrefix(p netip.Prefix) netip.Prefix {
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		return netip.PrefixFrom(a.Unmap(), p.Bits()-96).Masked()
	}
	return p
}
