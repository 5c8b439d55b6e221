package e2e

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// 200 metric data calls at once from one key are all answered, none with an error:
// beyond NerdGraph's 25 concurrent requests per user they queue at the gateway, and
// NerdGraph never sees more than 25 of the key's requests at once.
func TestConcurrentMetricDataQueuesWithinTheKeysLimit(t *testing.T) {
	var inFlight, peak atomic.Int64
	slow := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := inFlight.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			time.Sleep(5 * time.Millisecond) // overlap the calls; nothing is timed
			next.ServeHTTP(w, r)
			inFlight.Add(-1)
		})
	}
	h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithMiddleware(slow)}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	e.get(t, "/v2/applications/314221522.json", key1) // the key's account
	const calls = 200
	statuses := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// a different range each: no two calls share a cached answer
			from := harness.Clock.Add(-time.Duration(60+i) * time.Minute).Format("2006-01-02T15:04:05Z")
			r := e.get(t, fmt.Sprintf("/v2/applications/314221522/metrics/data.json?names[]=HttpDispatcher&from=%s&to=%s",
				from, harness.Clock.Format("2006-01-02T15:04:05Z")), key1)
			mu.Lock()
			statuses[r.status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if statuses[200] != calls {
		t.Fatalf("statuses %v, want %d answers 200", statuses, calls)
	}
	if p := peak.Load(); p > 25 {
		t.Fatalf("NerdGraph saw %d of the key's requests at once, want at most 25", p)
	}
}
