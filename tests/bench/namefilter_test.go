package main

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
)

// cannedSet answers each NerdGraph request with the recorded answer to the same body
// (canned, served in process: no network peer in the figures).
type cannedSet struct{ c *canned }

func (t cannedSet) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.c.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// BenchmarkGatewayNameFilter is the gateway's own cost of a first filter[name] request
// (after a list page 1, which finds the account-wide inventory cut at 5000 facets:
// manyApps) on an account of 2,000 applications × 3 hosts: every search page is read to
// apply REST's substring match (docs/performance.md, "filter[name]"), so the cost grows
// with the account; translate/namefilter.go reads those pages with AppNamePage (guid,
// name, language) and then the page's applications by id. The answers are recorded
// from the simulator once and replayed; each iteration gets a fresh gateway (the list
// cache would answer the same request again) and its list page 1, untimed.
//
//	go test -run '^$' -bench GatewayNameFilter -benchmem ./tests/bench
func BenchmarkGatewayNameFilter(b *testing.B) {
	l, s, err := largeSim("apps=2000,hosts=3,names=10")
	if err != nil {
		b.Fatal(err)
	}
	const list, path = "/v2/applications.json", "/v2/applications.json?filter[name]=team007"
	get := func(h http.Handler, path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("X-Api-Key", l.Key)
		req.Header.Set("X-Account-ID", strconv.Itoa(l.ID))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	c := &canned{bodies: map[string][]byte{}}
	up := httptest.NewServer(&recorder{next: s, c: c})
	h := gatewayOver(ng.NewClient(up.URL+sim.Path, ng.Options{}))
	if rec := get(h, list); rec.Code != 200 {
		b.Fatalf("recording: %d %.300s", rec.Code, rec.Body)
	}
	listBodies, listBytes := len(c.bodies), 0
	for _, body := range c.bodies {
		listBytes += len(body)
	}
	rec := get(h, path)
	up.Close()
	if rec.Code != 200 || strings.Count(rec.Body.String(), `"id":`) != 20 {
		b.Fatalf("recording: %d %.300s", rec.Code, rec.Body)
	}
	upstream := 0 // the filtered request's NerdGraph answers' bytes
	for _, body := range c.bodies {
		upstream += len(body)
	}
	upstream -= listBytes
	client := ng.NewClient("http://nerdgraph.invalid/graphql", ng.Options{HTTPClient: &http.Client{Transport: cannedSet{c}}})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		h := gatewayOver(client)
		if rec := get(h, list); rec.Code != 200 {
			b.Fatalf("%d %.300s", rec.Code, rec.Body)
		}
		b.StartTimer()
		if rec := get(h, path); rec.Code != 200 {
			b.Fatalf("%d %.300s", rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(upstream), "upstream-B/op")
	b.ReportMetric(float64(len(c.bodies)-listBodies), "round-trips/op")
}
