package gateway

import (
	"reflect"
	"testing"
)

// TestDiffJSONBoundsMut pins DiffJSON's path bound, its order of objects by id and the
// tolerance's edge (f9be12a lines):
//   - diff.go:55:17 CONDITIONALS_BOUNDARY (`len(paths) >= o.MaxPaths` → `>`): MaxPaths
//     differences are reported, not one more;
//   - diff.go:126:50 CONDITIONALS_NEGATION (`id < id` → `>=`): objects are compared in
//     ascending id order, so a difference is reported at its ascending index;
//   - diff.go:126:50 CONDITIONALS_BOUNDARY (`<` → `<=`): objects of equal id keep their
//     order (the sort is stable), so the second one's difference stays at [1];
//   - diff.go:135:23 CONDITIONALS_BOUNDARY (`<= tol*max` → `<`): a difference of exactly
//     the tolerance is equal (4 vs 3 at 25 %: 1 <= 0.25×4, exact in binary).
func TestDiffJSONBoundsMut(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		o    CompareOptions
		want []string
	}{
		{"bound of one", `{"a":1,"b":1,"c":1}`, `{"a":2,"b":2,"c":2}`, CompareOptions{MaxPaths: 1}, []string{"$.a"}},
		{"bound of two", `{"a":1,"b":1,"c":1}`, `{"a":2,"b":2,"c":2}`, CompareOptions{MaxPaths: 2}, []string{"$.a", "$.b"}},
		{"ascending ids", `[{"id":1,"v":"x"},{"id":2,"v":"a"}]`, `[{"id":2,"v":"b"},{"id":1,"v":"x"}]`, CompareOptions{},
			[]string{"$[1].v"}},
		{"equal ids keep their order", `[{"id":1,"v":"a"},{"id":1,"v":"b"}]`, `[{"id":1,"v":"a"},{"id":1,"v":"c"}]`, CompareOptions{},
			[]string{"$[1].v"}},
		{"exactly the tolerance", `{"n":4}`, `{"n":3}`, CompareOptions{Tolerance: 0.25}, nil},
		{"just beyond the tolerance", `{"n":4}`, `{"n":2.99}`, CompareOptions{Tolerance: 0.25}, []string{"$.n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DiffJSON([]byte(tt.a), []byte(tt.b), tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("DiffJSON = %v, want %v", got, tt.want)
			}
		})
	}
}
