package nrqlwhere

import (
	"errors"
	"reflect"
	"testing"
)

func TestEntityLists(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, query string
		want        []List // Attribute, Values, Strings only
		err         error
	}{
		{name: "appId list", query: "SELECT count(*) FROM Transaction WHERE appId IN (1, 22,333) FACET name",
			want: []List{{Attribute: "appId", Values: []string{"1", "22", "333"}}}},
		{name: "appName and other terms", query: "FROM Transaction SELECT average(duration) WHERE duration > 1 AND appName IN ('a, b', 'it\\'s') AND host = 'x'",
			want: []List{{Attribute: "appName", Values: []string{"a, b", "it's"}, Strings: true}}},
		{name: "entity.guid backticked", query: "SELECT count(*) FROM Transaction WHERE `entity.guid` IN ('MXxBUE18QVBQTElDQVRJT058MQ') SINCE 5 minutes ago",
			want: []List{{Attribute: "entity.guid", Values: []string{"MXxBUE18QVBQTElDQVRJT058MQ"}, Strings: true}}},
		{name: "text in a string is not syntax", query: "SELECT count(*) FROM Log WHERE message = 'appId IN (1)'"},
		{name: "NOT IN excludes", query: "SELECT count(*) FROM Transaction WHERE appId NOT IN (1, 2)"},
		{name: "negated group excludes", query: "SELECT count(*) FROM Transaction WHERE NOT (appId IN (1, 2))"},
		{name: "filter argument is not the WHERE clause", query: "SELECT filter(count(*), WHERE appId IN (9)) FROM Transaction WHERE name LIKE 'Web%'"},
		// An equality names one entity: a list of one.
		{name: "appId equality is a list of one", query: "SELECT count(*) FROM Transaction WHERE appId = 5",
			want: []List{{Attribute: "appId", Values: []string{"5"}}}},
		{name: "appName equality among other terms", query: "SELECT count(*) FROM Transaction WHERE appName = 'checkout-service' AND duration > 1",
			want: []List{{Attribute: "appName", Values: []string{"checkout-service"}, Strings: true}}},
		{name: "an expression is not an entity", query: "SELECT count(*) FROM Transaction WHERE appId = 5 + 1"},
		{name: "inequality is not a list", query: "SELECT count(*) FROM Transaction WHERE appId != 5"},
		{name: "named argument before the clause", query: "SELECT apdex(duration, t: 0.5) FROM Transaction WHERE appId IN (7) AND percentile(duration, 95) > 1",
			want: []List{{Attribute: "appId", Values: []string{"7"}}}},
		{name: "comments", query: "SELECT count(*) FROM Transaction -- appId IN (5)\nWHERE /* appName IN ('x') */ appId IN (1) // trailing",
			want: []List{{Attribute: "appId", Values: []string{"1"}}}},
		{name: "no where", query: "SELECT count(*) FROM Transaction", err: ErrNoWhere},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := p.EntityLists(tc.query)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			var short []List
			for _, l := range got {
				short = append(short, List{Attribute: l.Attribute, Values: l.Values, Strings: l.Strings})
			}
			if !reflect.DeepEqual(short, tc.want) {
				t.Fatalf("got %+v, want %+v", short, tc.want)
			}
		})
	}
}

func TestEdit(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const q = "SELECT count(*) FROM Transaction WHERE appId IN (1, 22,333) FACET name"
	ls, err := p.EntityLists(q)
	if err != nil || len(ls) != 1 {
		t.Fatal(err, ls)
	}
	l := ls[0]
	for _, tc := range []struct {
		name, got, want string
	}{
		{"add", l.Add(q, "4"), "SELECT count(*) FROM Transaction WHERE appId IN (1, 22,333, 4) FACET name"},
		{"remove first", must(l.Remove(q, 0)), "SELECT count(*) FROM Transaction WHERE appId IN (22,333) FACET name"},
		{"remove middle", must(l.Remove(q, 1)), "SELECT count(*) FROM Transaction WHERE appId IN (1, 333) FACET name"},
		{"remove last", must(l.Remove(q, 2)), "SELECT count(*) FROM Transaction WHERE appId IN (1, 22) FACET name"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	one, _ := p.EntityLists("SELECT count(*) FROM T WHERE appId IN (7)")
	if _, err := one[0].Remove("SELECT count(*) FROM T WHERE appId IN (7)", 0); !errors.Is(err, ErrLastEntity) {
		t.Fatalf("removing the only entity: %v", err)
	}
	if _, err := p.EntityLists("SELECT count(*) FROM T WHERE appId IN (7"); err == nil {
		t.Fatal("an unclosed list parsed")
	}
}

func must(s string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return s
}

// The empty string literal (two single quotes) is the value "", not the quotes.
func TestEmptyStringInList(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.EntityLists("SELECT count(*) FROM T WHERE appName IN ('', 'a', 'it\\'s')")
	if err != nil || len(got) != 1 {
		t.Fatalf("lists %+v, %v", got, err)
	}
	if want := []string{"", "a", "it's"}; !reflect.DeepEqual(got[0].Values, want) {
		t.Fatalf("values %q, want %q", got[0].Values, want)
	}
}

// A backslash escapes the next byte; a backslash with nothing after it is kept. (The
// lexer never hands over such a literal, `'a\'` being unterminated: this pins unquote's
// own rule.)
func TestUnquote(t *testing.T) {
	for in, want := range map[string]string{
		`''`: "", `'a'`: "a", `'it\'s'`: "it's", `'a\\b'`: `a\b`, `'a\'`: `a\`, `'\'`: `\`, `x`: "x", ``: "",
	} {
		if got := unquote(in); got != want {
			t.Errorf("unquote(%s) = %q, want %q", in, got, want)
		}
	}
}

// Negative numbers and booleans in an entity list, nested NOT groups (walkCond), several
// WHERE clauses, a clause keyword inside parentheses, and List.Index.
func TestEntityListsMore(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		want        []List
		wantErr     bool
	}{
		{"negative number", "SELECT count(*) FROM T WHERE appId IN (-1, 2)", []List{{Attribute: "appId", Values: []string{"-1", "2"}}}, false},
		{"double NOT is positive", "SELECT count(*) FROM T WHERE NOT (NOT (appId IN (3)))", []List{{Attribute: "appId", Values: []string{"3"}}}, false},
		{"NOT group next to a positive list", "SELECT count(*) FROM T WHERE NOT (appId IN (1)) AND appName IN ('a')",
			[]List{{Attribute: "appName", Values: []string{"a"}, Strings: true}}, false},
		{"OR of lists", "SELECT count(*) FROM T WHERE appId IN (1) OR (entity.guid IN ('g') AND x = 1)",
			[]List{{Attribute: "appId", Values: []string{"1"}}, {Attribute: "entity.guid", Values: []string{"g"}, Strings: true}}, false},
		{"two WHERE clauses", "FROM T WHERE appId IN (1) SELECT count(*) WHERE appId IN (2) SINCE 1 day ago",
			[]List{{Attribute: "appId", Values: []string{"1"}}, {Attribute: "appId", Values: []string{"2"}}}, false},
		{"not an entity attribute", "SELECT count(*) FROM T WHERE appIdx IN (1) AND -appId IN (2)", nil, false},
		{"booleans", "SELECT count(*) FROM T WHERE appId IN (true, false)", []List{{Attribute: "appId", Values: []string{"true", "false"}}}, false},
		// a subquery is not in the grammar: the clause is refused, not cut at its SELECT
		{"keyword in parentheses", "SELECT count(*) FROM T WHERE appId IN (1) AND x IN (SELECT y FROM z)", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := p.EntityLists(tt.query)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parsed %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var short []List
			for _, l := range got {
				short = append(short, List{Attribute: l.Attribute, Values: l.Values, Strings: l.Strings})
			}
			if !reflect.DeepEqual(short, tt.want) {
				t.Fatalf("got %+v, want %+v", short, tt.want)
			}
		})
	}
	l := List{Values: []string{"a", "b", "a"}}
	if l.Index("a") != 0 || l.Index("b") != 1 || l.Index("c") != -1 {
		t.Errorf("Index: %d %d %d", l.Index("a"), l.Index("b"), l.Index("c"))
	}
}

// Adding to an equality turns it into an IN list of two, the rest of the query byte
// for byte; removing its only entity is refused.
func TestEqualityAddAndRemove(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query, add, want string
	}{
		{"SELECT count(*) FROM Transaction WHERE appName = 'checkout-service' AND duration > 1 FACET name",
			"'billing'", "SELECT count(*) FROM Transaction WHERE appName IN ('checkout-service', 'billing') AND duration > 1 FACET name"},
		{"SELECT count(*) FROM Transaction WHERE appId=123", "456", "SELECT count(*) FROM Transaction WHERE appId IN (123, 456)"},
		{"SELECT count(*) FROM Transaction WHERE `entity.guid` = 'MXxBUE18QVBQTElDQVRJT058MQ'", "'MXxBUE18QVBQTElDQVRJT058Mg'",
			"SELECT count(*) FROM Transaction WHERE `entity.guid` IN ('MXxBUE18QVBQTElDQVRJT058MQ', 'MXxBUE18QVBQTElDQVRJT058Mg')"},
	}
	for _, tt := range tests {
		lists, err := p.EntityLists(tt.query)
		if err != nil || len(lists) != 1 {
			t.Fatalf("%s: %v %v", tt.query, lists, err)
		}
		if got := lists[0].Add(tt.query, tt.add); got != tt.want {
			t.Errorf("Add:\n got %s\nwant %s", got, tt.want)
		}
		if _, err := lists[0].Remove(tt.query, 0); !errors.Is(err, ErrLastEntity) {
			t.Errorf("%s: removing the only entity: %v, want ErrLastEntity", tt.query, err)
		}
	}
}
