package gateway

import (
	"sync/atomic"
	"time"

	"go.uber.org/zap/zapcore"
)

// iso8601 is the layout zapcore.ISO8601TimeEncoder writes.
const iso8601 = "2006-01-02T15:04:05.000Z0700"

// NewISO8601TimeEncoder returns a zapcore.TimeEncoder that writes exactly what
// zapcore.ISO8601TimeEncoder writes, formatting each millisecond (and zone offset) once:
// the access log writes a line a request, tens in the same millisecond under load, and
// time.Time.AppendFormat was a tenth of the line's cost
// (BenchmarkISO8601TimeEncoder). Each logger gets its own encoder; the last stamp is
// shared by its goroutines through an atomic pointer.
func NewISO8601TimeEncoder() zapcore.TimeEncoder {
	var last atomic.Pointer[stamp]
	return func(t time.Time, enc zapcore.PrimitiveArrayEncoder) {
		_, off := t.Zone()
		sec, ms := t.Unix(), int32(t.Nanosecond()/int(time.Millisecond))
		s := last.Load()
		if s == nil || s.sec != sec || s.ms != ms || s.off != off {
			s = &stamp{sec: sec, ms: ms, off: off, text: t.Format(iso8601)}
			last.Store(s)
		}
		enc.AppendString(s.text)
	}
}

// stamp is one millisecond's formatted time at one zone offset.
type stamp struct {
	sec  int64
	ms   int32
	off  int
	text string
}
