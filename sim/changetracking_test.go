package sim_test

import (
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

// Recorded change events reach NRQL only after the ingest delay, on the ingest clock;
// seeded events are there at once.
func TestChangeEventIngestDelay(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	var ingest atomic.Int64 // seconds on the ingest clock
	s, err := sim.NewDemo(loadDemo(t), sim.WithClock(func() time.Time { return now }), sim.WithIngestDelay(5*time.Second),
		sim.WithIngestClock(func() time.Time { return time.Unix(ingest.Load(), 0) }))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	h := &harness{sim: s, url: srv.URL + sim.Path}
	app := apps(t, loadDemo(t), acctOne)[0]
	g := appGUID(acctOne, app.ID)

	h.mustQuery(t, keyOne, `mutation($q: String!) { changeTrackingCreateEvent(changeTrackingEvent: {categoryAndTypeData: {kind: {category: "Deployment", type: "Basic"}, categoryFields: {deployment: {version: "v1"}}}, entitySearch: {query: $q}}) { messages } }`,
		map[string]any{"q": "id = '" + g + "'"}, nil)
	h.mustQuery(t, keyOne, `mutation($g: EntityGuid!) { changeTrackingCreateDeployment(deployment: {entityGuid: $g, version: "v2"}) { deploymentId } }`,
		map[string]any{"g": g}, nil)
	s.AddChangeEvent(acctOne, "Deployment", now.Add(-time.Hour), map[string]any{"version": "v0", "entity.guid": g, "deploymentId": "old"})

	since, until := strconv.FormatInt(now.Add(-24*time.Hour).UnixMilli(), 10), strconv.FormatInt(now.Add(time.Minute).UnixMilli(), 10)
	versions := func() []string {
		var out struct {
			Actor struct {
				Account struct {
					Nrql struct{ Results []struct{ Version string } }
				}
			}
		}
		h.mustQuery(t, keyOne, `query($q: Nrql!) { actor { account(id: 1000001) { nrql(query: $q) { results } } } }`,
			map[string]any{"q": "SELECT version FROM ChangeTrackingEvent, Deployment WHERE entity.guid = '" + g + "' SINCE " + since + " UNTIL " + until + " LIMIT MAX"}, &out)
		var v []string
		for _, r := range out.Actor.Account.Nrql.Results {
			v = append(v, r.Version)
		}
		return v
	}
	tests := []struct {
		at   int64 // ingest clock, seconds after the writes
		want int
	}{{0, 1}, {4, 1}, {5, 3}, {60, 3}}
	for _, tt := range tests {
		ingest.Store(tt.at)
		if got := versions(); len(got) != tt.want {
			t.Fatalf("ingest clock +%ds: versions %v, want %d rows", tt.at, got, tt.want)
		}
	}
}
