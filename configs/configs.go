// Package configs holds v2bridge's example configuration (v2bridge.yaml, which documents
// every key) and the demo data set of the NerdGraph simulator (demo-data.yaml), embedded
// into the binary for `v2bridge demo` and `v2bridge sim`.
package configs

import (
	"bytes"
	_ "embed"
)

//go:embed demo-data.yaml
var demoData []byte

// DemoData returns the simulator's demo data set (parse it with sim.ParseData):
// accounts 1000001 and 1000002 and the keys NRAK-DEMO-ACCOUNT-1, NRAK-DEMO-ACCOUNT-2
// and NRAK-DEMO-MULTI. Each call returns a fresh copy.
func DemoData() []byte { return bytes.Clone(demoData) }
