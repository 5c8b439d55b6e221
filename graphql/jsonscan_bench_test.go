package graphql

import (
	"fmt"
	"testing"

	gojson "github.com/goccy/go-json"
)

// inventoryAnswer is an inventory result shaped as the simulator and NerdGraph
// answer it: 222 applications of one to three hosts and agents, as the demo account's
// list page 1 (36 KB).
func inventoryAnswer() []byte {
	b := []byte{'['}
	for i := range 222 {
		if i > 0 {
			b = append(b, ',')
		}
		app := 300000000 + i*7919
		b = fmt.Appendf(b, `{"agents":[`)
		for k := range 1 + i%3 {
			if k > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, `"%d"`, 800000000+(i*3+k)*104729)
		}
		b = fmt.Appendf(b, `],"appId":"%d","facet":"%d","hosts":[`, app, app)
		for k := range 1 + i%3 {
			if k > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, `"worker-%02d.dc1.example.net"`, (i+k)%17)
		}
		b = fmt.Appendf(b, `],"lastSeen":%d}`, 1795175940000+int64(i)*1000)
	}
	return append(b, ']')
}

// BenchmarkInventoryRows compares the one-pass scanner with goccy/go-json decoding the
// same rows (each value kept as its text, as translate's rawFacet does).
//
//	go test -run '^$' -bench InventoryRows -benchmem ./graphql
func BenchmarkInventoryRows(b *testing.B) {
	data := inventoryAnswer()
	b.Run("scanner", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			n := 0
			if _, err := EachInventoryRow(data, inventoryColumns(), func(r *InventoryRow) { n += len(r.Hosts) + len(r.Agents) }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("goccy", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var rows []inventoryRow
			if err := gojson.Unmarshal(data, &rows); err != nil {
				b.Fatal(err)
			}
		}
	})
}
