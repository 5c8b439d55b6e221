package sim_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// A user's requests past the concurrency limit are rejected with HTTP 429 while the
// others are in flight; another user keeps its own; once one ends, the user's next
// request is served.
func TestConcurrentRequestsPerUser(t *testing.T) {
	entered, release := make(chan struct{}, 4), make(chan struct{})
	runner := sim.NRQLRunnerFunc(func(ctx context.Context, _ []int, query string, _ time.Time) ([]map[string]any, time.Time, time.Time, error) {
		if query == "SELECT hold" {
			entered <- struct{}{}
			<-release
		}
		return []map[string]any{{"count": 1}}, time.Time{}, time.Time{}, nil
	})
	h := demoHarness(t, sim.WithNRQL(runner), sim.WithConcurrentRequests(2))
	hold := `{ actor { account(id: 1000001) { nrql(query: "SELECT hold") { results } } } }`
	quick := `{ actor { account(id: 1000001) { nrql(query: "SELECT 1") { results } } } }`
	quick2 := `{ actor { account(id: 1000002) { nrql(query: "SELECT 1") { results } } } }`
	held := make(chan int, 2)
	for range 2 {
		go func() {
			status, _ := h.post(t, keyOne, hold, nil)
			held <- status
		}()
	}
	<-entered
	<-entered
	if status, body := h.post(t, keyOne, quick, nil); status != http.StatusTooManyRequests || !strings.Contains(string(body), "TOO_MANY_REQUESTS") {
		t.Errorf("a third request of the user: %d %s, want 429", status, body)
	}
	if n := h.sim.ConcurrencyRefusals(); n != 1 {
		t.Errorf("refusals counted: %d, want 1", n)
	}
	if status, _ := h.post(t, keyTwo, quick2, nil); status != http.StatusOK {
		t.Errorf("another user's request: %d, want 200", status)
	}
	release <- struct{}{}
	if status := <-held; status != http.StatusOK {
		t.Errorf("a held request: %d", status)
	}
	if status, _ := h.post(t, keyOne, quick, nil); status != http.StatusOK {
		t.Errorf("the user's request once one ended: %d, want 200", status)
	}
	close(release)
	<-held
}
