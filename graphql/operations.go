package graphql

import (
	"embed"
	"io/fs"
	"strings"
)

//go:embed operations/*.graphql
var operationFiles embed.FS

// OperationsDocument is every operation file of operations/ as one GraphQL document,
// as genqlient reads them (fragments may be used across files). Tests validate it
// against the schema subset, the real schema and the simulator.
func OperationsDocument() string {
	names, err := fs.Glob(operationFiles, "operations/*.graphql")
	if err != nil {
		panic(err) // the pattern is constant and valid
	}
	var doc strings.Builder
	for _, name := range names {
		b, err := operationFiles.ReadFile(name)
		if err != nil {
			panic(err) // embedded at build time: cannot be missing
		}
		doc.Write(b)
		doc.WriteByte('\n')
	}
	return doc.String()
}
