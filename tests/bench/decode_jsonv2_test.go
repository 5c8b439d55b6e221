//go:build goexperiment.jsonv2

package main

import jsonv2 "encoding/json/v2"

// With GOEXPERIMENT=jsonv2 the evaluation adds encoding/json/v2 (its Unmarshal with
// default options: exact-case names, and invalid UTF-8 and duplicate names refused).
func init() {
	decoders = append(decoders, decoder{"encoding-json-v2", func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }})
}
