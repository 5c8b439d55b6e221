package gateway

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/v2bridge/v2bridge/restv2"
)

// Compressed request bodies. A caller may send its body with Content-Encoding gzip
// (x-gzip), deflate or identity, in any case (the New Relic Python agent's
// `newrelic-admin record-deploy` gzips a body over 64 KiB and marks every smaller one
// `Content-Encoding: Identity`). The decoded body is what the routes read, under the
// same bound as a plain one: the decoder stops one byte past MaxBodyBytes, so a body
// that inflates without end (a decompression bomb) costs at most that many bytes of
// memory and the work of producing them, never the whole stream. The compressed bytes
// are bounded the same way. A body that does not decode is a 400 naming its encoding;
// an encoding the gateway cannot decode is a 415.

// codingNone is the identity coding: the body as sent.
const codingNone = ""

// requestCoding is the one content coding of the request's body (codingNone, "gzip" or
// "deflate"), from its Content-Encoding header: a comma-separated list of codings
// (RFC 9110 §8.4) in which identity entries change nothing.
func requestCoding(h http.Header) (string, error) {
	vals := h.Values("Content-Encoding")
	if len(vals) == 0 {
		return codingNone, nil
	}
	coding := codingNone
	for _, v := range vals {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			switch c {
			case "", "identity":
				continue
			case "gzip", "x-gzip":
				c = "gzip"
			case "deflate":
			default:
				return "", unsupportedCoding(c)
			}
			if coding != codingNone {
				return "", unsupportedCoding(coding + ", " + c)
			}
			coding = c
		}
	}
	return coding, nil
}

func unsupportedCoding(c string) *restv2.Error {
	return restv2.UnsupportedMediaType(fmt.Sprintf("Content-Encoding %q is not supported", c),
		"send the body with Content-Encoding gzip, deflate or identity")
}

// readBody reads r's body decoded from its Content-Encoding; more than limit bytes,
// sent or decoded, is a 413.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	coding, err := requestCoding(r.Header)
	if err != nil {
		return nil, err
	}
	src := &boundedSource{r: r.Body, left: limit + 1}
	if coding == codingNone {
		body, err := io.ReadAll(src)
		if err != nil {
			return nil, bodyReadError(err) // 408 for a body cut by its minimum rate
		}
		if src.over() {
			return nil, bodyTooLarge(limit)
		}
		return body, nil
	}
	body, err := decodeBody(coding, src, limit)
	switch {
	case src.err != nil:
		return nil, bodyReadError(src.err)
	case src.over() || int64(len(body)) > limit:
		return nil, bodyTooLarge(limit)
	case err != nil:
		return nil, restv2.BadRequest(fmt.Sprintf("The request body is not valid %s: %v", coding, err),
			"it was sent with Content-Encoding "+coding)
	}
	return body, nil
}

func bodyTooLarge(limit int64) *restv2.Error {
	return restv2.TooLarge(fmt.Sprintf("Request body larger than %d bytes", limit))
}

// decodeBody inflates src, stopping one byte past limit.
func decodeBody(coding string, src io.Reader, limit int64) ([]byte, error) {
	var dec io.ReadCloser
	var err error
	switch coding {
	case "gzip":
		dec, err = gzip.NewReader(src) // concatenated members are read as one stream
	default:
		// HTTP's deflate is the zlib format (RFC 9110 §8.4.1.2); some clients send a
		// raw deflate stream under the name, which no zlib header announces.
		br := bufio.NewReader(src)
		if head, _ := br.Peek(2); isZlibHeader(head) {
			dec, err = zlib.NewReader(br)
		} else {
			dec = flate.NewReader(br)
		}
	}
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	body, err := io.ReadAll(io.LimitReader(dec, limit+1))
	if err != nil {
		return nil, err
	}
	return body, nil
}

// isZlibHeader reports whether b starts a zlib stream: method 8 (deflate), a window of
// at most 32 KiB, and the check bits (RFC 1950 §2.2).
func isZlibHeader(b []byte) bool {
	return len(b) == 2 && b[0]&0x0f == 8 && b[0]>>4 <= 7 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0
}

// boundedSource reads at most left bytes of r and keeps the first error r returned
// other than io.EOF, so a decoder's failure can be told from the body's.
type boundedSource struct {
	r    io.Reader
	left int64
	err  error
}

func (s *boundedSource) Read(p []byte) (int, error) {
	if s.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := s.r.Read(p)
	s.left -= int64(n)
	if err != nil && !errors.Is(err, io.EOF) && s.err == nil {
		s.err = err
	}
	return n, err
}

// over reports whether the body held more than the bound (all of left was read).
func (s *boundedSource) over() bool { return s.left <= 0 }
