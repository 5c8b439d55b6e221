package fleet

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// BenchmarkAllow is the store's cost per request (one rate-limit script call) on
// loopback: against miniredis always, against a real server when one is installed.
// It reports the p50 and p99 of single calls.
//
//	go test ./state/fleet -run '^$' -bench Allow -benchtime 2000x
func BenchmarkAllow(b *testing.B) {
	b.Run("miniredis", func(b *testing.B) {
		m := miniredis.RunT(b)
		benchAllow(b, "redis://"+m.Addr())
	})
	b.Run("server", func(b *testing.B) {
		addr, _ := realServer(b)
		benchAllow(b, "redis://"+addr)
	})
}

func benchAllow(b *testing.B, url string) {
	s, err := Open(Options{URL: url, Timeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	start := time.Now().Truncate(time.Minute)
	if _, _, err := s.Allow(ctx, "warm", 1<<30, start, time.Minute, 0); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, _, err := s.Allow(ctx, "bench", 1<<30, start, time.Minute, 0); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkGetCached is what a shared cache read costs without a local copy in front
// (one pipelined GET + 2 PTTL of a 1 KiB entry) on a real server over loopback: the
// measure behind keeping the local cache in front (a local hit is ~100 ns).
//
//	go test ./state/fleet -run '^$' -bench GetCached -benchtime 2000x
func BenchmarkGetCached(b *testing.B) {
	addr, _ := realServer(b)
	s, err := Open(Options{URL: "redis://" + addr, Timeout: time.Second, Cache: &CacheOptions{}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.SetCached(ctx, "entities", "k", make([]byte, 1024), time.Minute); err != nil {
		b.Fatal(err)
	}
	s.KeyAccepted(ctx, "h", time.Minute)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if v, _, _, err := s.GetCached(ctx, "entities", "k", "h"); err != nil || v == nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
