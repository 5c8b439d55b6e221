package graphql

import (
	"fmt"
	"testing"

	gojson "github.com/goccy/go-json"
)

// inventoryAnswer is an inventory result shaped as the simulator and NerdGraph
// answer it (427 rows, as the demo account's list page 1).
func inventoryAnswer() []byte {
	b := []byte{'['}
	for i := range 427 {
		if i > 0 {
			b = append(b, ',')
		}
		app, agent := 300000000+i/2*7919, 800000000+i*104729
		host := fmt.Sprintf("worker-%02d.dc1.example.net", i%17)
		b = fmt.Appendf(b, `{"appId":"%d","facet":["%d","%s","%d"],"host":"%s","lastSeen":%d,"realAgentId":"%d"}`,
			app, app, host, agent, host, 1795175940000+int64(i)*1000, agent)
	}
	return append(b, ']')
}

// BenchmarkFacetRows compares the one-pass scanner with goccy/go-json decoding the
// same rows (each facet kept as its text, as translate's rawFacet did).
//
//	go test -run '^$' -bench FacetRows -benchmem ./graphql
func BenchmarkFacetRows(b *testing.B) {
	data := inventoryAnswer()
	b.Run("scanner", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			n := 0
			if _, err := EachFacetRow(data, func(facet [][]byte, _ float64) { n += len(facet) }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("goccy", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var rows []facetRow
			if err := gojson.Unmarshal(data, &rows); err != nil {
				b.Fatal(err)
			}
		}
	})
}
