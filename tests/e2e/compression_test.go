package e2e

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
)

func gunzipBody(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v (%.100q)", err, b)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A caller that accepts gzip gets a large answer compressed, the same document as a
// caller that does not, with the same ETag and Vary: Accept-Encoding; a kept (replayed)
// answer is kept per encoding, so a caller that does not accept gzip never gets the
// compressed bytes another caller's request left.
func TestCompressedAnswersAndReplay(t *testing.T) {
	m := gateway.NewMetrics()
	e := newEnvWith(t, gateway.Config{Metrics: m})
	const path = "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&from=2026-11-20T11:00:00Z&to=2026-11-20T12:00:00Z"
	gz := []string{"Accept-Encoding", "gzip"}
	plain := []string{"Accept-Encoding", "identity"}
	var zipped response
	for range 3 { // the pipeline, the cache, then a replay
		zipped = e.get(t, path, key1, gz...)
		if zipped.status != 200 || zipped.header.Get("Content-Encoding") != "gzip" || zipped.header.Get("Vary") != "Accept-Encoding" {
			t.Fatalf("gzip accepted: %d, Content-Encoding %q, Vary %q", zipped.status, zipped.header.Get("Content-Encoding"), zipped.header.Get("Vary"))
		}
	}
	before := replayHits(t, m)
	again := e.get(t, path, key1, gz...)
	if replayHits(t, m) != before+1 || !bytes.Equal(again.body, zipped.body) {
		t.Fatalf("the compressed answer was not replayed as kept (hits %v → %v)", before, replayHits(t, m))
	}
	doc := gunzipBody(t, zipped.body)
	for range 3 {
		r := e.get(t, path, key1, plain...)
		if r.status != 200 || r.header.Get("Content-Encoding") != "" || !bytes.Equal(r.body, doc) {
			t.Fatalf("identity: %d, Content-Encoding %q, body %.100q", r.status, r.header.Get("Content-Encoding"), r.body)
		}
		if r.header.Get("Etag") != zipped.header.Get("Etag") || r.header.Get("Vary") != "Accept-Encoding" {
			t.Fatalf("identity answer: ETag %q (gzip %q), Vary %q", r.header.Get("Etag"), zipped.header.Get("Etag"), r.header.Get("Vary"))
		}
	}
	if len(zipped.body)*3 > len(doc) {
		t.Errorf("compressed %d bytes to %d", len(doc), len(zipped.body))
	}
}

// A gzip body inflating to 256 MiB, posted as a deployment, is refused with a 413 once
// the decoded bytes pass the 1 MiB body bound: the gateway allocates a few MiB for it,
// not the inflated size.
func TestDecompressionBombRefused(t *testing.T) {
	e := newEnv(t)
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	_, _ = zw.Write(make([]byte, 1<<20))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	bomb := bytes.Repeat(member.Bytes(), 256) // concatenated members: one gzip stream
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := e.do(t, "POST", "/v2/applications/314221522/deployments.json", key1, bytes.NewReader(bomb),
		"Content-Type", "application/json", "Content-Encoding", "gzip")
	runtime.ReadMemStats(&after)
	if r.status != 413 {
		t.Fatalf("bomb of %d bytes: %d %.200s", len(bomb), r.status, r.body)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("allocated %d MiB answering a bomb bounded at 1 MiB", alloc>>20)
	}
}
