package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-logr/logr"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
)

// tracingEnv lists the OpenTelemetry variables serve and demo read, for their help.
// Their meaning is OpenTelemetry's:
// https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/ and
// https://opentelemetry.io/docs/specs/otel/protocol/exporter/
func tracingEnv() []string {
	return []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT\ttraces on, sent by OTLP/HTTP to this base URL (…/v1/traces is added)",
		"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT\ttraces on, sent to this full URL",
		"OTEL_EXPORTER_OTLP_HEADERS\theaders of every export, e.g. api-key=YOUR_LICENSE_KEY",
		"OTEL_TRACES_EXPORTER\totlp (on) or none (off); unset: on when an endpoint is set",
		"OTEL_EXPORTER_OTLP_PROTOCOL\thttp/protobuf (the only protocol built in)",
		"OTEL_SDK_DISABLED\ttrue: traces off",
		"OTEL_SERVICE_NAME\tservice.name (default v2bridge)",
		"OTEL_RESOURCE_ATTRIBUTES\textra resource attributes, key=value,...",
		"OTEL_TRACES_SAMPLER, _ARG\tsampler (default parentbased_always_on)",
	}
}

// tracingOn decides from the environment whether traces are exported: off unless an
// OTLP endpoint is set or OTEL_TRACES_EXPORTER=otlp, and never with OTEL_SDK_DISABLED
// or OTEL_TRACES_EXPORTER=none.
func tracingOn(getenv func(string) string) (bool, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false, nil
	}
	for _, name := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := strings.TrimSpace(getenv(name)); p != "" && p != "http/protobuf" {
			return false, fmt.Errorf("%s=%s: only http/protobuf is built in", name, p)
		}
	}
	switch exp := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")); exp {
	case "none":
		return false, nil
	case "otlp":
		return true, nil
	case "":
		return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "", nil
	default:
		return false, fmt.Errorf("OTEL_TRACES_EXPORTER=%s: want otlp or none", exp)
	}
}

// setupTracing returns the tracer provider the environment asks for, or nil (tracing
// off: nothing is wrapped and requests pay nothing). shutdown flushes the spans still
// queued; call it once the server has stopped. OpenTelemetry's own errors (an export
// that failed, spans dropped) go to log, in its format.
func setupTracing(ctx context.Context, getenv func(string) string, log *zap.Logger) (tp trace.TracerProvider, shutdown func(context.Context) error, err error) {
	noop := func(context.Context) error { return nil }
	on, err := tracingOn(getenv)
	if err != nil || !on {
		return nil, noop, err
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		log.Warn("opentelemetry", zap.Error(err))
	}))
	otel.SetLogger(logr.New(otelLogSink{log: log, name: "opentelemetry: "}))
	// otlptracehttp reads OTEL_EXPORTER_OTLP_* itself (endpoint, headers, timeout,
	// compression, certificates).
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, noop, fmt.Errorf("tracing: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithTelemetrySDK(),
		resource.WithAttributes(attribute.String("service.name", "v2bridge"), attribute.String("service.version", version)),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	)
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, noop, fmt.Errorf("tracing resource: %w", err)
	}
	sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return sdk, sdk.Shutdown, nil
}

// otelLogSink is OpenTelemetry's internal logger (otel.SetLogger) on zap: its errors (a
// setting it could not parse) at warn level, its informational lines at debug level.
type otelLogSink struct {
	log  *zap.Logger
	name string
}

func (s otelLogSink) Init(logr.RuntimeInfo) {}

func (s otelLogSink) Enabled(level int) bool {
	return s.log.Core().Enabled(zap.DebugLevel) && level <= 1
}

func (s otelLogSink) Info(_ int, msg string, kv ...any) {
	s.log.Debug(s.name+msg, zap.Any("details", kv))
}

func (s otelLogSink) Error(err error, msg string, kv ...any) {
	s.log.Warn(s.name+msg, zap.Error(err), zap.Any("details", kv))
}

func (s otelLogSink) WithValues(kv ...any) logr.LogSink {
	return otelLogSink{log: s.log.With(zap.Any("values", kv)), name: s.name}
}

func (s otelLogSink) WithName(name string) logr.LogSink {
	return otelLogSink{log: s.log, name: s.name + name + ": "}
}
