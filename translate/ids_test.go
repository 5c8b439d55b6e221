package translate

import (
	"strings"
	"testing"
)

// TestSurrogateIDsAreStable pins surrogate ids to values computed outside Go
// (sha256 of "namespace|accountId|key", first 8 bytes big-endian, low 31 bits): a
// caller keeps a host's id across restarts and upgrades, so the derivation never
// changes.
func TestSurrogateIDsAreStable(t *testing.T) {
	tests := []struct {
		name string
		got  int64
		want int64
	}{
		{"host", HostID(1000001, 314221522, "web-01.example.com"), 1691142990},
		{"namespace", SurrogateID("changeTracking", 1000002, "abc"), 585945777},
		{"key longer than the stack buffer", HostID(1000001, 1, strings.Repeat("h", 200)), 308476013},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: id %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}
