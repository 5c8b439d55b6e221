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
		{name: "appId equality is not a list", query: "SELECT count(*) FROM Transaction WHERE appId = 5"},
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
