package nrqlwhere

import (
	"testing"
)

// Any text: no panic; every list found can take one more value and lose one, and the
// result parses with the list changed accordingly.
func FuzzEntityLists(f *testing.F) {
	for _, s := range []string{
		"SELECT count(*) FROM Transaction WHERE appId IN (1, 2)",
		"FROM T SELECT x WHERE appName IN ('a', 'b''c') AND y = 'appId IN (3)'",
		"SELECT filter(count(*), WHERE appId IN (9)) FROM T WHERE `entity.guid` IN ('g') LIMIT 5",
		"SELECT count(*) FROM T WHERE NOT appId IN (1) OR (appId IN (2) AND z IS NULL)",
		"SELECT count(*) FROM T WHERE appId IN (",
	} {
		f.Add(s)
	}
	p, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		lists, err := p.EntityLists(q)
		if err != nil {
			return
		}
		for _, l := range lists {
			lit := "7"
			if l.Strings {
				lit = "'zz'"
			}
			added, err := p.EntityLists(l.Add(q, lit))
			if err != nil || len(added) != len(lists) {
				t.Fatalf("after adding to %q: %v, %d lists", q, err, len(added))
			}
			if len(l.Values) > 1 {
				removed, err := l.Remove(q, 0)
				if err != nil {
					t.Fatal(err)
				}
				if after, err := p.EntityLists(removed); err != nil || len(after) != len(lists) {
					t.Fatalf("after removing from %q: %q %v", q, removed, err)
				}
			}
		}
	})
}
