package translate

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// A query of many applications is built in full.
func TestInventoryNRQLManyApps(t *testing.T) {
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	ids := make([]int64, 40)
	list := make([]string, len(ids))
	for i := range ids {
		ids[i] = int64(1000 + i)
		list[i] = strconv.FormatInt(ids[i], 10)
	}
	got, err := inventoryNRQL(ids, until, MaxFacets)
	want := "SELECT max(timestamp) AS 'lastSeen', uniques(host, 10000) AS 'hosts', uniques(realAgentId, 10000) AS 'agents'" +
		" FROM Metric WHERE metricTimesliceName IN ('HttpDispatcher', 'OtherTransaction/all')" +
		" AND appId IN (" + strings.Join(list, ", ") + ") FACET appId SINCE 1795172400000 UNTIL 1795176000000 LIMIT MAX"
	if err != nil || got != want {
		t.Fatalf("inventoryNRQL(40 apps) = %q, %v; want %q", got, err, want)
	}
}
