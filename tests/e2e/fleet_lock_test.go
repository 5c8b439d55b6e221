package e2e

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// slowMutations delays every NerdGraph mutation by d, so that two replicas' checks of
// the "later than the latest" rule overlap with the other's write.
func slowMutations(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			if bytes.Contains(b, []byte("mutation ")) {
				time.Sleep(d)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Two identical deployment POSTs with a timestamp, sent at once to two replicas: with
// the store the application's check-and-record is locked fleet-wide, so one is
// recorded (201) and the other is refused by the "later than the latest" rule (422);
// without it (the control) both pass the check and both are recorded.
func TestFleetDeploymentLock(t *testing.T) {
	for _, withStore := range []bool{true, false} {
		t.Run(fmt.Sprint("store=", withStore), func(t *testing.T) {
			fixed := func() time.Time { return clock }
			f := newFleetWith(t, fleetOptions{replicas: 2, store: withStore, limit: -1, wrap: slowMutations(300 * time.Millisecond),
				sim: []sim.Option{sim.WithIngestDelay(time.Hour), sim.WithIngestClock(fixed)}})
			body := `{"deployment":{"revision":"fleet-lock","timestamp":"2026-11-20T11:59:40Z"}}`
			var wg sync.WaitGroup
			res := make([]response, 2)
			for i := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res[i] = fleetDo(t, f.replicas[i], http.MethodPost, deployPath, body)
				}()
			}
			wg.Wait()
			created := 0
			for _, r := range res {
				switch r.status {
				case 201:
					created++
				case 422:
					if !strings.Contains(string(r.body), "later than") {
						t.Fatalf("422 for another reason: %s", r.body)
					}
				default:
					t.Fatalf("status %d %s", r.status, r.body)
				}
			}
			if withStore && created != 1 {
				t.Fatalf("with the store %d deployments recorded, want 1", created)
			}
			if !withStore && created != 2 {
				t.Fatalf("without the store %d recorded: the control no longer shows two islands racing", created)
			}
		})
	}
}
