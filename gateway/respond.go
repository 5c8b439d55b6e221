package gateway

import (
	"bytes"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// writeDoc renders doc in format with status, plus the accounting headers.
func (g *Gateway) writeDoc(w http.ResponseWriter, r *http.Request, format string, status int, doc restv2.Document) {
	rd, ok := restv2.ForFormat(format)
	if !ok {
		rd, _ = restv2.ForFormat("json")
	}
	var body []byte
	var etag string // the body's tag, when a remembered rendering has it
	var kept []byte // body, when it is the document's remembered rendering (immutable)
	memo, shared := doc.(memoized)
	if shared {
		body, etag, shared = memo.Rendered(rd.ContentType())
		kept = body
	}
	if !shared {
		buf := restv2.GetBuffer()
		defer restv2.PutBuffer(buf)
		*buf = rd.Render((*buf)[:0], doc)
		body = *buf
		if memo != nil && memo.Shared() && len(body) <= maxRemembered {
			etag = bodyTag(body)
			kept = bytes.Clone(body)
			memo.Remember(rd.ContentType(), kept, etag)
		}
	}
	h := w.Header()
	st := stateFrom(r.Context())
	slots := slotsOf(st)
	slots.set(h, "Content-Type", rd.ContentType())
	slots.set(h, "Cache-Control", "max-age=0, private, must-revalidate")
	compressible := len(body) >= minCompressBytes // compress.go
	if compressible {
		h.Set("Vary", "Accept-Encoding")
	}
	if status == restv2.StatusOK {
		if etag == "" {
			etag = bodyTag(body)
		}
		slots.set(h, "Etag", etag)
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatches(inm, etag) {
				upstreamHeaders(w, st)
				w.WriteHeader(restv2.StatusNotModified)
				return
			}
		}
	}
	if compressible && acceptsGzip(r.Header) {
		key := rd.ContentType() + gzipMemoSuffix
		var zipped []byte
		if kept != nil {
			zipped, _, _ = memo.Rendered(key)
		}
		if zipped == nil {
			zbuf := restv2.GetBuffer()
			defer restv2.PutBuffer(zbuf)
			*zbuf = g.appendGzip((*zbuf)[:0], body)
			zipped = *zbuf
			if kept != nil {
				zipped = bytes.Clone(zipped) // the document's, kept beside its rendering
				memo.Remember(key, zipped, etag)
			}
		}
		body = zipped
		if kept != nil {
			kept = zipped
		}
		h.Set("Content-Encoding", "gzip")
	}
	slots.set(h, "Content-Length", strconv.Itoa(len(body)))
	upstreamHeaders(w, st)
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
	if st != nil && status == restv2.StatusOK && kept != nil {
		st.answer = kept // replay.go
	}
}

// maxRemembered bounds the rendered bytes a cached document keeps per format (the
// metric cache is bounded by entries, not bytes; large documents are re-rendered).
const maxRemembered = 64 << 10

// memoized is a document that keeps its rendered bytes (one served from a cache to
// many requests), so it is rendered once per format.
type memoized interface {
	Shared() bool
	Rendered(format string) (body []byte, etag string, ok bool)
	Remember(format string, body []byte, etag string)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// appendMS appends d in milliseconds with two decimals (Server-Timing's dur).
func appendMS(b []byte, d time.Duration) []byte {
	return strconv.AppendFloat(b, float64(d)/float64(time.Millisecond), 'f', 2, 64)
}

// writeRaw sends a body that is not a v2 document (legacy v0 XML).
func (g *Gateway) writeRaw(w http.ResponseWriter, r *http.Request, status int, contentType string, body []byte) {
	if status == 0 {
		status = restv2.StatusOK
	}
	h := w.Header()
	st := stateFrom(r.Context())
	slotsOf(st).set(h, "Content-Type", contentType)
	slotsOf(st).set(h, "Content-Length", strconv.Itoa(len(body)))
	upstreamHeaders(w, st)
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// upstreamHeaders reports the NerdGraph calls made for the request.
func upstreamHeaders(w http.ResponseWriter, st *reqState) {
	if st == nil {
		return
	}
	h := w.Header()
	st.hdr.set(h, "X-V2bridge-Upstream-Calls", itoa(st.calls.Count()))
	var buf [64]byte // on the stack: only the header's string is allocated
	b := append(buf[:0], "total;dur="...)
	b = appendMS(b, time.Since(st.start))
	b = append(b, ", upstream;dur="...)
	b = appendMS(b, st.calls.Elapsed())
	st.hdr.set(h, "Server-Timing", string(b))
	if capped := st.caps.String(); capped != "" {
		st.hdr.set(h, "X-V2bridge-Degraded", capped)
	}
	chosenAccountHeader(h, st.account, st.accountSource) // ownaccount.go
}

// headerSlots holds the values of the headers a request sets on its response, so
// setting one costs no allocation: each value goes into the header map as a slice of
// length and capacity 1 over the request's own array. net/http only reads such a
// slice, and a later Add or Set replaces it rather than writing through it. Eight
// slots hold what a 200 sets (request id, fidelity, content type and length, cache
// control, ETag, upstream calls, Server-Timing); beyond them set falls back to Set.
type headerSlots struct {
	v [8]string
	n int
}

// set sets h[key] to value. key must already be in canonical form (as written in
// this package: "Content-Type", "X-V2bridge-Fidelity"); with no slots (s nil or all
// used) it falls back to h.Set.
func (s *headerSlots) set(h http.Header, key, value string) {
	if s == nil || s.n == len(s.v) {
		h.Set(key, value)
		return
	}
	s.v[s.n] = value
	h[key] = s.v[s.n : s.n+1 : s.n+1]
	s.n++
}

// slotsOf returns the header slots of the request st belongs to (nil: none).
func slotsOf(st *reqState) *headerSlots {
	if st == nil {
		return nil
	}
	return &st.hdr
}

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

// linkHeader builds REST v2's RFC 5988 Link header: absolute URLs to
// the gateway that repeat every parameter the caller sent (clients such as
// newrelic-client-go do not re-add filters to a next URL), `page=` in every link,
// `<url>; rel="x"` joined by ", ", commas inside URLs percent-encoded. First page:
// next + last; middle pages: first, prev, next, last; last page: first, prev. No
// header when everything fits on one page; no rel="last" when the last page is
// unknown.
func (g *Gateway) linkHeader(r *http.Request, params restv2.Params, p translate.Paging) string {
	if p.Page <= 1 && !p.HasNext {
		return ""
	}
	base := g.publicBase(r) + r.URL.EscapedPath()
	vals := params.Values()
	link := func(page int, rel string) string {
		vals.Set("page", strconv.Itoa(page))
		return "<" + base + "?" + vals.Encode() + ">; rel=\"" + rel + "\""
	}
	var parts []string
	if p.Page > 1 {
		parts = append(parts, link(1, "first"), link(p.Page-1, "prev"))
	}
	if p.HasNext {
		parts = append(parts, link(p.Page+1, "next"))
		if p.Last > 0 {
			parts = append(parts, link(p.Last, "last"))
		}
	}
	return strings.Join(parts, ", ")
}

// publicBase is scheme://host of the gateway as callers reach it: public_url, else the
// local address the connection was accepted on (the listen address). Never the
// request's Host or X-Forwarded-* headers, which any caller can set (Host:
// evil.example must not put evil.example into Link). Behind a proxy, set public_url.
func (g *Gateway) publicBase(r *http.Request) string {
	if g.cfg.PublicURL != "" {
		return strings.TrimRight(g.cfg.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := "localhost"
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && a != nil {
		host = a.String()
	}
	u := url.URL{Scheme: scheme, Host: host}
	return u.String()
}
