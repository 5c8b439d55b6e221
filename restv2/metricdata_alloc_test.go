//go:build !race

package restv2

import (
	"testing"
)

// TestMetricDataRenderAllocatesOnce: a 10 × 180 answer is rendered into output reserved
// once from the size estimate (a few allocations: no growth of the body while it is
// written). Not under -race, where a pool drops what it is given at random and a render
// may prepare its writer again.
func TestMetricDataRenderAllocatesOnce(t *testing.T) {
	md := mdDoc(10, 180)
	for _, f := range []struct {
		name   string
		render func([]byte, Document) []byte
	}{{"json", JSON}, {"xml", XML}} {
		f.render(nil, md) // the writer pooled
		if n := testing.AllocsPerRun(10, func() { f.render(nil, md) }); n > 8 {
			t.Errorf("%s: %v allocations per render of 10 × 180 slices, want the body reserved once (at most 8)", f.name, n)
		}
	}
}
