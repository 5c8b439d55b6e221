package gateway

import (
	"encoding/hex"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// REST v2 answered every 200 with a strong validator, `ETag: "<hex>"`, beside
// `Cache-Control: max-age=0, private, must-revalidate` (Rails' defaults: the body's
// digest, and a 304 with no body to a GET whose If-None-Match names it), as recorded
// deployments-list and application answers show; the specification lists ETag among
// the deployments list's headers. The gateway's tag is a digest of the bytes it sends,
// so equal answers carry equal tags on every replica; its hex is xxhash64's (the value
// of Rails' MD5 is never compared by a client, only echoed back).

// etagLen is the length of a tag: 16 hex digits in quotes.
const etagLen = 2 + 2*8

// appendETag appends body's tag, quoted, to b.
func appendETag(b, body []byte) []byte {
	var sum [8]byte
	d := xxhash.Sum64(body)
	for i := range sum {
		sum[7-i] = byte(d >> (8 * i))
	}
	b = append(b, '"')
	b = hex.AppendEncode(b, sum[:])
	return append(b, '"')
}

// bodyTag is body's tag, quoted, as a header value.
func bodyTag(body []byte) string {
	var tag [etagLen]byte
	return string(appendETag(tag[:0], body))
}

// etagMatches reports whether an If-None-Match value names etag: "*", or a list of
// tags of which one equals it (weak comparison, RFC 9110 §13.1.2: a W/ prefix is
// ignored).
func etagMatches(inm, etag string) bool {
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}
