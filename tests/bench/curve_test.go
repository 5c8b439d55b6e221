package main

import (
	"encoding/xml"
	"strings"
	"testing"
)

// TestCurveSVG draws a small curve and checks it is well-formed SVG with a line per
// scenario and server, and a legend entry for each.
func TestCurveSVG(t *testing.T) {
	var ps []curvePoint
	for _, sc := range []string{"application show", "metric data"} {
		for _, srv := range []string{"gateway", "ReverseProxy"} {
			for i, c := range []int{1, 10, 50, 200} {
				ps = append(ps, curvePoint{Scenario: sc, Server: srv, Conns: c, RPS: float64(1000 * (i + 1)), P99ms: float64(i * i)})
			}
		}
	}
	svg := string(curveSVG(ps))
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed: %v", err)
			}
			break
		}
	}
	if got := strings.Count(svg, "<polyline"); got != 8 {
		t.Errorf("%d lines, want 8 (2 panels × 2 scenarios × 2 servers)", got)
	}
	if !strings.Contains(svg, "metric data — ReverseProxy") {
		t.Error("legend entry missing")
	}
}
