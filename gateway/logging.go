package gateway

import (
	"io"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// LogEncoderConfig is how v2bridge's JSON and console logs are encoded: zap's
// production fields, times in ISO 8601 (NewISO8601TimeEncoder).
func LogEncoderConfig() zapcore.EncoderConfig {
	cfg := zap.NewProductionEncoderConfig()
	cfg.EncodeTime = NewISO8601TimeEncoder()
	return cfg
}

// LogFlushInterval is the longest a line waits in LogSink's buffer.
const LogFlushInterval = time.Second

// LogSink is the buffered writer `v2bridge serve` logs through: lines collect in
// 256 KiB (zap's default) and reach w when the buffer fills, at least every
// LogFlushInterval, and on Sync or Stop (serve stops it as it ends; zap syncs after a
// line above error level, before a fatal exit), so an access-log line is not a write
// system call of its own (BenchmarkLogSink compares both). The price is that a process
// killed outright loses the lines of its last second. Stop it to end its flushing
// goroutine.
func LogSink(w io.Writer) *zapcore.BufferedWriteSyncer {
	return &zapcore.BufferedWriteSyncer{WS: zapcore.AddSync(w), FlushInterval: LogFlushInterval}
}

// iso8601 is the layout zapcore.ISO8601TimeEncoder writes.
const iso8601 = "2006-01-02T15:04:05.000Z0700"

// NewISO8601TimeEncoder returns a zapcore.TimeEncoder that writes exactly what
// zapcore.ISO8601TimeEncoder writes, formatting each millisecond (and zone offset) once:
// the access log writes a line a request, tens in the same millisecond under load
// (BenchmarkISO8601TimeEncoder compares it with zap's). Each logger gets its own encoder; the
// last stamp is shared by its goroutines through an atomic pointer.
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
