package e2e

import (
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// Beyond max_in_flight the gateway sheds with 503 and Retry-After instead of queueing,
// and recovers as soon as the load stops.
func TestOverloadSheds(t *testing.T) {
	slow := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(200 * time.Millisecond)
			next.ServeHTTP(w, r)
		})
	}
	h := harness.StartWith(t, harness.Options{Gateway: gateway.Config{MaxInFlight: 4}, Sim: []sim.Option{sim.WithMiddleware(slow)}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	e.get(t, "/v2/applications/314221522.json", key1) // account resolved
	goroutines := runtime.NumGoroutine()
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// hosts: a route answered from NerdGraph every time (a show may come from
			// the entity cache and never wait for a slot long).
			r := e.get(t, "/v2/applications/314221522/hosts.json", key1)
			mu.Lock()
			codes[r.status]++
			mu.Unlock()
			if r.status == 503 && r.header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
		}()
	}
	wg.Wait()
	if codes[503] == 0 || codes[200] == 0 || codes[200]+codes[503] != 40 {
		t.Fatalf("status counts %v; want both 200 and 503 only", codes)
	}
	if r := e.get(t, "/v2/applications/314221522.json", key1); r.status != 200 {
		t.Fatalf("after the burst: %d", r.status)
	}
	time.Sleep(100 * time.Millisecond)
	if n := runtime.NumGoroutine(); n > goroutines+10 {
		t.Errorf("goroutines %d → %d after the burst", goroutines, n)
	}
}
