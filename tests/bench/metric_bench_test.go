package main

import (
	"fmt"
	"testing"
	"time"
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
