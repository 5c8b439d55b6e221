package schema

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
)

// FullDate is the date of the real NerdGraph schema dump checked in beside the subset.
const FullDate = "2026-04-19"

// FullSHA256 is the SHA-256 of the uncompressed dump (schema/nerdgraph-full-2026-04-19.graphql.gz,
// the introspection of the live API on 2026-04-19).
const FullSHA256 = "113be80cbae107120bccbc6e5b2c20afbf9f64114e48b8d7c640d399895dcbe8"

//go:embed nerdgraph-full-2026-04-19.graphql.gz
var fullGz []byte

// Full returns the real NerdGraph schema of 2026-04-19, decompressed from the gzip
// checked in with the code (about 72 KB; embedded in the tests only, not the binary),
// so the checks against it run on every clone.
func Full() (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(fullGz))
	if err != nil {
		return "", fmt.Errorf("full schema: %w", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return "", fmt.Errorf("full schema: %w", err)
	}
	return string(b), nil
}
