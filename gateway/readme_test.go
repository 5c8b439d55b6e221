package gateway

import (
	"os"
	"strings"
	"testing"
)

const (
	tableBegin = "<!-- routes:begin (generated from gateway.Routes; UPDATE_README=1 go test ./gateway -run Readme) -->\n"
	tableEnd   = "<!-- routes:end -->"
)

// The README's route table must equal the one generated from the route table in code.
func TestReadmeRouteTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the route table markers %q ... %q", tableBegin, tableEnd)
	}
	got := s[i+len(tableBegin) : j]
	want := RouteTable()
	if got != want {
		if os.Getenv("UPDATE_README") == "1" {
			if err := os.WriteFile("../README.md", []byte(s[:i+len(tableBegin)]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatalf("README route table is stale; run UPDATE_README=1 go test ./gateway -run Readme\nwant:\n%s", want)
	}
}

// Each row's path is where the route is served: under /v2 with both extensions, the
// whole subtree for retired prefixes, and at the root in XML for legacy routes.
func TestRouteTablePaths(t *testing.T) {
	table := RouteTable()
	for _, row := range []string{
		"| `applications.show` | GET | `/v2/applications/{id}.{json,xml}` |",
		"| `servers.retired` | any | `/v2/servers*` |",
		"| `deployments.v0` | POST | `/deployments.xml` |",
	} {
		if !strings.Contains(table, row) {
			t.Errorf("route table lacks %q", row)
		}
	}
}
