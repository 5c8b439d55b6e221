package sim_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

const benchSearch = `query AppPage($q: String!) { actor { entitySearch(query: $q) { count results { nextCursor entities {
  guid accountId name reporting alertSeverity
  ... on ApmApplicationEntityOutline { applicationId language settings { apdexTarget serverSideConfig }
    apmSummary { apdexScore errorRate hostCount instanceCount webResponseTimeAverage webThroughput nonWebResponseTimeAverage nonWebThroughput }
    apmBrowserSummary { pageLoadTimeAverage pageLoadThroughput } } } } } } }`

// BenchmarkEntitySearchPage measures one 200-entity page of applications, in-process
// (no network), which is what a gateway list request costs the simulator.
func BenchmarkEntitySearchPage(b *testing.B) {
	h := demoHarness(b)
	body, _ := json.Marshal(map[string]any{"query": benchSearch, "operationName": "AppPage",
		"variables": map[string]any{"q": "domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001"}})
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
		req.Header.Set("API-Key", keyOne)
		rec := httptest.NewRecorder()
		h.sim.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// Concurrent requests of several keys share the server (run with -race).
func TestConcurrentRequests(t *testing.T) {
	h := demoHarness(t)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := []string{keyOne, keyTwo, keyMulti}[i%3]
			var out searchOut
			h.mustQuery(t, key, searchQuery, map[string]any{"q": "domain = 'APM'"}, &out)
			if out.Actor.EntitySearch.Count == 0 {
				t.Errorf("%s: no applications", key)
			}
		}()
	}
	wg.Wait()
	if h.sim.Requests() != 16 || h.sim.RequestsByOperation()[""] != 16 {
		t.Errorf("counters %d %v", h.sim.Requests(), h.sim.RequestsByOperation())
	}
}
