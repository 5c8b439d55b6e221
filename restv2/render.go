package restv2

import (
	"strings"
	"sync"
)

// Content types of the two wire formats. REST's published JSON answers carry
// "Content-Type: application/json" without a charset (docs-website
// .../basic-functions/extract-metric-timeslice-data.mdx, the 429 of
// .../api-overload-protection-handling-429-errors.mdx, and the deployments list of
// apm/new-relic-apm/maintenance/record-monitor-deployments.mdx); RFC 8259 defines no
// charset parameter for it. No XML answer's headers are published.
const (
	ContentTypeJSON = "application/json"
	ContentTypeXML  = "application/xml; charset=utf-8"
)

// Renderer renders v2 documents in one wire format.
type Renderer interface {
	// ContentType is the response's Content-Type header value.
	ContentType() string
	// Render appends doc's body to dst and returns the extended buffer.
	Render(dst []byte, doc Document) []byte
}

// JSONRenderer renders compact JSON; see the package documentation.
type JSONRenderer struct{}

// ContentType returns ContentTypeJSON.
func (JSONRenderer) ContentType() string { return ContentTypeJSON }

// Render appends doc as JSON to dst.
func (JSONRenderer) Render(dst []byte, doc Document) []byte { return JSON(dst, doc) }

// XMLRenderer renders indented XML; see the package documentation.
type XMLRenderer struct{}

// ContentType returns ContentTypeXML.
func (XMLRenderer) ContentType() string { return ContentTypeXML }

// Render appends doc as XML to dst.
func (XMLRenderer) Render(dst []byte, doc Document) []byte { return XML(dst, doc) }

var (
	_ Renderer = JSONRenderer{}
	_ Renderer = XMLRenderer{}
)

// ForFormat returns the renderer for a path extension without its dot, "json" or
// "xml" (any case); ok is false for any other format.
func ForFormat(format string) (r Renderer, ok bool) {
	switch {
	case strings.EqualFold(format, "json"):
		return JSONRenderer{}, true
	case strings.EqualFold(format, "xml"):
		return XMLRenderer{}, true
	}
	return nil, false
}

// Buffer sizes of the pool behind GetBuffer and PutBuffer.
const (
	// InitialBufferSize is the capacity of a newly made buffer; a one-application
	// body fits.
	InitialBufferSize = 4 << 10
	// MaxRetainedBufferSize is the largest capacity PutBuffer keeps for reuse; larger
	// buffers (a rare huge list) are left to the garbage collector so that one big
	// response does not pin its memory in the pool.
	MaxRetainedBufferSize = 1 << 20
)

// bufferPool holds *[]byte (a pointer, so Put does not allocate). It is package-level
// state by design: a cache of scratch memory with no observable behaviour.
var bufferPool = sync.Pool{
	New: func() any {
		b := make([]byte, 0, InitialBufferSize)
		return &b
	},
}

// GetBuffer returns an empty buffer from a pool. Render into (*b)[:0] and give it
// back with PutBuffer once the bytes have been written out:
//
//	buf := render.GetBuffer()
//	defer render.PutBuffer(buf)
//	*buf = r.Render((*buf)[:0], doc)
func GetBuffer() *[]byte {
	b := bufferPool.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// PutBuffer returns b to the pool unless its capacity exceeds MaxRetainedBufferSize.
// b must not be used afterwards. A nil b is ignored.
func PutBuffer(b *[]byte) {
	if b == nil || cap(*b) > MaxRetainedBufferSize {
		return
	}
	*b = (*b)[:0]
	bufferPool.Put(b)
}
