package nameindex

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
)

// An index round-trips through its stored form; what is not exactly an index (short,
// long, a language out of the table, past the cap) does not decode.
func TestStoredForm(t *testing.T) {
	ix := &index{readAt: time.UnixMilli(1764000000123), gen: 7}
	for i := range 4500 {
		lang := []string{"go", "java", ""}[i%3]
		ix.entries = append(ix.entries, Entry{ID: int64(i+1) << 20, Name: fmt.Sprintf("app ü %d", i), Language: lang, Reporting: i%2 == 0})
	}
	meta, chunks := encode(ix)
	if len(chunks) != 3 {
		t.Fatalf("%d chunks", len(chunks))
	}
	got, ok := decode(meta, chunks, DefaultMaxApps)
	if !ok || !slices.Equal(got.entries, ix.entries) || !got.readAt.Equal(ix.readAt) || got.gen != 7 {
		t.Fatal("not the same index")
	}
	empty, chunks0 := encode(&index{readAt: ix.readAt})
	if got, ok := decode(empty, chunks0, 10); !ok || len(got.entries) != 0 {
		t.Fatal("the empty index does not round-trip")
	}
	for _, tc := range []struct {
		name   string
		meta   []byte
		chunks [][]byte
		max    int
	}{
		{"a chunk missing", meta, chunks[:2], DefaultMaxApps},
		{"a chunk short", meta, [][]byte{chunks[0], chunks[1][:len(chunks[1])-1], chunks[2]}, DefaultMaxApps},
		{"a chunk long", meta, [][]byte{chunks[0], chunks[1], append(slices.Clone(chunks[2]), chunks[2][:20]...)}, DefaultMaxApps},
		{"a language out of the table", []byte(`{"n":4500,"langs":["go"]}`), chunks, DefaultMaxApps},
		{"past the cap", meta, chunks, 4000},
		{"no meta", []byte("{"), chunks, DefaultMaxApps},
	} {
		if _, ok := decode(tc.meta, tc.chunks, tc.max); ok {
			t.Errorf("%s: decoded", tc.name)
		}
	}
}

// The memory an index of 10,000 applications holds (the figure docs/performance.md
// quotes): go test ./translate/nameindex -run '^$' -bench Memory -benchtime 5x.
func BenchmarkMemory(b *testing.B) {
	const n = 10000
	var held uint64
	for range b.N {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ix := syntheticIndex(n)
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(ix)
	}
	b.ReportMetric(float64(held), "bytes/10k-apps")
	meta, chunks := encode(&index{entries: syntheticIndex(n)})
	stored := len(meta)
	for _, ch := range chunks {
		stored += len(ch)
	}
	b.ReportMetric(float64(stored), "stored-bytes/10k-apps")
}

// syntheticIndex is an index of n applications named as services often are
// ("team-service-env-N", 20 to 25 bytes), in three languages.
func syntheticIndex(n int) []Entry {
	langs := []string{"java", "go", "nodejs"}
	es := make([]Entry, 0, n)
	for i := range n {
		es = append(es, Entry{ID: int64(100000000 + i), Name: fmt.Sprintf("payments-api-prod-%05d", i), Language: langs[i%3]})
	}
	return es
}
