package gateway

import (
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
)

// encodeTime is what a zap JSON encoder writes for t with the given time encoder.
func encodeTime(t *testing.T, enc zapcore.TimeEncoder, at time.Time) string {
	t.Helper()
	cfg := zapcore.EncoderConfig{TimeKey: "ts", EncodeTime: enc}
	buf, err := zapcore.NewJSONEncoder(cfg).EncodeEntry(zapcore.Entry{Time: at}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	return buf.String()
}

// TestISO8601TimeEncoderMatchesZap: the memoized encoder writes what zap's own
// ISO8601TimeEncoder writes, for times in the same millisecond, a microsecond across a
// millisecond or a second, the same instant in other zones, and before 1970 (where
// Unix milliseconds round towards zero and must not join two milliseconds).
func TestISO8601TimeEncoderMatchesZap(t *testing.T) {
	base := time.Date(2026, 11, 25, 11, 46, 40, 123_456_789, time.UTC)
	paris := time.FixedZone("CET", 3600)
	kolkata := time.FixedZone("IST", 5*3600+1800)
	times := []time.Time{
		base,
		base.Add(time.Microsecond),         // same millisecond
		base.Add(877 * time.Microsecond),   // next millisecond
		base.Add(time.Second),              // same millisecond, next second
		base.Add(time.Second).In(paris),    // same instant, another zone
		base.Add(time.Second).In(kolkata),  // and another
		base.Add(time.Second).In(time.UTC), // back to UTC
		base.Add(time.Minute),              // same millisecond a minute on
		time.Unix(0, -500_000).UTC(),       // -0.5 ms: 1969-12-31T23:59:59.999
		time.Unix(0, 500_000).UTC(),        // +0.5 ms: 1970-01-01T00:00:00.000
		time.Unix(0, -500_000).UTC(),       // and back
		time.Date(1969, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(2027, 7, 31, 23, 59, 59, 999_000_000, time.UTC),
		time.Date(2027, 8, 1, 0, 0, 0, 0, time.UTC),
	}
	enc := NewISO8601TimeEncoder()
	for _, at := range times {
		want := encodeTime(t, zapcore.ISO8601TimeEncoder, at)
		if got := encodeTime(t, enc, at); got != want {
			t.Errorf("%v: got %s, want %s", at, got, want)
		}
	}
}

// TestISO8601TimeEncoderConcurrent: goroutines encoding different milliseconds at once
// each get their own time (go test -race checks the shared stamp).
func TestISO8601TimeEncoderConcurrent(t *testing.T) {
	enc := NewISO8601TimeEncoder()
	base := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				at := base.Add(time.Duration(g*1000+i%3) * time.Millisecond)
				want := encodeTime(t, zapcore.ISO8601TimeEncoder, at)
				if got := encodeTime(t, enc, at); got != want {
					t.Errorf("%v: got %s, want %s", at, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkISO8601TimeEncoder is an access-log time stamp with zap's encoder and with
// the memoized one, each millisecond encoded 30 times (30 k requests a second).
func BenchmarkISO8601TimeEncoder(b *testing.B) {
	for _, bc := range []struct {
		name string
		enc  zapcore.TimeEncoder
	}{
		{"zap", zapcore.ISO8601TimeEncoder},
		{"memoized", NewISO8601TimeEncoder()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			enc := zapcore.NewJSONEncoder(zapcore.EncoderConfig{TimeKey: "ts", EncodeTime: bc.enc})
			base := time.Now()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				buf, _ := enc.EncodeEntry(zapcore.Entry{Time: base.Add(time.Duration(i/30) * time.Millisecond)}, nil)
				buf.Free()
				i++
			}
		})
	}
}
