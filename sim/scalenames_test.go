package sim_test

import (
	"fmt"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// scaleNamesHarness is the demo simulator with a generated account whose first
// application has 5,000 metric names besides the defaults, on 6 instances.
func scaleNamesHarness(t testing.TB) (*harness, sim.LargeAccount) {
	t.Helper()
	l, err := sim.ParseScale("apps=1000,hosts=3,names=5000")
	if err != nil {
		t.Fatal(err)
	}
	data, err := sim.ParseData(configs.DemoData()) // WithLargeAccount changes it
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	s, err := sim.NewDemo(data, sim.WithClock(func() time.Time { return now }), sim.WithLargeAccount(l))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &harness{sim: s, url: ts.URL + sim.Path}, l
}

// metricNamesQuery is the gateway's metric names read of one application over a day
// (translate's fetchMetricNames, the default window).
func metricNamesQuery(l sim.LargeAccount) string {
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	nrql := fmt.Sprintf("SELECT uniques(metricTimesliceName, 10000) AS 'names' FROM Metric WHERE appId = %d AND newrelic.timeslice.value IS NOT NULL SINCE %d UNTIL %d",
		l.LargeAppID(0), until.Add(-24*time.Hour).UnixMilli(), until.UnixMilli())
	return `{ actor { account(id: ` + strconv.Itoa(l.ID) + `) { nrql(query: ` + strconv.Quote(nrql) + `) { results } } } }`
}

type namesOut struct {
	Actor struct {
		Account struct {
			NRQL struct {
				Results []struct {
					Names []string `json:"names"`
				} `json:"results"`
			} `json:"nrql"`
		} `json:"account"`
	} `json:"actor"`
}

// The metric names of an application with 5,000 names on 6 instances over a day (a
// series a minute each: 43 million rows) answer within NerdGraph's NRQL timeout, every
// name once.
func TestMetricNamesOfAScaleApplicationAnswer(t *testing.T) {
	h, l := scaleNamesHarness(t)
	var out namesOut
	h.mustQuery(t, l.Key, metricNamesQuery(l), nil, &out)
	rs := out.Actor.Account.NRQL.Results
	if len(rs) != 1 {
		t.Fatalf("%d rows, want 1", len(rs))
	}
	seen := map[string]bool{}
	for _, n := range rs[0].Names {
		seen[n] = true
	}
	if want := 5000 + len(timeslice.DefaultNames()); len(rs[0].Names) != want || len(seen) != want {
		t.Fatalf("%d names (%d distinct), want %d", len(rs[0].Names), len(seen), want)
	}
	if !seen[sim.LargeMetricName(4999)] || !seen["HttpDispatcher"] {
		t.Fatalf("names lack %s or HttpDispatcher", sim.LargeMetricName(4999))
	}
}

// BenchmarkMetricNamesOfAScaleApplication is one metric names read of that application.
func BenchmarkMetricNamesOfAScaleApplication(b *testing.B) {
	h, l := scaleNamesHarness(b)
	q := metricNamesQuery(l)
	b.ReportAllocs()
	for b.Loop() {
		var out namesOut
		h.mustQuery(b, l.Key, q, nil, &out)
		if len(out.Actor.Account.NRQL.Results) != 1 {
			b.Fatal("no names")
		}
	}
}
