package graphql

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// tracerName is the instrumentation scope of the NerdGraph client's spans.
const tracerName = "github.com/v2bridge/v2bridge/graphql"

// Span attributes of a NerdGraph operation. graphql.operation.* follow OpenTelemetry's
// GraphQL semantic conventions
// (https://opentelemetry.io/docs/specs/semconv/graphql/graphql-spans/); the rest are
// v2bridge's own.
const (
	attrOpName     = attribute.Key("graphql.operation.name")
	attrOpType     = attribute.Key("graphql.operation.type")
	attrAttempts   = attribute.Key("v2bridge.nerdgraph.attempts")
	attrRetries    = attribute.Key("v2bridge.nerdgraph.retries")
	attrRoundTrips = attribute.Key("v2bridge.nerdgraph.round_trips")
	attrShared     = attribute.Key("v2bridge.nerdgraph.shared_flight")
	attrErrorKind  = attribute.Key("v2bridge.nerdgraph.error_kind")
)

// opTrace is what one traced operation counts while it runs: its tries, the HTTP round
// trips it made itself, and whether it shared another identical query's round trip.
type opTrace struct {
	attempts   int
	roundTrips int
	shared     bool
}

type opTraceKey struct{}

func opTraceFrom(ctx context.Context) *opTrace {
	ot, _ := ctx.Value(opTraceKey{}).(*opTrace)
	return ot
}

// tracedHTTPClient returns hc with its transport wrapped by otelhttp: one client span
// per HTTP round trip, and the W3C traceparent header on every NerdGraph request.
func tracedHTTPClient(hc *http.Client, tp trace.TracerProvider) *http.Client {
	traced := *hc
	traced.Transport = otelhttp.NewTransport(hc.Transport,
		otelhttp.WithTracerProvider(tp),
		otelhttp.WithPropagators(propagation.TraceContext{}),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return "POST nerdgraph" }),
	)
	return &traced
}

// startSpan opens the client span of one NerdGraph operation ("query AppShow").
func (c *Client) startSpan(ctx context.Context, op, doc string) (context.Context, trace.Span, *opTrace) {
	kind := "mutation"
	if isQuery(doc) {
		kind = "query"
	}
	ctx, span := c.tracer.Start(ctx, kind+" "+op, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attrOpName.String(op), attrOpType.String(kind)))
	ot := &opTrace{}
	return context.WithValue(ctx, opTraceKey{}, ot), span, ot
}

// endSpan records the operation's tries, round trips and outcome and ends its span. The
// error's kind is recorded, never its text (which could quote request data).
func endSpan(span trace.Span, ot *opTrace, err error) {
	span.SetAttributes(attrAttempts.Int(ot.attempts), attrRetries.Int(max(ot.attempts-1, 0)),
		attrRoundTrips.Int(ot.roundTrips), attrShared.Bool(ot.shared))
	if err != nil {
		kind := "other"
		var ge *Error
		if errors.As(err, &ge) {
			kind = strings.ToLower(ge.Kind.String())
		}
		span.SetAttributes(attrErrorKind.String(kind))
		span.SetStatus(codes.Error, "nerdgraph "+kind)
	}
	span.End()
}
