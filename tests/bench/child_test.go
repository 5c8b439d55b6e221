package main

import (
	"strings"
	"testing"
)

// A measured gateway's log level comes from -log-level; a level zap does not know is
// refused before anything is served.
func TestServeChildLogLevel(t *testing.T) {
	err := serveChild("gateway", "http://127.0.0.1:1/graphql", "", "", "loud", "")
	if err == nil || !strings.Contains(err.Error(), "-log-level") {
		t.Fatalf("serveChild with log level loud: %v", err)
	}
}
