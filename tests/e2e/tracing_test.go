package e2e

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
	"github.com/v2bridge/v2bridge/translate"
)

// tracedEnv is the gateway in front of the simulator with tracing into an in-memory
// recorder; the simulator's first answer can be made a 503 (to see a retry), and it
// keeps the traceparent headers it receives.
type tracedEnv struct {
	gw          *httptest.Server
	handler     http.Handler
	rec         *tracetest.SpanRecorder
	logs        *bytes.Buffer
	logMu       *sync.Mutex
	fail503     atomic.Int32
	mu          sync.Mutex
	traceparent []string
}

func startTraced(t *testing.T) *tracedEnv {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	e := startTracedWith(t, sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	e.rec = rec
	return e
}

// startTracedWith is startTraced with any tracer provider (nil: tracing off).
func startTracedWith(t testing.TB, tp trace.TracerProvider) *tracedEnv {
	t.Helper()
	e := &tracedEnv{logs: &bytes.Buffer{}, logMu: &sync.Mutex{}}
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return harness.Clock }
	s, err := sim.NewDemo(data, sim.WithClock(now))
	if err != nil {
		t.Fatal(err)
	}
	simSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.traceparent = append(e.traceparent, r.Header.Get("Traceparent"))
		e.mu.Unlock()
		if e.fail503.Add(-1) >= 0 {
			http.Error(w, `{"errors":[{"message":"unavailable"}]}`, http.StatusServiceUnavailable)
			return
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(simSrv.Close)
	m := gateway.NewMetrics()
	client := ng.NewClient(simSrv.URL+sim.Path, ng.Options{Observe: m.ObserveUpstream, TracerProvider: tp, Backoff: time.Millisecond})
	tr := translate.New(client, translate.Options{Now: now, Warn: gateway.NoteDegraded, ObserveCache: m.ObserveCache})
	log := zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(lockedWriter{e.logMu, e.logs}), zap.InfoLevel))
	g := gateway.New(gateway.Config{Metrics: m, Now: now, RateLimitPerMinute: -1}, tr, log)
	e.handler = gateway.Traced(g.Handler(), tp)
	e.gw = httptest.NewServer(e.handler)
	t.Cleanup(e.gw.Close)
	return e
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (e *tracedEnv) get(t *testing.T, path string, hdr ...string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.gw.URL+path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// A traced v2 request: the caller's W3C traceparent is the server span's parent; the
// server span is named after the route and carries route, status, fidelity and the
// caller's 8-character hash (never the key); each NerdGraph operation is a client span
// below it with its tries and round trips (a 503 then a success: 2 attempts, 1 retry),
// each round trip an HTTP span whose traceparent reaches NerdGraph; the access log line
// carries the trace id. A repeat answered from the cache has no client span and says
// so; /healthz and /metrics make no spans.
func TestTracingSpansAndPropagation(t *testing.T) {
	e := startTraced(t)
	const callerTrace, callerSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	e.fail503.Store(1)
	if st := e.get(t, "/v2/applications/314221522.json", "X-Api-Key", key1, "Traceparent", "00-"+callerTrace+"-"+callerSpan+"-01"); st != 200 {
		t.Fatalf("status %d", st)
	}
	spans := e.rec.Ended()
	var server sdktrace.ReadOnlySpan
	var clients, rounds []sdktrace.ReadOnlySpan
	for _, s := range spans {
		switch {
		case s.SpanKind() == trace.SpanKindServer:
			server = s
		case strings.HasPrefix(s.Name(), "query ") || strings.HasPrefix(s.Name(), "mutation "):
			clients = append(clients, s)
		case s.Name() == "POST nerdgraph":
			rounds = append(rounds, s)
		}
		for _, kv := range s.Attributes() {
			if strings.Contains(kv.Value.Emit(), key1) {
				t.Errorf("span %s attribute %s carries the key", s.Name(), kv.Key)
			}
		}
	}
	if server == nil {
		t.Fatalf("no server span among %d", len(spans))
	}
	if server.Name() != "GET applications.show" || server.SpanContext().TraceID().String() != callerTrace || server.Parent().SpanID().String() != callerSpan {
		t.Errorf("server span %q trace %s parent %s", server.Name(), server.SpanContext().TraceID(), server.Parent().SpanID())
	}
	a := attrs(server)
	want := map[attribute.Key]string{"v2bridge.route": "applications.show", "v2bridge.fidelity": "approximate",
		"v2bridge.caller": translate.HashKey(key1)[:8], "http.response.status_code": "200"}
	for k, v := range want {
		if got := a[k].Emit(); got != v {
			t.Errorf("server span %s = %q, want %q", k, got, v)
		}
	}
	if len(clients) == 0 {
		t.Fatal("no NerdGraph client span")
	}
	retried := 0
	for _, c := range clients {
		if c.SpanKind() != trace.SpanKindClient || c.Parent().SpanID() != server.SpanContext().SpanID() {
			t.Errorf("client span %s: kind %s, parent %s", c.Name(), c.SpanKind(), c.Parent().SpanID())
		}
		ca := attrs(c)
		if ca["graphql.operation.name"].Emit() == "" || ca["v2bridge.nerdgraph.round_trips"].AsInt64() < 1 {
			t.Errorf("client span %s attributes %v", c.Name(), ca)
		}
		if ca["v2bridge.nerdgraph.retries"].AsInt64() == 1 && ca["v2bridge.nerdgraph.attempts"].AsInt64() == 2 {
			retried++
		}
	}
	if retried != 1 {
		t.Errorf("%d client spans record the retry after the 503, want 1", retried)
	}
	if len(rounds) != len(clients)+1 {
		t.Errorf("%d HTTP round-trip spans for %d operations and one retry", len(rounds), len(clients))
	}
	e.mu.Lock()
	for _, tp := range e.traceparent {
		if !strings.HasPrefix(tp, "00-"+callerTrace+"-") {
			t.Errorf("NerdGraph received traceparent %q, want trace %s", tp, callerTrace)
		}
	}
	e.mu.Unlock()
	e.logMu.Lock()
	if !strings.Contains(e.logs.String(), `"trace_id":"`+callerTrace+`"`) {
		t.Errorf("access log lacks the trace id:\n%s", e.logs.String())
	}
	e.logMu.Unlock()

	// The same show again comes from the entity cache: no NerdGraph span.
	e.rec.Reset()
	e.get(t, "/v2/applications/314221522.json", "X-Api-Key", key1)
	e.get(t, "/healthz")
	e.get(t, "/metrics")
	spans = e.rec.Ended()
	if len(spans) != 1 || spans[0].SpanKind() != trace.SpanKindServer {
		names := []string{}
		for _, s := range spans {
			names = append(names, s.Name())
		}
		t.Fatalf("cached show, /healthz and /metrics made spans %v, want the show's server span only", names)
	}
	if a := attrs(spans[0]); !a["v2bridge.answered_from_cache"].AsBool() || a["v2bridge.nerdgraph.round_trips"].AsInt64() != 0 {
		t.Errorf("cached show span attributes %v", a)
	}
}

// BenchmarkTracedApplicationShowCached is an application show from the entity cache
// (no NerdGraph call) with tracing off and on (spans made, none exported): the cost of
// the server span. The access log is on in both.
func BenchmarkTracedApplicationShowCached(b *testing.B) {
	for _, bc := range []struct {
		name string
		tp   trace.TracerProvider
	}{{"off", nil}, {"on", sdktrace.NewTracerProvider()}} {
		b.Run(bc.name, func(b *testing.B) {
			e := startTracedWith(b, bc.tp)
			req := httptest.NewRequest(http.MethodGet, "/v2/applications/314221522.json", nil)
			req.Header.Set("X-Api-Key", key1)
			e.handler.ServeHTTP(httptest.NewRecorder(), req)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				rec := httptest.NewRecorder()
				e.handler.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%d", rec.Code)
				}
				e.logMu.Lock()
				e.logs.Reset()
				e.logMu.Unlock()
			}
		})
	}
}
