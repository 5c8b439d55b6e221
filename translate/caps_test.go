package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gql "github.com/Khan/genqlient/graphql"
)

// Every limited read is in the table with its limit and answer, and every cap a read
// can declare is named by a row.
func TestCapRulesTable(t *testing.T) {
	caps := map[Cap]bool{}
	for _, r := range capRules {
		if r.read == "" || r.limit == "" || r.answer == "" {
			t.Errorf("incomplete rule %+v", r)
		}
		if r.cap != "" {
			caps[r.cap] = true
		}
	}
	for _, c := range []Cap{CapInventory, CapViolations, CapHosts, CapKeyTxStats, CapMetricNames, CapDeployments, CapRecentDeployments, CapNameLike} {
		if !caps[c] {
			t.Errorf("cap %q has no rule", c)
		}
		if !strings.Contains(string(c), ": ") {
			t.Errorf("cap %q is not \"<read>: <limit>\"", c)
		}
	}
}

// Notes keeps each cap once, in the order first noted; without Notes on the context a
// cap goes nowhere (and nothing panics).
func TestNotes(t *testing.T) {
	var n Notes
	ctx := WithNotes(context.Background(), &n)
	noteCap(ctx, CapViolations)
	noteCaps(ctx, []Cap{CapInventory, CapViolations})
	if got, want := n.String(), string(CapViolations)+", "+string(CapInventory); got != want {
		t.Fatalf("notes %q, want %q", got, want)
	}
	noteCap(context.Background(), CapHosts)
	var none *Notes
	if none.String() != "" || len(none.Caps()) != 0 {
		t.Fatal("nil Notes not empty")
	}
}

func TestInventoryNRQL(t *testing.T) {
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	base := "SELECT max(timestamp) AS 'lastSeen', uniques(host, 10000) AS 'hosts', uniques(realAgentId, 10000) AS 'agents'" +
		" FROM Metric WHERE metricTimesliceName IN ('HttpDispatcher', 'OtherTransaction/all')"
	// An hour back: the hosts and instances membership window (InventoryWindow).
	tail := " FACET appId SINCE 1795172400000 UNTIL 1795176000000 LIMIT "
	tests := []struct {
		give  []int64
		limit int
		want  string
	}{
		{nil, accountInventoryApps, base + tail + "1000"},
		{[]int64{7}, MaxFacets, base + " AND appId = 7" + tail + "MAX"},
		{[]int64{7, 8, 9}, MaxFacets, base + " AND appId IN (7, 8, 9)" + tail + "MAX"},
		{[]int64{7, 8, 9}, MaxFacets - 1, base + " AND appId IN (7, 8, 9)" + tail + "4999"},
	}
	for _, tt := range tests {
		got, err := inventoryNRQL(tt.give, until, tt.limit)
		if err != nil || got != tt.want {
			t.Errorf("inventoryNRQL(%v, %d) = %q, %v; want %q", tt.give, tt.limit, got, err, tt.want)
		}
	}
}

// facetClient answers NrqlQuery like NRDB over a data set where every application
// reports every metric name: the facets of keyTxStatsNRQL are apps × names, of which it
// keeps the first 5000.
type facetClient struct{ queries []string }

var (
	appsRe  = regexp.MustCompile(`appId IN \(([^)]*)\)`)
	namesRe = regexp.MustCompile(`metricTimesliceName IN \((.*)\) FACET`)
)

func (f *facetClient) MakeRequest(_ context.Context, req *gql.Request, resp *gql.Response) error {
	b, err := json.Marshal(req.Variables)
	if err != nil {
		return err
	}
	var vars struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(b, &vars); err != nil {
		return err
	}
	f.queries = append(f.queries, vars.Query)
	apps := strings.Split(appsRe.FindStringSubmatch(vars.Query)[1], ", ")
	names := strings.Split(namesRe.FindStringSubmatch(vars.Query)[1], ", ")
	var rows []map[string]any
	for _, a := range apps {
		for _, n := range names {
			if len(rows) == MaxFacets {
				break
			}
			rows = append(rows, map[string]any{"facet": []any{a, strings.Trim(n, "'")}, "c": 1.0, "s": 0.5, "ex": 0.0, "last": 1.0})
		}
	}
	body, _ := json.Marshal(map[string]any{"actor": map[string]any{"account": map[string]any{"nrql": map[string]any{"results": rows}}}})
	return json.Unmarshal(body, resp.Data)
}

// A page whose applications share metric names has more facets than one query keeps:
// the summary is read per half of the applications until every part is under 5000,
// and every (application, metric) pair of the page has its row. Without the split the
// page's last applications have none.
func TestKeyTxStatsReadPastFacetLimit(t *testing.T) {
	var ks []keyTx
	for i := 0; i < 200; i++ {
		ks = append(ks, keyTx{id: int64(i + 1), appID: int64(100 + i), metricName: fmt.Sprintf("WebTransaction/Controller/t%03d", i)})
	}
	fc := &facetClient{}
	tr := New(fc, Options{})
	var notes Notes
	stats, err := tr.keyTxStats(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, ks)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ks {
		for _, n := range keyTxMetricNames(k.metricName) {
			if _, ok := stats[ktStatKey{k.appID, n}]; n != "" && !ok {
				t.Fatalf("no row for application %d, %s (%d queries)", k.appID, n, len(fc.queries))
			}
		}
	}
	if notes.String() != "" {
		t.Fatalf("declared %q", notes.String())
	}
	for _, q := range fc.queries[1:] {
		apps := len(strings.Split(appsRe.FindStringSubmatch(q)[1], ", "))
		if !slices.Contains([]int{100, 50, 25, 12, 13}, apps) {
			t.Errorf("a read of %d applications: not a halving", apps)
		}
	}
	t.Logf("%d reads", len(fc.queries))
}

// One application never needs the split: 3 names a transaction keep a page far under
// 5000 facets; the split stops at one application and declares what it cannot split.
func TestKeyTxStatsOneApplicationDeclared(t *testing.T) {
	var ks []keyTx
	for i := 0; i < 1700; i++ {
		ks = append(ks, keyTx{id: int64(i + 1), appID: 7, metricName: "WebTransaction/Controller/t" + strconv.Itoa(i)})
	}
	tr := New(&facetClient{}, Options{})
	var notes Notes
	if _, err := tr.keyTxStats(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, ks); err != nil {
		t.Fatal(err)
	}
	if notes.String() != string(CapKeyTxStats) {
		t.Fatalf("notes %q, want %q", notes.String(), CapKeyTxStats)
	}
}
