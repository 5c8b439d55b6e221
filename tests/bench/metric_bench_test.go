package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// path10x180 is the 10 names × 180 slices request of BenchmarkGatewayMetricData10x180
// and the harness, without its format extension.
const path10x180 = "/v2/applications/314221522/metrics/data%s?names[]=HttpDispatcher&names[]=Apdex&names[]=Errors/all&names[]=OtherTransaction/all&names[]=EndUser&names[]=WebTransactionTotalTime&names[]=Database/allWeb&names[]=External/allWeb&names[]=Memory/Physical&names[]=CPU/User%%20Time&period=60&from=2026-11-20T09:00:00Z&to=2026-11-20T12:00:00Z"

// BenchmarkGatewayMetricData10x180XML is BenchmarkGatewayMetricData10x180 in XML (the
// body is 2.3 times the JSON's: indentation and closing tags).
func BenchmarkGatewayMetricData10x180XML(b *testing.B) {
	benchRoute(b, fmt.Sprintf(path10x180, ".xml"))
}

// BenchmarkGatewayMetricData10x180Cached is 10 names × 180 slices answered from the
// metric cache: the document (too large for its rendering to be remembered,
// gateway/respond.go maxRemembered) is written again from the cached series.
func BenchmarkGatewayMetricData10x180Cached(b *testing.B) {
	benchRouteTTL(b, fmt.Sprintf(path10x180, ".json"), time.Minute)
}

// BenchmarkGatewayMetricData10x180Concurrent is 50 concurrent requests of 10 names × 180
// slices (the harness's load on 2 CPUs) with the large-answer budget
// (graphql.Options.AnswerMemory, its default) and without it (-1): the peak of the heap's
// objects, sampled after every 16th answer of each goroutine, beside the usual figures.
// Each request's context ends when it is answered, as net/http's does, which is when the
// budget is given back.
func BenchmarkGatewayMetricData10x180Concurrent(b *testing.B) {
	path := fmt.Sprintf(path10x180, ".json")
	body := record(b, path)
	for _, tt := range []struct {
		name   string
		memory int64
	}{{"budget", 0}, {"no budget", -1}} {
		b.Run(tt.name, func(b *testing.B) {
			client := ng.NewClient("http://nerdgraph.invalid/graphql", ng.Options{AnswerMemory: tt.memory,
				HTTPClient: &http.Client{Transport: &cannedTransport{body: body}}})
			h := gatewayWith(client, -1)
			var peak atomic.Uint64
			sample := func() {
				s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
				metrics.Read(s)
				for v := s[0].Value.Uint64(); ; {
					p := peak.Load()
					if v <= p || peak.CompareAndSwap(p, v) {
						return
					}
				}
			}
			runtime.GC()
			b.SetParallelism(25)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for n := 1; pb.Next(); n++ {
					ctx, cancel := context.WithCancel(context.Background())
					req := httptest.NewRequest("GET", path, nil).WithContext(ctx)
					req.Header.Set("X-Api-Key", key)
					req.Header.Set("X-Account-ID", "1000001")
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					cancel()
					if rec.Code != http.StatusOK {
						b.Errorf("status %d", rec.Code)
						return
					}
					if n%16 == 0 {
						sample()
					}
				}
			})
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
		})
	}
}
