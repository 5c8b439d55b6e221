package nameindex

import (
	"slices"
	"strconv"
	"testing"
)

// An edit puts a renamed entry where the index's order (name without case, name, guid)
// has it, and a removal keeps the rest in order; the slice served before is untouched.
func TestEditEntriesKeepsOrder(t *testing.T) {
	es := []Entry{{ID: 1, Name: "alpha"}, {ID: 2, Name: "Beta"}, {ID: 3, Name: "delta"}}
	guid := func(id int64) string { return "g" + strconv.FormatInt(id, 10) }
	tests := []struct {
		name string
		edit Edit
		want []int64
	}{
		{"rename to the end", Edit{Entry: Entry{ID: 1, Name: "zulu"}}, []int64{2, 3, 1}},
		{"rename between, case aside", Edit{Entry: Entry{ID: 3, Name: "BRAVO"}}, []int64{1, 2, 3}},
		{"rename to the front", Edit{Entry: Entry{ID: 3, Name: "Aardvark"}}, []int64{3, 1, 2}},
		{"a new entry", Edit{Entry: Entry{ID: 4, Name: "charlie"}}, []int64{1, 2, 4, 3}},
		{"remove", Edit{Entry: Entry{ID: 2}, Removed: true}, []int64{1, 3}},
		{"remove what is not there", Edit{Entry: Entry{ID: 9}, Removed: true}, []int64{1, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := IDs(EditEntries(es, guid, tc.edit))
			if !slices.Equal(got, tc.want) {
				t.Errorf("%v, want %v", got, tc.want)
			}
			if !slices.Equal(IDs(es), []int64{1, 2, 3}) {
				t.Errorf("the served slice changed: %v", IDs(es))
			}
		})
	}
}
