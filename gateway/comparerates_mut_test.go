package gateway

import "testing"

// TestCompareRatesOrderMut: the usage report's compare rates are listed by route name
// (compare.go:490:60 CONDITIONALS_NEGATION, `out[i].Route < out[j].Route` → `>=`, f9be12a
// lines). The CONDITIONALS_BOUNDARY mutant of the same comparison (`<=`) is equivalent:
// the rows are a map's values keyed by route, so no two routes are equal.
func TestCompareRatesOrderMut(t *testing.T) {
	g := New(Config{Metrics: NewMetrics()}, nil, nil)
	for _, route := range []string{"b.route", "c.route", "a.route"} {
		g.cfg.Metrics.compare.WithLabelValues(route, "match").Inc()
	}
	rates := g.compareRates()
	var got []string
	for _, r := range rates {
		got = append(got, r.Route)
	}
	if len(got) != 3 || got[0] != "a.route" || got[1] != "b.route" || got[2] != "c.route" {
		t.Fatalf("rates in order %v, want a.route, b.route, c.route", got)
	}
}
