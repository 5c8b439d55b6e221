package main

import (
	"fmt"
	"io"
)

// Regression floors of the fair table: `go run ./tests/bench` exits non-zero, after
// printing everything, when a ratio falls under its floor (-floors=false: no check).
//
// A ratio is the gateway's requests per second ÷ a baseline's, in the same scenario
// and run (the closed-loop load of main.go, the servers taking turns in rounds on the
// same cores, so the ratio reflects what each server spends per request). Higher is
// better for the gateway: a ratio at or above its floor passes, one under it is a
// regression. For answers served from the gateway's cache the baseline is the contract
// floor (floor.go): gateway ÷ floor ≥ 0.95 is gateway ÷ plain ≥ 0.95 × floor ÷ plain,
// the contract floor's own ratio to the plain server.

// ratioFloor is the least gateway ÷ Baseline (requests per second) may be in Scenario.
type ratioFloor struct {
	Scenario string  `json:"scenario"`
	Baseline string  `json:"baseline"` // "ReverseProxy" or floorServer
	Min      float64 `json:"floor"`
}

// ratioFloors are the fair table's floors. The metric data floor holds for the
// scenario of 3 names × 30 slices; the one of 10 names × 180 slices is reported only.
func ratioFloors() []ratioFloor {
	return []ratioFloor{
		{"application show", "ReverseProxy", 1.2},
		{"deployment create", "ReverseProxy", 1.2},
		{"metric data 3 names x 30 slices", "ReverseProxy", 0.8},
		{"applications list page 1", "ReverseProxy", 0.5},
		{"application show from cache", floorServer, 0.95},
		{"metric data from cache", floorServer, 0.95},
	}
}

// floorCheck is one floor against a run's results.
type floorCheck struct {
	ratioFloor
	Ratio float64 `json:"ratio"`
	// Measured: the run measured the scenario on both servers (not left out by -only).
	Measured bool `json:"measured"`
}

// Pass is whether the ratio is at or above the floor (a floor not measured passes).
func (c floorCheck) Pass() bool { return !c.Measured || c.Ratio >= c.Min }

// checkFloors sets each floor beside the run's results.
func checkFloors(rs []result, floors []ratioFloor) []floorCheck {
	rps := map[[2]string]float64{}
	for _, r := range rs {
		rps[[2]string{r.Scenario, r.Server}] = r.RPS
	}
	out := make([]floorCheck, 0, len(floors))
	for _, f := range floors {
		c := floorCheck{ratioFloor: f}
		gw, okG := rps[[2]string{f.Scenario, "gateway"}]
		base, okB := rps[[2]string{f.Scenario, f.Baseline}]
		if okG && okB {
			c.Measured = true
			if base > 0 {
				c.Ratio = gw / base
			}
		}
		out = append(out, c)
	}
	return out
}

// reportFloors prints the checks and returns how many failed.
func reportFloors(w io.Writer, checks []floorCheck) int {
	fmt.Fprintln(w, "\nregression floors (gateway req/s ÷ baseline req/s, same run; higher is better):")
	failed := 0
	for _, c := range checks {
		verdict := "ok"
		switch {
		case !c.Measured:
			verdict = "not measured"
		case !c.Pass():
			verdict = "UNDER THE FLOOR"
			failed++
		}
		fmt.Fprintf(w, "  %-34s gateway ÷ %-14s %5.2f  floor %4.2f  %s\n", c.Scenario, c.Baseline, c.Ratio, c.Min, verdict)
	}
	return failed
}
