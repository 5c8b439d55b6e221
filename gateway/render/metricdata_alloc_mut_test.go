//go:build !race

package render

// Allocation counts, without the race detector (under -race a pool drops a quarter of
// what it is given at random, so a render may prepare its writer again).

import (
	"testing"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestMetricDataRenderAllocatesOnceMut: a 10 × 180 answer is rendered into output
// reserved once from the size estimate (a few allocations: no growth of the body while
// it is written). Kills metricdata.go:222:33 ARITHMETIC_BASE (`slices*(perSlice+...)` →
// `slices/(...)`: the estimate some 2 KB, so the body grows about twenty times; 24 and
// 27 allocations instead of 3 and 4, measured).
func TestMetricDataRenderAllocatesOnceMut(t *testing.T) {
	md := mdDoc(10, 180)
	for _, f := range []struct {
		name   string
		render func([]byte, v2.Document) []byte
	}{{"json", JSON}, {"xml", XML}} {
		f.render(nil, md) // the writer pooled
		if n := testing.AllocsPerRun(10, func() { f.render(nil, md) }); n > 8 {
			t.Errorf("%s: %v allocations per render of 10 × 180 slices, want the body reserved once (at most 8)", f.name, n)
		}
	}
}
