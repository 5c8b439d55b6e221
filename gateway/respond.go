package gateway

import (
	"bytes"
	"net/http"
	"strconv"
	"time"

	"github.com/v2bridge/v2bridge/gateway/render"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// writeDoc renders doc in format with status, plus the accounting headers.
func (g *Gateway) writeDoc(w http.ResponseWriter, r *http.Request, format string, status int, doc v2.Document) {
	rd, ok := render.ForFormat(format)
	if !ok {
		rd, _ = render.ForFormat("json")
	}
	var body []byte
	var etag string // the body's tag, when a remembered rendering has it
	memo, shared := doc.(memoized)
	if shared {
		body, etag, shared = memo.Rendered(rd.ContentType())
	}
	if !shared {
		buf := render.GetBuffer()
		defer render.PutBuffer(buf)
		*buf = rd.Render((*buf)[:0], doc)
		body = *buf
		if memo != nil && memo.Shared() && len(body) <= maxRemembered {
			etag = bodyTag(body)
			memo.Remember(rd.ContentType(), bytes.Clone(body), etag)
		}
	}
	h := w.Header()
	st := stateFrom(r.Context())
	slots := slotsOf(st)
	slots.set(h, "Content-Type", rd.ContentType())
	slots.set(h, "Content-Length", strconv.Itoa(len(body)))
	slots.set(h, "Cache-Control", "max-age=0, private, must-revalidate")
	if status == http.StatusOK {
		if etag == "" {
			etag = bodyTag(body)
		}
		slots.set(h, "Etag", etag)
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatches(inm, etag) {
				delete(h, "Content-Length")
				upstreamHeaders(w, st)
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
	}
	upstreamHeaders(w, st)
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
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
		status = http.StatusOK
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
}
