package migrate

import (
	"reflect"
	"testing"
)

func TestDiffJSON(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []string
	}{
		{"identical", `{"applications":[{"id":1,"name":"a"}]}`, `{"applications":[{"id":1,"name":"a"}]}`, nil},
		{"reordered by id", `{"applications":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}`,
			`{"applications":[{"id":2,"name":"b"},{"id":1,"name":"a"}]}`, nil},
		{"within tolerance", `{"x":{"throughput":100}}`, `{"x":{"throughput":103}}`, nil},
		{"volatile fields ignored", `{"application":{"id":1,"last_reported_at":"a","application_summary":{"throughput":1}}}`,
			`{"application":{"id":1,"last_reported_at":"b","application_summary":{"throughput":900}}}`, nil},
		{"truly different", `{"application":{"id":1,"name":"a","reporting":true,"links":{"servers":[]}}}`,
			`{"application":{"id":1,"name":"b","reporting":false,"links":{"servers":[1]}}}`,
			[]string{"$.application.links.servers.length", "$.application.name", "$.application.reporting"}},
		{"missing key", `{"a":1}`, `{"a":1,"b":2}`, []string{"$.b"}},
		{"beyond tolerance", `{"a":100}`, `{"a":110}`, []string{"$.a"}},
		{"type change", `{"a":"1"}`, `{"a":1}`, []string{"$.a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DiffJSON([]byte(tt.a), []byte(tt.b), CompareOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("DiffJSON = %v, want %v", got, tt.want)
			}
		})
	}
	if _, err := DiffJSON([]byte(`{`), []byte(`{}`), CompareOptions{}); err == nil {
		t.Fatal("bad JSON accepted")
	}
}

// TestDiffJSONBounds pins DiffJSON's path bound, its order of objects by id and the
// tolerance's edge:
//   - MaxPaths differences are reported, not one more;
//   - objects are compared in ascending id order, so a difference is reported at its
//     ascending index;
//   - objects of equal id keep their order (the sort is stable), so the second one's
//     difference stays at [1];
//   - a difference of exactly the tolerance is equal (4 vs 3 at 25 %: 1 <= 0.25×4,
//     exact in binary).
func TestDiffJSONBounds(t *testing.T) {
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
