package gateway

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

func gzipped(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, _ = io.WriteString(w, s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zlibbed(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	_, _ = io.WriteString(w, s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func deflated(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.DefaultCompression)
	_, _ = io.WriteString(w, s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCompressedRequestBodies: a body sent with Content-Encoding gzip, deflate (zlib or
// raw) or identity, in any case, is read decoded; the decoded size is bounded as a
// plain body is (413 past it); a body that does not decode is a 400 naming the
// encoding; an encoding the gateway cannot decode is a 415.
func TestCompressedRequestBodies(t *testing.T) {
	const limit = 128
	g := New(Config{MaxBodyBytes: limit}, nil, nil)
	doc := `{"deployment":{"revision":"v1"}}`
	long := `{"deployment":{"changelog":"` + strings.Repeat("a", limit) + `"}}`
	tests := []struct {
		name       string
		encoding   []string // Content-Encoding values; nil: none
		body       []byte
		want       string
		wantStatus int    // 0: read
		wantIn     string // in the error's title
	}{
		{"plain", nil, []byte(doc), doc, 0, ""},
		{"identity", []string{"identity"}, []byte(doc), doc, 0, ""},
		{"Identity as record-deploy sends it", []string{"Identity"}, []byte(doc), doc, 0, ""},
		{"gzip", []string{"gzip"}, gzipped(t, doc), doc, 0, ""},
		{"GZIP", []string{"GZIP"}, gzipped(t, doc), doc, 0, ""},
		{"x-gzip", []string{"x-gzip"}, gzipped(t, doc), doc, 0, ""},
		{"gzip after identity", []string{"identity, gzip"}, gzipped(t, doc), doc, 0, ""},
		{"two gzip members", []string{"gzip"}, append(gzipped(t, doc[:10]), gzipped(t, doc[10:])...), doc, 0, ""},
		{"deflate (zlib)", []string{"Deflate"}, zlibbed(t, doc), doc, 0, ""},
		{"deflate (raw)", []string{"deflate"}, deflated(t, doc), doc, 0, ""},
		{"gzip decoded past the limit", []string{"gzip"}, gzipped(t, long), "", 413, "larger than 128"},
		{"deflate decoded past the limit", []string{"deflate"}, zlibbed(t, long), "", 413, "larger than 128"},
		{"plain past the limit", []string{"identity"}, []byte(long), "", 413, "larger than 128"},
		{"not gzip", []string{"gzip"}, []byte(doc), "", 400, "not valid gzip"},
		{"gzip cut short", []string{"gzip"}, gzipped(t, doc)[:20], "", 400, "not valid gzip"},
		{"gzip with trailing bytes", []string{"gzip"}, append(gzipped(t, doc), "junk"...), "", 400, "not valid gzip"},
		{"not deflate", []string{"deflate"}, []byte{0xff, 0xff, 0xff}, "", 400, "not valid deflate"},
		{"brotli", []string{"br"}, []byte(doc), "", 415, `"br"`},
		{"gzip twice", []string{"gzip", "gzip"}, gzipped(t, doc), "", 415, "gzip, gzip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/v2/applications/1/deployments.json", bytes.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			for _, e := range tt.encoding {
				req.Header.Add("Content-Encoding", e)
			}
			rq, err := g.readRequest(req, nil)
			if tt.wantStatus != 0 {
				var e *restv2.Error
				if !errors.As(err, &e) || e.Status != tt.wantStatus || !strings.Contains(e.Title, tt.wantIn) {
					t.Fatalf("error %v, want status %d naming %q", err, tt.wantStatus, tt.wantIn)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(rq.body) != tt.want {
				t.Errorf("body %q, want %q", rq.body, tt.want)
			}
		})
	}
}

// countingBody is a request body that counts the bytes read from it.
type countingBody struct {
	r io.Reader
	n int
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func (c *countingBody) Close() error { return nil }

// bombMembers is a gzip (or zlib) stream of members copies of a member inflating to
// 1 MiB of zeros: about a thousandth of its decoded size.
func bombMembers(t testing.TB, members int, zl bool) []byte {
	t.Helper()
	zeros := string(make([]byte, 1<<20))
	if zl {
		// zlib has a single stream: one stream of members MiB of zeros.
		var b bytes.Buffer
		w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
		for range members {
			_, _ = io.WriteString(w, zeros)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	return bytes.Repeat(gzipped(t, zeros), members)
}

// TestDecompressionBombBounded: a gzip body inflating to 256 MiB, or a deflate one
// inflating to 64 MiB, is refused with a 413 once the decoded bytes pass the body limit; the gateway reads a small part
// of what was sent and allocates about the limit, not the inflated size.
func TestDecompressionBombBounded(t *testing.T) {
	const limit = 1 << 20 // New's default
	g := New(Config{}, nil, nil)
	for coding, members := range map[string]int{"gzip": 256, "deflate": 64} {
		t.Run(coding, func(t *testing.T) {
			bomb := bombMembers(t, members, coding == "deflate")
			if len(bomb) > limit {
				t.Fatalf("the bomb is %d bytes, over the limit itself", len(bomb))
			}
			body := &countingBody{r: bytes.NewReader(bomb)}
			req := httptest.NewRequest(http.MethodPost, "/v2/applications/1/deployments.json", nil)
			req.Body = body
			req.Header.Set("Content-Encoding", coding)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := g.readRequest(req, nil)
			runtime.ReadMemStats(&after)
			var e *restv2.Error
			if !errors.As(err, &e) || e.Status != http.StatusRequestEntityTooLarge {
				t.Fatalf("error %v, want a 413", err)
			}
			if body.n > len(bomb)/4 {
				t.Errorf("read %d of the bomb's %d bytes: decoding did not stop at the limit", body.n, len(bomb))
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*limit {
				t.Errorf("allocated %d bytes decoding a body limited to %d", alloc, limit)
			}
		})
	}
}
