package main

import (
	"os"
	"strings"
	"testing"
)

// The package doc lists every command the binary answers, so a newcomer reading it
// meets all of them.
func TestPackageDocListsEveryCommand(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for name := range commands() {
		if !strings.Contains(string(doc), "//\tv2bridge "+name+" ") {
			t.Errorf("doc.go does not list `v2bridge %s`", name)
		}
	}
}
