package main

import (
	"io"
	"strings"
	"testing"
)

// results of one scenario: the gateway's req/s and each baseline's.
func scenarioResults(scenario string, gateway float64, baselines map[string]float64) []result {
	rs := []result{{Scenario: scenario, Server: "gateway", RPS: gateway}}
	for server, rps := range baselines {
		rs = append(rs, result{Scenario: scenario, Server: server, RPS: rps})
	}
	return rs
}

// A ratio is the gateway's req/s over the baseline's: at or above the floor passes,
// under it fails; a scenario the run left out (-only) or without the baseline is not
// measured and passes; a baseline of 0 req/s is a ratio of 0.
func TestCheckFloors(t *testing.T) {
	show := ratioFloor{"application show", "ReverseProxy", 1.2}
	cached := ratioFloor{"application show from cache", floorServer, 0.95}
	tests := []struct {
		name      string
		results   []result
		floor     ratioFloor
		wantRatio float64
		measured  bool
		pass      bool
	}{
		{"above", scenarioResults("application show", 1300, map[string]float64{"ReverseProxy": 1000}), show, 1.3, true, true},
		{"at the floor", scenarioResults("application show", 1200, map[string]float64{"ReverseProxy": 1000}), show, 1.2, true, true},
		{"under", scenarioResults("application show", 1100, map[string]float64{"ReverseProxy": 1000}), show, 1.1, true, false},
		// A faster baseline is a lower ratio, not a higher one.
		{"baseline faster", scenarioResults("application show", 1000, map[string]float64{"ReverseProxy": 1300}), show, 1000.0 / 1300, true, false},
		{"not run", scenarioResults("metric data from cache", 1000, map[string]float64{"ReverseProxy": 10}), show, 0, false, true},
		{"no baseline", scenarioResults("application show", 1000, map[string]float64{"plain net/http": 10}), show, 0, false, true},
		{"baseline answered nothing", scenarioResults("application show", 1000, map[string]float64{"ReverseProxy": 0}), show, 0, true, false},
		// Cached: against the contract floor, not the ReverseProxy the same scenario has.
		{"cached at 0.95 of the floor", scenarioResults("application show from cache", 950,
			map[string]float64{floorServer: 1000, "ReverseProxy": 100}), cached, 0.95, true, true},
		{"cached under", scenarioResults("application show from cache", 900,
			map[string]float64{floorServer: 1000, "ReverseProxy": 100}), cached, 0.9, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkFloors(tt.results, []ratioFloor{tt.floor})
			if len(got) != 1 {
				t.Fatalf("%d checks, want 1", len(got))
			}
			c := got[0]
			if diff := c.Ratio - tt.wantRatio; diff > 1e-9 || diff < -1e-9 || c.Measured != tt.measured || c.Pass() != tt.pass {
				t.Errorf("ratio %.4f measured %v pass %v; want %.4f, %v, %v", c.Ratio, c.Measured, c.Pass(), tt.wantRatio, tt.measured, tt.pass)
			}
		})
	}
}

// reportFloors counts the failed checks (the exit status) and names each one.
func TestReportFloorsCountsFailures(t *testing.T) {
	var rs []result
	rs = append(rs, scenarioResults("application show", 1000, map[string]float64{"ReverseProxy": 1000})...)
	rs = append(rs, scenarioResults("deployment create", 1500, map[string]float64{"ReverseProxy": 1000})...)
	rs = append(rs, scenarioResults("applications list page 1", 400, map[string]float64{"ReverseProxy": 1000})...)
	var b strings.Builder
	if n := reportFloors(&b, checkFloors(rs, ratioFloors())); n != 2 {
		t.Errorf("%d failures, want 2 (show, list page)\n%s", n, b.String())
	}
	out := b.String()
	for _, want := range []string{"application show", "UNDER THE FLOOR", "deployment create", "not measured"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if n := reportFloors(io.Discard, checkFloors(nil, ratioFloors())); n != 0 {
		t.Errorf("an empty run: %d failures, want 0", n)
	}
}
