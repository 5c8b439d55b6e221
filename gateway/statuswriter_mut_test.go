package gateway

// The status the middleware records (issue 22, whole-tree gremlins run at f9be12a,
// middleware.go lines of that commit).
//
// Equivalent, no test: middleware.go:145:25 CONDITIONALS_BOUNDARY (`lvl < WarnLevel`
// → `<=` in accessLog): lvl is Info, Warn or Error there; at Warn the mutant sets it
// to Warn again.

import (
	"net/http/httptest"
	"testing"
)

// TestStatusWriterMut: the first status written is the one recorded; a body written
// without a status records 200; bytes are counted.
// Kills middleware.go:75:14 CONDITIONALS_NEGATION (WriteHeader `w.status == 0` → `!=`)
// and :82:14 CONDITIONALS_NEGATION (Write `w.status == 0` → `!=`).
func TestStatusWriterMut(t *testing.T) {
	tests := []struct {
		name    string
		headers []int
		writes  []string
		want    int
		bytes   int
	}{
		{"nothing", nil, nil, 0, 0},
		{"one status", []int{404}, nil, 404, 0},
		{"first status wins", []int{404, 500}, nil, 404, 0},
		{"status then body", []int{422}, []string{"ab", "c"}, 422, 3},
		{"body alone", nil, []string{"abcd"}, 200, 4},
	}
	for _, tt := range tests {
		w := &statusWriter{ResponseWriter: httptest.NewRecorder()}
		for _, c := range tt.headers {
			w.WriteHeader(c)
		}
		for _, s := range tt.writes {
			if _, err := w.Write([]byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		if w.status != tt.want || w.bytes != tt.bytes {
			t.Errorf("%s: status %d, %d bytes; want %d, %d", tt.name, w.status, w.bytes, tt.want, tt.bytes)
		}
	}
}
