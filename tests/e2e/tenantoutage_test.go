package e2e

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// One tenant's NerdGraph outage does not take the others down: after
// key 2's calls fail often enough to open its circuit, key 1 — whose NerdGraph is
// healthy — is still answered 200 from NerdGraph, while key 2 gets the fast 503.
func TestOneTenantOutageLeavesOthersServed(t *testing.T) {
	var failing atomic.Bool
	outage := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if failing.Load() && r.Header.Get("Api-Key") == key2 {
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	h := harness.StartWith(t, harness.Options{Sim: []sim.Option{sim.WithMiddleware(outage)}})
	e := &env{sim: h.Sim, gw: h.Gateway}
	failing.Store(true)
	last := 0
	for i := 0; i < 15; i++ {
		last = e.get(t, "/v2/applications.json", key2, "X-Account-ID", "1000002").status
	}
	if last != http.StatusServiceUnavailable {
		t.Fatalf("key 2 after 15 failing calls: %d, want the open circuit's 503", last)
	}
	for i := 0; i < 3; i++ {
		r := e.get(t, "/v2/applications.json", key1, "X-Account-ID", "1000001")
		if r.status != 200 || r.header.Get("X-V2bridge-Upstream-Calls") == "0" {
			t.Fatalf("key 1 during key 2's outage: %d with %s upstream calls: %s", r.status, r.header.Get("X-V2bridge-Upstream-Calls"), r.body)
		}
	}
}
