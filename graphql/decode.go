package graphql

import gojson "github.com/goccy/go-json"

// UnmarshalJSON decodes a NerdGraph answer (or a part of one, such as an NRQL result
// kept as raw JSON) into v. It is github.com/goccy/go-json's Unmarshal, chosen by the
// side-by-side evaluation in tests/bench/decode_test.go (encoding/json, goccy/go-json,
// bytedance/sonic and, with GOEXPERIMENT=jsonv2, encoding/json/v2): goccy decodes an
// application page faster than encoding/json with the same allocations, is pure Go
// (no JIT, so the same code on amd64 and arm64 images), and decodes the recorded answers and the corpus exactly as encoding/json does
// (TestDecodersAgree). Types with their own UnmarshalJSON (genqlient's interface
// types) still run it, so their inner decoding stays encoding/json's.
func UnmarshalJSON(data []byte, v any) error { return gojson.Unmarshal(data, v) }
