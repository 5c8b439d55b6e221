package main

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// Many concurrent calls of one accepted key (cold filter[name] look-ups, shows and
// metric data of distinct applications, as a fleet of cron jobs firing together) all
// answer 200,
// and NerdGraph never refuses one for the user's concurrency: the simulator holds
// NerdGraph's 25 requests in flight per user, each kept 20 ms, and counts every
// refusal. The gateway keeps the key's calls within its 25 slots, its background
// work within its share.
func TestConcurrentCallsOfOneKeyStayWithinNerdGraphsConcurrency(t *testing.T) {
	slow := sim.WithMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(20 * time.Millisecond)
			next.ServeHTTP(w, r)
		})
	})
	l, s, _, upstream := countedUpstream(t, "apps=2000,hosts=1,names=10", slow)
	gw := soleReplica(t, upstream)
	var paths []string
	for i := range 40 {
		app := l.LargeAppID(i * 37 % l.Apps)
		paths = append(paths,
			"/v2/applications.json?filter[name]="+url.QueryEscape(l.LargeAppName(i*53%l.Apps)),
			fmt.Sprintf("/v2/applications/%d.json", app),
			fmt.Sprintf("/v2/applications/%d/metrics/data.json?names[]=HttpDispatcher&summarize=true", app))
	}
	// The key is one the gateway has accepted already: a key it has not seen shares the
	// slots kept for unauthenticated requests, and a burst of it is shed past them.
	if _, err := (&journeyClient{base: gw.URL, l: l}).get(fmt.Sprintf("/v2/applications/%d.json", l.LargeAppID(1)), nil); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := map[string]int{}
	for _, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &journeyClient{base: gw.URL, l: l}
			if _, err := c.get(p, nil); err != nil {
				mu.Lock()
				failed[err.Error()]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(failed) > 0 {
		t.Errorf("of %d concurrent calls, failed: %v", len(paths), failed)
	}
	if n := s.ConcurrencyRefusals(); n != 0 {
		t.Errorf("NerdGraph refused %d calls for the user's concurrency", n)
	}
}
