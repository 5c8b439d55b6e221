package configs

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

func TestDemoData(t *testing.T) {
	b := DemoData()
	if len(b) == 0 {
		t.Fatal("DemoData is empty")
	}
	if !utf8.Valid(b) {
		t.Fatal("DemoData is not valid UTF-8")
	}
	for _, want := range []string{"NRAK-DEMO-ACCOUNT-1", "NRAK-DEMO-ACCOUNT-2", "NRAK-DEMO-MULTI", "1000001", "1000002"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("DemoData lacks %q", want)
		}
	}
}

func TestDemoDataIsACopy(t *testing.T) {
	a := DemoData()
	a[0] ^= 0xff
	if b := DemoData(); b[0] == a[0] {
		t.Fatal("DemoData returned shared bytes; callers could change the embedded data")
	}
}
