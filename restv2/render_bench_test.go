package restv2

import (
	"testing"
)

// The benchmarks render a 200-application list (REST v2's page size) into a reused
// buffer, the way the HTTP layer does with GetBuffer/PutBuffer.

func benchmarkRender(b *testing.B, render func([]byte, Document) []byte) {
	doc := benchAppList(200)
	buf := render(nil, doc)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		buf = render(buf[:0], doc)
	}
}

func BenchmarkJSONApplications200(b *testing.B) { benchmarkRender(b, JSON) }

func BenchmarkXMLApplications200(b *testing.B) { benchmarkRender(b, XML) }

// BenchmarkJSONApplications200Pooled includes the pool round trip and the Renderer
// interface, as in the gateway's response path.
func BenchmarkJSONApplications200Pooled(b *testing.B) {
	doc := benchAppList(200)
	r, _ := ForFormat("json")
	b.ReportAllocs()
	for b.Loop() {
		buf := GetBuffer()
		*buf = r.Render((*buf)[:0], doc)
		PutBuffer(buf)
	}
}

func BenchmarkErrorJSON(b *testing.B) {
	doc := ErrInvalidAPIKey()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = JSON(buf[:0], doc)
	}
}

func BenchmarkErrorXML(b *testing.B) {
	doc := ErrInvalidAPIKey()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = XML(buf[:0], doc)
	}
}
