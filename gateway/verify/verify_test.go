package verify

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCompareValue(t *testing.T) {
	for _, tc := range []struct {
		name, rest, tr string
		want           []Field
		equal          int
	}{
		{name: "equal", rest: `{"a":1,"b":"x"}`, tr: `{"b":"x","a":1}`, equal: 2},
		{name: "within tolerance", rest: `{"a":100}`, tr: `{"a":104}`,
			want: []Field{{Path: "$.a", Verdict: WithinTol, REST: 100.0, Translation: 104.0}}},
		{name: "beyond tolerance", rest: `{"a":100}`, tr: `{"a":106}`,
			want: []Field{{Path: "$.a", Verdict: Different, REST: 100.0, Translation: 106.0}}},
		{name: "missing on each side", rest: `{"a":1}`, tr: `{"b":2}`,
			want: []Field{{Path: "$.a", Verdict: MissingGraph, REST: 1.0}, {Path: "$.b", Verdict: MissingREST, Translation: 2.0}}},
		{name: "arrays by id, any order", rest: `{"l":[{"id":1,"n":"a"},{"id":2,"n":"b"}]}`, tr: `{"l":[{"id":2,"n":"B"},{"id":1,"n":"a"}]}`,
			want: []Field{{Path: "$.l[id=2].n", Verdict: Different, REST: "b", Translation: "B"}}, equal: 3},
		{name: "arrays by index", rest: `{"l":[1,2]}`, tr: `{"l":[1]}`,
			want: []Field{{Path: "$.l[1]", Verdict: MissingGraph, REST: 2.0}}, equal: 1},
		{name: "type change", rest: `{"a":"5"}`, tr: `{"a":5}`,
			want: []Field{{Path: "$.a", Verdict: Different, REST: "5", Translation: 5.0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a, b any
			if err := json.Unmarshal([]byte(tc.rest), &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.tr), &b); err != nil {
				t.Fatal(err)
			}
			x := Exchange{Counts: map[string]int{}}
			compareValue("$", a, b, 0.05, &x)
			if !reflect.DeepEqual(x.Fields, tc.want) || x.Counts[Equal] != tc.equal {
				t.Fatalf("fields %+v (equal %d), want %+v (equal %d)", x.Fields, x.Counts[Equal], tc.want, tc.equal)
			}
		})
	}
}
