package gateway

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

func TestAcceptsGzip(t *testing.T) {
	tests := []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{"gzip"}, true},
		{[]string{"gzip, deflate, br"}, true}, // Python requests
		{[]string{"GZIP"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"deflate", "gzip;q=0.5"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"identity"}, false},
		{[]string{"br, zstd"}, false},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"*, gzip;q=0"}, false},
		{[]string{"gzip;q=bogus"}, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		for _, v := range tt.header {
			h.Add("Accept-Encoding", v)
		}
		if got := acceptsGzip(h); got != tt.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestCompressedAnswers: an answer of minCompressBytes or more goes gzip-compressed to a
// caller that accepts gzip, and with Vary: Accept-Encoding either way; a shorter one is
// sent as it is, without Vary. The ETag is the plain answer's, so If-None-Match
// validates the compressed answer too (304); Link and Content-Type are unchanged.
func TestCompressedAnswers(t *testing.T) {
	g := New(Config{}, nil, nil)
	big := strings.Repeat("a", 4<<10)
	tests := []struct {
		name       string
		v          string
		accept     string
		wantGzip   bool
		wantVary   bool
		wantStatus int
	}{
		{"large, gzip accepted", big, "gzip, deflate", true, true, 200},
		{"large, not accepted", big, "", false, true, 200},
		{"large, gzip refused", big, "gzip;q=0, identity", false, true, 200},
		{"small, gzip accepted", "a", "gzip", false, false, 200},
		{"large, If-None-Match", big, "gzip", false, true, 304},
	}
	plain := httptest.NewRecorder()
	g.writeDoc(plain, httptest.NewRequest(http.MethodGet, "/v2/x.json", nil), "json", 200, plainDoc{v: big})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/v2/x.json", nil)
			if tt.accept != "" {
				r.Header.Set("Accept-Encoding", tt.accept)
			}
			if tt.wantStatus == http.StatusNotModified {
				r.Header.Set("If-None-Match", plain.Header().Get("Etag"))
			}
			w := httptest.NewRecorder()
			const link = `<http://localhost/v2/x.json?page=2>; rel="next"`
			w.Header().Set("Link", link) // as answer sets it for a page
			g.writeDoc(w, r, "json", 200, plainDoc{v: tt.v})
			h := w.Header()
			if h.Get("Link") != link || h.Get("Content-Type") != restv2.ContentTypeJSON {
				t.Errorf("Link %q, Content-Type %q changed", h.Get("Link"), h.Get("Content-Type"))
			}
			if w.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d", w.Code, tt.wantStatus)
			}
			if got := h.Get("Vary") == "Accept-Encoding"; got != tt.wantVary {
				t.Errorf("Vary %q, want it %v", h.Get("Vary"), tt.wantVary)
			}
			if got := h.Get("Content-Encoding") == "gzip"; got != tt.wantGzip {
				t.Fatalf("Content-Encoding %q, want gzip %v", h.Get("Content-Encoding"), tt.wantGzip)
			}
			if tt.wantStatus != 200 {
				return
			}
			body := w.Body.String()
			if tt.wantGzip {
				if w.Body.Len() >= len(big)/4 {
					t.Errorf("compressed to %d bytes of %d", w.Body.Len(), len(big))
				}
				body = gunzip(t, w.Body.Bytes())
			}
			if h.Get("Content-Length") != itoa(int64(w.Body.Len())) {
				t.Errorf("Content-Length %s, sent %d bytes", h.Get("Content-Length"), w.Body.Len())
			}
			if tt.v == big && (body != plain.Body.String() || h.Get("Etag") != plain.Header().Get("Etag")) {
				t.Errorf("body or ETag differ from the plain answer's (ETag %s, want %s)", h.Get("Etag"), plain.Header().Get("Etag"))
			}
		})
	}
}

// TestCachedAnswerCompressedOnce: a document served from a cache keeps its compressed
// bytes beside its rendering, and later answers send those bytes without compressing
// again.
func TestCachedAnswerCompressedOnce(t *testing.T) {
	g := New(Config{}, nil, nil)
	d := &strDoc{v: strings.Repeat("a", 4<<10)}
	d.Share()
	get := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/v2/x.json", nil)
		r.Header.Set("Accept-Encoding", "gzip")
		w := httptest.NewRecorder()
		g.writeDoc(w, r, "json", 200, d)
		return w
	}
	first := get()
	kept, tag, ok := d.Rendered(restv2.ContentTypeJSON + gzipMemoSuffix)
	if !ok || !bytes.Equal(kept, first.Body.Bytes()) || tag != first.Header().Get("Etag") {
		t.Fatalf("compressed answer not kept with the document (kept %v)", ok)
	}
	// A marker in place of the kept bytes shows the next answer is read, not compressed.
	marker := []byte("kept compressed bytes")
	d.Remember(restv2.ContentTypeJSON+gzipMemoSuffix, marker, tag)
	if again := get(); again.Body.String() != string(marker) || again.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("second answer %q (%s), want the kept bytes", again.Body.String(), again.Header().Get("Content-Encoding"))
	}
}

// BenchmarkCompressAnswer is the cost of compressing a 100 KB applications page (the
// gateway's JSON) per answer, beside rendering it.
func BenchmarkCompressAnswer(b *testing.B) {
	g := New(Config{}, nil, nil)
	var page strings.Builder
	page.WriteString(`{"applications":[`)
	rnd := rand.New(rand.NewPCG(1, 2))
	num := func() string { return strconv.FormatFloat(rnd.Float64()*1000, 'f', 2, 64) }
	for i := range 200 {
		if i > 0 {
			page.WriteByte(',')
		}
		page.WriteString(`{"id":` + itoa(rnd.Int64N(1e9)) + `,"name":"service-` + strconv.FormatUint(rnd.Uint64(), 36) +
			`","language":"java","health_status":"green","reporting":true,"last_reported_at":"2026-04-20T12:` + itoa(int64(10+i%50)) + `:00+00:00",` +
			`"application_summary":{"response_time":` + num() + `,"throughput":` + num() + `,"error_rate":` + num() + `,"apdex_target":0.5,"apdex_score":0.98,"host_count":3,"instance_count":6},` +
			`"settings":{"app_apdex_threshold":0.5,"end_user_apdex_threshold":7.0,"enable_real_user_monitoring":true,"use_server_side_config":false},` +
			`"links":{"application_instances":[1,2,3,4,5,6],"servers":[],"application_hosts":[11,12,13]}}`)
	}
	page.WriteString(`]}`)
	body := []byte(page.String())
	buf := make([]byte, 0, len(body))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var out []byte
	for b.Loop() {
		out = g.appendGzip(buf[:0], body)
	}
	b.ReportMetric(float64(len(out)), "gzip_bytes")
}
