package gateway

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/restv2"
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

// Traced wraps the gateway's root handler (Handler) with an OpenTelemetry server span
// per REST v2 request, made by otelhttp: a W3C traceparent from the caller becomes the
// span's parent, and the middleware names the span after the route and records the
// route, fidelity, mode, caller (the 8-hex-character key hash, never the key), account
// and NerdGraph round trips on it. /metrics, /healthz, /readyz and the report are not
// traced. With a nil provider the handler is returned as is: tracing off costs nothing.
//
// https://pkg.go.dev/go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp
func Traced(h http.Handler, tp trace.TracerProvider) http.Handler {
	if tp == nil {
		return h
	}
	traced := otelhttp.NewHandler(h, "v2bridge",
		otelhttp.WithTracerProvider(tp),
		otelhttp.WithPropagators(propagation.TraceContext{}),
		otelhttp.WithFilter(func(r *http.Request) bool { return !operatorPath(r.URL.Path) }),
		// otelhttp names the span again after the handler when a ServeMux set a
		// pattern; the route the middleware matched is kept for that.
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string {
			if n, _ := r.Context().Value(spanNameKey{}).(*spanName); n != nil && n.name != "" {
				return n.name
			}
			return r.Method
		}),
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		traced.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), spanNameKey{}, &spanName{})))
	})
}

// spanName carries the route's span name from the middleware back to otelhttp.
type spanName struct{ name string }

type spanNameKey struct{}

// operatorPath reports the gateway's own endpoints, which get no span.
func operatorPath(p string) bool {
	switch p {
	case "/metrics", "/healthz", "/readyz":
		return true
	}
	return strings.HasPrefix(p, "/v2bridge/")
}

// Span attribute keys of the server span (the v2bridge.* namespace is the gateway's own;
// HTTP attributes such as http.response.status_code come from otelhttp).
const (
	attrRoute      = attribute.Key("v2bridge.route")
	attrFidelity   = attribute.Key("v2bridge.fidelity")
	attrMode       = attribute.Key("v2bridge.mode")
	attrCaller     = attribute.Key("v2bridge.caller")
	attrAccount    = attribute.Key("v2bridge.account_id")
	attrRoundTrips = attribute.Key("v2bridge.nerdgraph.round_trips")
	attrFromCache  = attribute.Key("v2bridge.answered_from_cache")
	attrRequestID  = attribute.Key("v2bridge.request_id")
)

// annotateSpan records what the request did on its server span; it does nothing when
// the request is not traced (a non-recording span: no allocation).
func annotateSpan(r *http.Request, st *reqState, status int) {
	span := trace.SpanFromContext(r.Context())
	if !span.IsRecording() {
		return
	}
	route := st.route
	if route == "" {
		route = "unmatched"
	}
	name := r.Method + " " + route
	span.SetName(name)
	if n, _ := r.Context().Value(spanNameKey{}).(*spanName); n != nil {
		n.name = name
	}
	rt := st.calls.Count()
	span.SetAttributes(attrRoute.String(route), attrRequestID.String(st.id), attrRoundTrips.Int64(rt))
	if st.fidelity != "" {
		span.SetAttributes(attrFidelity.String(string(st.fidelity)))
	}
	if st.mode != "" {
		span.SetAttributes(attrMode.String(string(st.mode)))
	}
	if st.callerHash != "" {
		span.SetAttributes(attrCaller.String(st.callerHash))
	}
	if st.account != 0 {
		span.SetAttributes(attrAccount.Int64(st.account))
	}
	if st.callerHash != "" && rt == 0 && !restv2.IsError(status) {
		span.SetAttributes(attrFromCache.Bool(true))
	}
	if st.internal != nil {
		span.SetStatus(codes.Error, "internal error (see the access log line of this request id)")
	}
}

// traceID is the request's trace id for the access log ("" when not traced).
func traceID(r *http.Request) string {
	sc := trace.SpanContextFromContext(r.Context())
	if !sc.HasTraceID() {
		return ""
	}
	return sc.TraceID().String()
}
