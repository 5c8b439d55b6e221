package gateway

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/v2bridge/v2bridge/restv2"
)

// strDoc is a document of one string field, memoized like a cached metric answer when
// memo is set.
type strDoc struct {
	v string
	restv2.RenderMemo
}

func (d *strDoc) Root() string { return "s_response" }

func (d *strDoc) EncodeV2(e restv2.Encoder) { e.String("s", d.v) }

// plainDoc is not memoized.
type plainDoc struct{ v string }

func (d plainDoc) Root() string { return "s_response" }

func (d plainDoc) EncodeV2(e restv2.Encoder) { e.String("s", d.v) }

// TestAppendETag: the tag is the quoted big-endian hex of the body's xxhash64.
func TestAppendETag(t *testing.T) {
	for _, body := range []string{"", "a", `{"applications":[]}`} {
		want := fmt.Sprintf("%q", fmt.Sprintf("%016x", xxhash.Sum64String(body)))
		if got := string(appendETag(nil, []byte(body))); got != want || len(got) != etagLen {
			t.Errorf("appendETag(%q) = %s, want %s", body, got, want)
		}
	}
}

// TestETagMatches: "*", a list, weak tags; a tag that differs does not match.
func TestETagMatches(t *testing.T) {
	const tag = `"0123456789abcdef"`
	for inm, want := range map[string]bool{
		"*":                          true,
		tag:                          true,
		"W/" + tag:                   true,
		` "x" , ` + tag:              true,
		`"x", "y"`:                   false,
		`"0123456789abcdeF"`:         false,
		"**":                         false,
		`W/"0123456789abcdef" extra`: false,
	} {
		if got := etagMatches(inm, tag); got != want {
			t.Errorf("etagMatches(%q) = %v, want %v", inm, got, want)
		}
	}
}

// TestWriteDoc pins what writeDoc sends: only a 200 carries an ETag; for GET or HEAD
// only, a non-empty If-None-Match that names the tag gives a 304 without body or
// Content-Length; no body for HEAD; JSON for an unknown format.
func TestWriteDoc(t *testing.T) {
	g := New(Config{}, nil, nil)
	send := func(method, format string, status int, inm string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/v2/x.json", nil)
		if inm != "" {
			r.Header.Set("If-None-Match", inm)
		}
		w := httptest.NewRecorder()
		g.writeDoc(w, r, format, status, plainDoc{"v"})
		return w
	}
	w := send(http.MethodGet, "json", 200, "")
	const body = `{"s":"v"}`
	etag := string(appendETag(nil, []byte(body)))
	if w.Code != 200 || w.Body.String() != body || w.Header().Get("Etag") != etag || w.Header().Get("Content-Length") != "9" ||
		w.Header().Get("Cache-Control") != "max-age=0, private, must-revalidate" || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("GET: %d %q %v", w.Code, w.Body, w.Header())
	}
	if w := send(http.MethodGet, "nonsense", 200, ""); w.Body.String() != body {
		t.Errorf("unknown format: %q, want the JSON body", w.Body)
	}
	if w := send(http.MethodGet, "xml", 200, ""); !strings.Contains(w.Body.String(), "<s_response>") {
		t.Errorf("xml: %q", w.Body)
	}
	if w := send(http.MethodPost, "json", 201, ""); w.Code != 201 || w.Header().Get("Etag") != "" || w.Body.String() != body {
		t.Errorf("201: %d etag %q body %q, want no ETag", w.Code, w.Header().Get("Etag"), w.Body)
	}
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		w := send(m, "json", 200, etag)
		if w.Code != http.StatusNotModified || w.Body.Len() != 0 || w.Header().Get("Content-Length") != "" {
			t.Errorf("%s with a matching If-None-Match: %d body %q length %q, want an empty 304", m, w.Code, w.Body, w.Header().Get("Content-Length"))
		}
	}
	if w := send(http.MethodGet, "json", 200, `"other"`); w.Code != 200 || w.Body.String() != body {
		t.Errorf("GET with another tag: %d %q, want the 200", w.Code, w.Body)
	}
	if w := send(http.MethodPost, "json", 200, etag); w.Code != 200 || w.Body.String() != body {
		t.Errorf("POST with a matching tag: %d %q, want the 200 (only GET and HEAD are conditional)", w.Code, w.Body)
	}
	if w := send(http.MethodGet, "json", 404, "*"); w.Code != 404 || w.Body.String() != body {
		t.Errorf("404 with If-None-Match *: %d %q, want the 404 with its body", w.Code, w.Body)
	}
	if w := send(http.MethodHead, "json", 200, ""); w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") != "9" {
		t.Errorf("HEAD: %d body %q length %q, want no body and the GET's length", w.Code, w.Body, w.Header().Get("Content-Length"))
	}
}

// TestWriteDocMemo: a shared document is rendered once per format and served from its
// memo when its rendering is at most maxRemembered bytes; a larger one, or one not
// shared, is not kept.
func TestWriteDocMemo(t *testing.T) {
	g := New(Config{}, nil, nil)
	var etag string // the last answer's ETag
	get := func(d restv2.Document) string {
		w := httptest.NewRecorder()
		g.writeDoc(w, httptest.NewRequest(http.MethodGet, "/v2/x.json", nil), "json", 200, d)
		etag = w.Header().Get("Etag")
		if want := bodyTag(w.Body.Bytes()); etag != want {
			t.Fatalf("ETag %s for a body whose tag is %s", etag, want)
		}
		return w.Body.String()
	}
	overhead := len(`{"s":""}`)
	for _, tc := range []struct {
		n        int
		share    bool
		remember bool
	}{
		{maxRemembered - overhead, true, true},
		{maxRemembered - overhead + 1, true, false},
		{10, false, false},
	} {
		d := &strDoc{v: strings.Repeat("a", tc.n)}
		if tc.share {
			d.Share()
		}
		first := get(d)
		if len(first) != tc.n+overhead {
			t.Fatalf("rendered %d bytes, want %d", len(first), tc.n+overhead)
		}
		b, tag, ok := d.Rendered(restv2.ContentTypeJSON)
		if ok != tc.remember || (ok && (string(b) != first || tag != etag)) {
			t.Errorf("%d bytes, shared %v: remembered %v (tag %s, answered %s), want %v", len(first), tc.share, ok, tag, etag, tc.remember)
		}
		if tc.remember {
			d.v = "changed" // a memoized document is served from its bytes
			if got := get(d); got != first {
				t.Errorf("second answer re-rendered: %.20q…", got)
			}
		}
	}
}

// TestWriteRaw: status 0 is a 200, HEAD has no body.
func TestWriteRaw(t *testing.T) {
	g := New(Config{}, nil, nil)
	for _, tc := range []struct {
		method       string
		status, want int
		body         string
	}{{http.MethodGet, 0, 200, "<x/>"}, {http.MethodGet, 404, 404, "<x/>"}, {http.MethodHead, 0, 200, ""}} {
		w := httptest.NewRecorder()
		g.writeRaw(w, httptest.NewRequest(tc.method, "/x.xml", nil), tc.status, "application/xml", []byte("<x/>"))
		if w.Code != tc.want || w.Body.String() != tc.body || w.Header().Get("Content-Length") != "4" || w.Header().Get("Content-Type") != "application/xml" {
			t.Errorf("%s status %d: %d %q %v", tc.method, tc.status, w.Code, w.Body, w.Header())
		}
	}
}

// TestAppendMS: Server-Timing's dur is in milliseconds with two decimals.
func TestAppendMS(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0.00", 1234567 * time.Microsecond: "1234.57", 5 * time.Microsecond: "0.01"} {
		if got := string(appendMS(nil, d)); got != want {
			t.Errorf("appendMS(%v) = %s, want %s", d, got, want)
		}
	}
}

// discardWriter is a ResponseWriter that keeps nothing but its header.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header { return w.h }

func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }

func (w *discardWriter) WriteHeader(int) {}

// BenchmarkWriteDocRemembered is a 5 KB document answered from its remembered
// rendering (a cached metric data answer's size): its tag is remembered with it, not
// hashed again per answer.
func BenchmarkWriteDocRemembered(b *testing.B) {
	g := New(Config{}, nil, nil)
	d := &strDoc{v: strings.Repeat("a", 5<<10)}
	d.Share()
	r := httptest.NewRequest(http.MethodGet, "/v2/x.json", nil)
	w := &discardWriter{h: http.Header{}}
	g.writeDoc(w, r, "json", 200, d)
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		g.writeDoc(w, r, "json", 200, d)
	}
}

func TestHeaderSlots(t *testing.T) {
	var s headerSlots
	h := http.Header{}
	for i := range len(s.v) + 2 { // two more than there are slots: those fall back to Set
		s.set(h, "X-Slot-"+string(rune('A'+i)), string(rune('a'+i)))
	}
	last := len(s.v) + 1
	if got, want := h.Get("X-Slot-"+string(rune('A'+last))), string(rune('a'+last)); got != want {
		t.Fatalf("a value set after the slots ran out = %q, want %s", got, want)
	}
	h.Add("X-Slot-A", "again")
	if got := h.Values("X-Slot-A"); len(got) != 2 || got[0] != "a" || got[1] != "again" {
		t.Fatalf("Add after a slot value: %q", got)
	}
	if s.v[1] != "b" || h.Get("X-Slot-B") != "b" {
		t.Fatalf("Add wrote through into the next slot: %q, header %q", s.v[1], h.Get("X-Slot-B"))
	}
	var none *headerSlots
	none.set(h, "X-None", "v")
	if h.Get("X-None") != "v" {
		t.Fatal("nil slots do not set the header")
	}
	if allocs := testing.AllocsPerRun(100, func() {
		var s headerSlots
		h := make(http.Header, 8)
		s.set(h, "Content-Length", "42")
	}); allocs > 1 { // the header map only
		t.Fatalf("set allocates %.0f times", allocs)
	}
}

// TestPublicBase: public_url without its trailing slash, else the scheme of the
// connection and the local address it was accepted on (localhost without one), never
// the Host header.
func TestPublicBase(t *testing.T) {
	g := New(Config{PublicURL: "https://v2.example.com/"}, nil, nil)
	if got := g.publicBase(httptest.NewRequest(http.MethodGet, "/v2/x.json", nil)); got != "https://v2.example.com" {
		t.Errorf("with public_url: %q", got)
	}
	g = New(Config{}, nil, nil)
	r := httptest.NewRequest(http.MethodGet, "http://evil.example/v2/x.json", nil)
	r.TLS = nil
	if got := g.publicBase(r); got != "http://localhost" {
		t.Errorf("no local address: %q, want http://localhost", got)
	}
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8443}
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(addr)))
	r.TLS = &tls.ConnectionState{}
	if got := g.publicBase(r); got != "https://127.0.0.1:8443" {
		t.Errorf("TLS on a local address: %q, want https://127.0.0.1:8443", got)
	}
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(nil)))
	r.TLS = nil
	if got := g.publicBase(r); got != "http://localhost" {
		t.Errorf("nil local address: %q, want http://localhost", got)
	}
}
