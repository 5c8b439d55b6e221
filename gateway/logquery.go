package gateway

import (
	"net/url"
	"regexp"
	"strings"
)

// maxLoggedQuery bounds the query the access log carries.
const maxLoggedQuery = 1024

// secretName matches a query parameter whose name says it holds a credential; its
// value is never logged.
var secretName = regexp.MustCompile(`(?i)key|token|secret|passw|auth|signature|credential|session`)

// secretValue matches a value that looks like a credential wherever it is given: a New
// Relic key (NRAK-…, NRAA-…, NRJS-…, NRII-…) or a long unbroken run of letters and
// digits (a legacy REST API key).
var secretValue = regexp.MustCompile(`(?i)\bNR[A-Z]{2}-[A-Za-z0-9_-]+|[A-Za-z0-9]{32,}`)

// LoggedQuery is a request's query as the access log shows it: parameter names and
// values in the caller's order, percent-decoded for reading, each credential-like
// value replaced by [redacted], cut to maxLoggedQuery bytes.
func LoggedQuery(raw string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		name, value, hasValue := strings.Cut(part, "=")
		name, value = unescapeForLog(name), unescapeForLog(value)
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(secretValue.ReplaceAllString(name, "[redacted]"))
		if !hasValue {
			continue
		}
		b.WriteByte('=')
		if secretName.MatchString(name) {
			b.WriteString("[redacted]")
		} else {
			b.WriteString(secretValue.ReplaceAllString(value, "[redacted]"))
		}
		if b.Len() > maxLoggedQuery {
			break
		}
	}
	if s := b.String(); len(s) > maxLoggedQuery {
		return strings.ToValidUTF8(s[:maxLoggedQuery], "") + "…"
	}
	return b.String()
}

// unescapeForLog percent-decodes s, or keeps it as sent when it does not decode.
func unescapeForLog(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// loggedUserAgent is the User-Agent the access log shows: its first product with its
// version (curl/8.5.0, newrelic-client-go/2.51.0), so an operator can tell a client's
// releases apart, with the characters a token may not hold replaced as the usage
// report's product is (userAgentProduct), at most 64 bytes.
func loggedUserAgent(ua string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(ua), " ")
	product, version, hasVersion := strings.Cut(tok, "/")
	product = userAgentProduct(product)
	if !hasVersion {
		return product
	}
	out := product + "/" + userAgentProduct(version)
	if len(out) > 64 {
		out = out[:64]
	}
	return out
}
