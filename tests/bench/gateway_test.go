package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate"
)

// cannedTransport answers NerdGraph from memory, so a benchmark counts the gateway's
// own work (routing, translation, decoding, rendering) and nothing of a network peer.
type cannedTransport struct{ body []byte }

func (c *cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		ContentLength: int64(len(c.body)), Body: io.NopCloser(bytes.NewReader(c.body)), Request: r}, nil
}

// record gets the simulator's answer to the operation a GET sends.
func record(b testing.TB, path string) []byte {
	b.Helper()
	for _, body := range recordAll(b, "GET", path, "").bodies {
		return body
	}
	return nil
}

func gatewayOver(client *ng.Client) http.Handler { return gatewayWith(client, -1) }

// gatewayWith is the gateway with the given metric data and entity cache TTL (-1: no
// cache).
func gatewayWith(client *ng.Client, cacheTTL time.Duration) http.Handler {
	return gatewayLogged(client, cacheTTL, accessLogger())
}

// gatewayLogged is gatewayWith logging to log.
func gatewayLogged(client *ng.Client, cacheTTL time.Duration, log *zap.Logger) http.Handler {
	now := func() time.Time { return clock }
	tr := translate.New(client, translate.Options{Now: now, MetricDataTTL: cacheTTL, EntityTTL: cacheTTL})
	return gateway.New(gateway.Config{Now: now, RateLimitPerMinute: -1}, tr, log).Handler()
}

func benchRoute(b *testing.B, path string) { benchRouteTTL(b, path, -1) }

func benchRouteTTL(b *testing.B, path string, cacheTTL time.Duration) {
	benchRouteLogged(b, path, cacheTTL, accessLogger())
}

func benchRouteLogged(b *testing.B, path string, cacheTTL time.Duration, log *zap.Logger) {
	body := record(b, path)
	h := gatewayLogged(ng.NewClient("http://nerdgraph.invalid/graphql", ng.Options{HTTPClient: &http.Client{Transport: &cannedTransport{body: body}}}), cacheTTL, log)
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("X-Api-Key", key)
	req.Header.Set("X-Account-ID", "1000001")
	benchServe(b, h, req)
}

// benchServe serves req from h until the benchmark ends, each answer a 200.
func benchServe(b *testing.B, h http.Handler, req *http.Request) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("%d", rec.Code)
		}
	}
	// The process's CPU time per request (the garbage collector's work on other
	// threads included): on a shared machine ns/op is wall time, stretched by whatever
	// else runs; this is not.
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkGatewayApplicationShow is the gateway's own cost of one application show.
func BenchmarkGatewayApplicationShow(b *testing.B) { benchRoute(b, "/v2/applications/314221522.json") }

// BenchmarkGatewayMetricData is the gateway's own cost of 3 names × 30 slices.
func BenchmarkGatewayMetricData(b *testing.B) {
	benchRoute(b, "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z")
}

// BenchmarkGatewayApplicationsList is the gateway's own cost of a 200-application page.
func BenchmarkGatewayApplicationsList(b *testing.B) { benchRoute(b, "/v2/applications.json") }

// BenchmarkGatewayMetricDataCached is a metric data request answered from the 60 s
// metric cache: no NerdGraph call, only routing, parsing, the cache and rendering.
func BenchmarkGatewayMetricDataCached(b *testing.B) {
	benchRouteTTL(b, "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&from=2026-11-20T11:30:00Z&to=2026-11-20T12:00:00Z", time.Minute)
}

// BenchmarkGatewayApplicationShowCached is an application show answered from the
// entity cache: routing, the cache and the remembered rendering.
func BenchmarkGatewayApplicationShowCached(b *testing.B) {
	benchRouteTTL(b, "/v2/applications/314221522.json", time.Minute)
}

// BenchmarkGatewayApplicationShowCachedQuiet is BenchmarkGatewayApplicationShowCached
// with the logger at warn (serve's log_level: warn): no access-log line for a request
// that succeeded. The difference is what the line costs a cached answer.
func BenchmarkGatewayApplicationShowCachedQuiet(b *testing.B) {
	quiet := zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(gateway.LogEncoderConfig()), zapcore.AddSync(io.Discard), zapcore.WarnLevel))
	benchRouteLogged(b, "/v2/applications/314221522.json", time.Minute, quiet)
}

// BenchmarkGatewayMetricData10x180 is the gateway's own cost of 10 names × 180 slices.
func BenchmarkGatewayMetricData10x180(b *testing.B) {
	benchRoute(b, "/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all&names[]=OtherTransaction/all&names[]=EndUser&names[]=WebTransactionTotalTime&names[]=Database/allWeb&names[]=External/allWeb&names[]=Memory/Physical&names[]=CPU/User%20Time&period=60&from=2026-11-20T09:00:00Z&to=2026-11-20T12:00:00Z")
}
