package gateway

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
