package nrdb

import (
	"fmt"
	"math"
	"testing"
)

// TestValueSetAgreesWithEqual: an IN list decoded once (valueSet.has) matches exactly
// the values the per-row comparison (equal with each Value) matches, for every kind
// of value a row can hold.
func TestValueSetAgreesWithEqual(t *testing.T) {
	var ps Parser
	lists := []string{
		"x IN (1, 2, 3)",
		"x IN (-0, 0.5, 1e3)",
		"x IN ('1', 'a', '')",
		"x IN (true)",
		"x IN (false, 'true', 1)",
		"x IN ('1000', 1000, 'café')",
	}
	lefts := []any{nil, 0.0, math.Copysign(0, -1), 0.5, 1.0, 1000.0, math.NaN(), math.Inf(1),
		"1", "a", "", "1000", "café", "true", true, false, int64(1), []string{"a"}}
	for _, l := range lists {
		q, err := ps.Parse("SELECT count(*) FROM Metric WHERE " + l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		c := q.Clauses[0].Where.Or[0].And[0].Compare
		if c.in == nil {
			t.Fatalf("%s: Parse left the IN list unprepared", l)
		}
		for _, left := range lefts {
			want := false
			for _, v := range c.In {
				if equal(left, v.value()) {
					want = true
				}
			}
			if got := c.in.has(left); got != want {
				t.Errorf("%s with %#v: set says %v, equal says %v", l, left, got, want)
			}
		}
	}
}

// TestParsePreparesEveryInList: IN lists inside groups, under NOT and in filter()'s
// WHERE are prepared too.
func TestParsePreparesEveryInList(t *testing.T) {
	var ps Parser
	q, err := ps.Parse("SELECT filter(count(*), WHERE b IN ('x')) FROM Metric WHERE (a IN (1) OR NOT c IN (2)) AND d = 1")
	if err != nil {
		t.Fatal(err)
	}
	var found int
	var check func(c *Cond)
	check = func(c *Cond) {
		for _, and := range c.Or {
			for _, n := range and.And {
				if n.Group != nil {
					check(n.Group)
				} else if n.Compare.In != nil {
					found++
					if n.Compare.in == nil {
						t.Errorf("IN list of %v not prepared", n.Compare.Left)
					}
				}
			}
		}
	}
	check(q.Clauses[0].Where)
	walkCalls(q.Select[0].Expr, func(c *Call) {
		for _, a := range c.Args {
			if a.Where != nil {
				check(a.Where)
			}
		}
	})
	if found != 3 {
		t.Fatalf("found %d IN lists, want 3", found)
	}
}

// TestFacetText: a facet's text, appended to a group key or returned alone, is a
// string as it is, a number in strconv's shortest 'f' form, a boolean as true/false, and
// anything else as fmt prints it.
func TestFacetText(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{"", ""}, {"a\x00b", "a\x00b"}, {"café", "café"}, {0.0, "0"}, {math.Copysign(0, -1), "-0"},
		{1e21, "1000000000000000000000"}, {1.5, "1.5"}, {-3.0, "-3"}, {math.NaN(), "NaN"},
		{math.Inf(-1), "-Inf"}, {true, "true"}, {false, "false"}, {int64(7), "7"}, {[]string{"x"}, "[x]"},
		{Timeslice{Count: 2}, fmt.Sprint(Timeslice{Count: 2})},
	} {
		if got := string(appendFacetString([]byte("k"), tt.v)); got != "k"+tt.want {
			t.Errorf("appendFacetString(%#v) = %q, want %q", tt.v, got, "k"+tt.want)
		}
		if got := facetString(tt.v); got != tt.want {
			t.Errorf("facetString(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
