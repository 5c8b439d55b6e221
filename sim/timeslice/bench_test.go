package timeslice

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim/nrdb"
)

// BenchmarkInventoryNRQL runs the shape of translate's inventoryNRQL (an application
// list's hosts and instances: max(timestamp) of two metric names over an hour, for 200
// applications of 3 instances on 3 hosts, faceted by appId with uniques() of host and
// realAgentId) on the simulator: the query most of the simulator's time in the e2e
// suite and the scale table goes to. It reads no timeslice values, compares every row
// with the 200 ids, and makes 200 facets of 360 rows each.
func BenchmarkInventoryNRQL(b *testing.B) {
	const n = 200
	apps := make([]App, n)
	ids := make([]string, n)
	for i := range apps {
		id := int64(1000 + i)
		apps[i] = App{AccountID: 1, AppID: id, AppName: "app", GUID: "g" + itoa(id), ApdexT: 0.5,
			Instances: []Instance{{ID: id*10 + 1, Host: "h1"}, {ID: id*10 + 2, Host: "h2"}, {ID: id*10 + 3, Host: "h3"}}}
		ids[i] = itoa(id)
	}
	r := nrdb.NewRunner(NewSource(Generator{Seed: 1}, apps))
	q := "SELECT max(timestamp) AS 'lastSeen', uniques(host, 10000) AS 'hosts', uniques(realAgentId, 10000) AS 'agents'" +
		" FROM Metric WHERE metricTimesliceName IN ('HttpDispatcher', 'OtherTransaction/all') AND appId IN (" +
		strings.Join(ids, ", ") + ") FACET appId SINCE " + itoa(t0.UnixMilli()) + " UNTIL " +
		itoa(t0.Add(time.Hour).UnixMilli()) + " LIMIT MAX"
	b.ReportAllocs()
	for b.Loop() {
		rows, _, _, err := r.RunNRQL(context.Background(), []int{1}, q, t0.Add(time.Hour))
		if err != nil {
			b.Fatal(err)
		}
		if len(rows) != n || len(rows[0]["hosts"].([]any)) != 3 || len(rows[0]["agents"].([]any)) != 3 {
			b.Fatalf("%d rows, want %d of 3 hosts and 3 agents: %v", len(rows), n, rows[0])
		}
	}
}
