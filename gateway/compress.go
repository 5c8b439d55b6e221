package gateway

import (
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
)

// Compressed answers. A caller that accepts gzip (Python requests, Go's net/http and
// `curl --compressed` all ask for it) gets an answer of minCompressBytes or more
// gzip-compressed, with `Content-Encoding: gzip`; every answer of that size says
// `Vary: Accept-Encoding`, compressed or not. Shorter answers fit a packet or two and
// are sent as they are. The other headers are those of the uncompressed answer: the
// ETag is the tag of the document's bytes, so an If-None-Match validates either
// encoding; Link and the contract headers are unchanged. A document served from a
// cache keeps its compressed bytes beside its rendering (render memo), so a cached or
// replayed answer is compressed once, not per request.

// minCompressBytes is the smallest answer compressed: about one TCP segment.
const minCompressBytes = 1400

// gzipLevel is gzip.BestSpeed: on a 200-application page it halves the time of the
// default level for about a seventh more bytes (BenchmarkCompressAnswer).
const gzipLevel = gzip.BestSpeed

// gzipMemoSuffix names a document's compressed rendering beside its plain one.
const gzipMemoSuffix = "+gzip"

// acceptsGzip reports whether an Accept-Encoding header admits gzip (RFC 9110 §12.5.3):
// gzip or x-gzip with a non-zero weight, or * with one when gzip is not listed.
func acceptsGzip(h http.Header) bool {
	vals := h.Values("Accept-Encoding")
	if len(vals) == 0 {
		return false
	}
	star, gz := false, 0 // gz: 0 unlisted, 1 accepted, -1 refused
	for _, v := range vals {
		for part := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.TrimSpace(coding)
			ok := weightAccepts(params)
			switch {
			case strings.EqualFold(coding, "gzip"), strings.EqualFold(coding, "x-gzip"):
				if ok {
					gz = 1
				} else if gz == 0 {
					gz = -1
				}
			case coding == "*":
				star = ok
			}
		}
	}
	return gz == 1 || (gz == 0 && star)
}

// weightAccepts reports whether a coding's parameters leave it acceptable: no q, or a
// q above zero.
func weightAccepts(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return err == nil && q > 0
		}
	}
	return true
}

// appendWriter appends what is written to it to b.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// appendGzip appends body, gzip-compressed, to dst. Compressors are reused: a
// gzip.Writer holds about 800 KB of state, which a writer per answer would allocate.
func (g *Gateway) appendGzip(dst, body []byte) []byte {
	zw, _ := g.gzipWriters.Get().(*gzip.Writer)
	out := &appendWriter{b: dst}
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(out, gzipLevel)
	} else {
		zw.Reset(out)
	}
	_, _ = zw.Write(body) // writes to memory do not fail
	_ = zw.Close()
	zw.Reset(nil) // drop the reference to out's buffer
	g.gzipWriters.Put(zw)
	return out.b
}
