package gateway

import (
	"net/http"
	"strings"

	"github.com/v2bridge/v2bridge/restv2"
)

// One caller per request: the headers that name who the caller is — its key, and the
// account a multi-account key acts on — must name one caller, on every path
// (translated, replayed, passed through).

// keyHeaders are the headers a key may come in, in canonical spelling: X-Api-Key (a
// REST API key's) and Api-Key (a user key's), both documented for REST v2 with no
// precedence between them (newrelic/docs-website
// src/content/docs/apis/rest-api-v2/get-started/introduction-new-relic-rest-api-v2.mdx),
// and X-License-Key (the legacy routes' key).
var keyHeaders = [...]string{"X-Api-Key", "Api-Key", "X-License-Key"}

// presentedKey is the one key a request carries and the header it came in first (in
// keyHeaders' order); "" when it carries none. When the key headers, or the repeated
// values of one, carry different keys the request cannot be told to be one caller: REST
// documents no precedence among them, so it is refused with a 401 naming the headers.
func presentedKey(h http.Header) (key, header string, err error) {
	for _, name := range keyHeaders {
		for _, v := range h[name] {
			v = strings.TrimSpace(v)
			switch {
			case v == "" || v == key:
			case key == "":
				key, header = v, name
			default:
				return "", "", keyConflict(header, name)
			}
		}
	}
	return key, header, nil
}

// keyConflict is the 401 for a request with two different keys, in headers a and b.
func keyConflict(a, b string) *restv2.Error {
	what := a + " and " + b
	if a == b {
		what = "repeated " + a + " headers"
	}
	return restv2.Unauthorized("The request carries different API keys in " + what + "; send one key")
}

// accountHeaders are the headers that name the account a request acts on, canonical
// spelling first, as documented second.
var accountHeaders = [...]struct{ key, name string }{{"X-Account-Id", "X-Account-ID"}, {"Newrelic-Account-Id", "NewRelic-Account-Id"}}

// accountHeader is the one account the request's headers name, with the header it came
// in (as documented); "" when none names one. Headers, or repeated values of one, that
// name different accounts are a 400.
func accountHeader(h http.Header) (value, name string, err error) {
	for _, ah := range accountHeaders {
		for _, v := range h[ah.key] {
			v = strings.TrimSpace(v)
			switch {
			case v == "" || v == value:
			case value == "":
				value, name = v, ah.name
			default:
				what := name + " and " + ah.name
				if name == ah.name {
					what = "repeated " + name + " headers"
				}
				return "", "", restv2.BadRequest("The request names different accounts in " + what + "; name one")
			}
		}
	}
	return value, name, nil
}

// oneCaller reports whether h names one caller: no two different keys, no two
// different accounts.
func oneCaller(h http.Header) bool {
	if _, _, err := presentedKey(h); err != nil {
		return false
	}
	_, _, err := accountHeader(h)
	return err == nil
}

// ForwardedKey is the one key a request carries and the header it came in, as a
// pass-through forwards it to REST; "" when it carries none or two different ones (the
// gateway refuses such a request before forwarding it).
func ForwardedKey(h http.Header) (header, key string) {
	key, header, err := presentedKey(h)
	if err != nil {
		return "", ""
	}
	return header, key
}
